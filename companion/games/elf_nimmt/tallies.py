"""11 nimmt!: what one recorded entry adds to the per-deal statistics
(``tally``), and the figures the game page shows from their sums (``figures``)."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _

from companion.games.tallies import HORNOCHSEN, Figure, Tallies, ratio


def tally(entry: Any) -> dict[str, int]:
    return {HORNOCHSEN: int(entry.hornochsen())}


def figures(data: Tallies) -> tuple[Figure, ...]:
    return (
        Figure(
            str(_("Hornochsen per player and deal")),
            ratio(data.total(HORNOCHSEN), data.total("entries")),
            "number",
            data.per_player(HORNOCHSEN),
        ),
    )

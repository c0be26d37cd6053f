"""13: what one recorded entry adds to the per-deal statistics
(``tally``), and the figures the game page shows from their sums (``figures``)."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _

from companion.games.tallies import Figure, Tallies, ratio


def tally(entry: Any) -> dict[str, int]:
    return {"red": int(entry.red)}


def figures(data: Tallies) -> tuple[Figure, ...]:
    return (
        Figure(
            str(_("Red 4s taken per deal (all players)")),
            ratio(data.total("red"), data.deals),
            "number",
        ),
        Figure(
            str(_("Red 4s per player and deal")),
            ratio(data.total("red"), data.total("entries")),
            "number",
            data.per_player("red"),
        ),
    )

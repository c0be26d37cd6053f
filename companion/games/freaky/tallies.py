"""Freaky: what one recorded entry adds to the per-deal statistics
(``tally``), and the figures the game page shows from their sums (``figures``)."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _

from companion.games.tallies import Figure, Tallies, ratio


def tally(entry: Any) -> dict[str, int]:
    return {"collected": int(entry.collected)}


def figures(data: Tallies) -> tuple[Figure, ...]:
    return (
        Figure(
            str(_("Cards collected per player and match")),
            ratio(data.total("collected"), data.total("entries")),
            "number",
            data.per_player("collected"),
        ),
    )

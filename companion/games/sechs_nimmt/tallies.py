"""6 nimmt!: what one recorded entry adds to the per-deal statistics (``tally``), and the
figures the game page shows from their sums (``figures``)."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _

from companion.games.tallies import Figure, Tallies, ratio


def tally(entry: Any) -> dict[str, int]:
    """The Hornochsen of the pile, and whether the player took nothing in that deal."""
    counted = int(entry.count())
    return {"bulls": counted, "clean_deals": int(counted == 0)}


def figures(data: Tallies) -> tuple[Figure, ...]:
    return (
        Figure(
            str(_("Hornochsen per player and deal")),
            ratio(data.total("bulls"), data.total("entries")),
            "number",
            data.per_player("bulls"),
        ),
        Figure(
            str(_("Deals without a single Hornochse")),
            ratio(data.total("clean_deals"), data.total("entries")),
            "percent",
            data.per_player("clean_deals"),
        ),
    )

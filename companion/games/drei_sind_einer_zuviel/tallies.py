"""3 sind einer zuviel!: what one recorded entry adds to the per-deal statistics
(``tally``), and the figures the game page shows from their sums (``figures``)."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _

from companion.games.tallies import Figure, Tallies, ratio

BONUS_CARDS = (10, 7, 5, 3)
"""The interim scoring cards of 3 sind einer zuviel!, in the order they go out."""


def tally(entry: Any) -> dict[str, int]:
    return {f"bonus_{card}": 1 for card in BONUS_CARDS if entry.interim_bonus == card}


def figures(data: Tallies) -> tuple[Figure, ...]:
    # The cards go out in the order 10, 7, 5, 3, so a match with any bonus won has its 10.
    shown = [
        Figure(
            str(_("Matches in which an interim scoring card (Zwischenwertung) was won")),
            ratio(data.total("bonus_10"), data.matches),
            "percent",
        ),
    ]
    # A bonus card is won at most once per match, so counting entries counts matches.
    for card in BONUS_CARDS:
        shown.append(
            Figure(
                str(_("Interim scoring card (Zwischenwertung) %(card)d won")) % {"card": card},
                data.total(f"bonus_{card}"),
                "count",
                tuple(line for line in data.per_player(f"bonus_{card}", per_entry=False)
                      if line[1]),
            )
        )
    return tuple(shown)

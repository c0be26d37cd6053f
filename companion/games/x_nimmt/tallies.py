"""X nimmt!: what one recorded entry adds to the per-deal statistics
(``tally``), and the figures the game page shows from their sums (``figures``)."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _

from companion.games.tallies import HORNOCHSEN, Figure, Tallies, ratio


def tally(entry: Any) -> dict[str, int]:
    counted = entry.hornochsen()
    return {
        HORNOCHSEN: int(counted.hand + counted.x_stack),
        "stack_points": 2 * int(counted.x_stack),
        "minus_points": int(counted.minus_points),
    }


def figures(data: Tallies) -> tuple[Figure, ...]:
    shares = tuple(
        (data.names[pid], ratio(counts.get("stack_points", 0), counts.get("minus_points", 0)))
        for pid, counts in sorted(data.by_player.items(),
                                 key=lambda item: (data.names[item[0]].casefold(), item[0]))
    )
    return (
        Figure(
            str(_("Hornochsen per player and deal")),
            ratio(data.total(HORNOCHSEN), data.total("entries")),
            "number",
            data.per_player(HORNOCHSEN),
        ),
        Figure(
            str(_("Share of the minus points from the X-stack")),
            ratio(data.total("stack_points"), data.total("minus_points")),
            "percent",
            shares,
        ),
    )

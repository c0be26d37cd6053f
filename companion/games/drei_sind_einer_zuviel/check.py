"""3 sind einer zuviel!: where a played card goes and what its player takes."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from django.utils.translation import gettext

from companion.games.checks import Refusal
from scoring import drei_sind_einer_zuviel

START_CARDS = (0, 30, 60)
"""The start card of each row."""


@dataclass(frozen=True, slots=True)
class DreiAnswer:
    card: int
    row: int
    """Index 0–2."""
    position: int
    """Where the card is laid, before anything is taken: 1 = right next to the start card."""
    before: tuple[tuple[int, ...], ...]
    after: tuple[tuple[int, ...], ...]
    taken: tuple[int, ...]
    highest: bool
    """The fifth card was the highest in its row (case a)."""
    rule: str
    """Anchor of the deciding rule on the rules page."""

    @property
    def grey_taken(self) -> int | None:
        """The grey card among those taken (back to the box, never scored); a row holds
        at most one (15, 45 and 75 each belong to another row)."""
        return next((c for c in self.taken if c in drei_sind_einer_zuviel.GREY_CARDS), None)

    @property
    def fifth(self) -> bool:
        return bool(self.taken)

    @property
    def start_card(self) -> int:
        return START_CARDS[self.row]


def check_drei_place(rows: Sequence[Sequence[int]], card: int) -> DreiAnswer:
    """Where ``card`` goes on the three rows (number cards after the start cards).

    >>> answer = check_drei_place([[10, 19, 24], [35], []], 40)
    >>> answer.row, answer.position, answer.taken, answer.rule
    (1, 2, (), 'ascending-order')
    >>> check_drei_place([[10, 19, 24], [], []], 28).position  # laid fourth, then the 10 taken
    4
    >>> check_drei_place([[15, 19, 24], [], []], 1).grey_taken
    15
    """
    for number, row in enumerate(rows, start=1):
        start = next((c for c in row if c in START_CARDS), None)
        if start is not None:
            # The start cards head the rows and are not typed: "There is no card 0" or
            # "is never played" would be untrue or beside the point here.
            raise Refusal(gettext(
                "Card %(card)s is a start card: it heads its row and is not typed in. "
                "Enter only the number cards after it.") % {"card": start},
                field=f"row_{number}", code="start_card")
    placed = drei_sind_einer_zuviel.place(rows, card)
    # The place the card is laid at, counted in the row as it was plus the card: taking
    # happens after laying (the row after taking would put a fifth card third).
    laid = sorted((*rows[placed.row], card))
    highest = bool(placed.taken) and all(c < card for c in rows[placed.row])
    if not placed.taken:
        rule = "ascending-order"
    elif highest:
        rule = "fifth-card-highest"
    else:
        rule = "fifth-card-lower"
    return DreiAnswer(
        card=card, row=placed.row, position=laid.index(card) + 1,
        before=tuple(tuple(r) for r in rows), after=placed.rows, taken=placed.taken,
        highest=highest, rule=rule,
    )

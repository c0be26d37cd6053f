"""The number cards 1–100 of X nimmt! and 11 nimmt!, and the Hornochsen on them.

Both games use the same hundred cards; their checks and the deck description
(which card shows how many Hornochsen) live here once.

>>> STANDARD_DECK.total, STANDARD_DECK.of(55), STANDARD_DECK.count([10, 11, 12])
(167, 7, 9)
>>> check_cards([3, 3])
Traceback (most recent call last):
...
scoring.ScoringError: Card 3 appears twice.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import TypeAlias

from scoring import error, hornochsen

__all__ = ["CARDS", "MAX_HORNOCHSEN", "STANDARD_DECK", "Card", "Deck", "check_card", "check_cards"]

Card: TypeAlias = int
"""A number card 1–100."""

CARDS: tuple[Card, ...] = tuple(range(1, 101))
"""All number cards."""

MAX_HORNOCHSEN = 167
"""All Hornochsen of the classic deck (1–100)."""


def check_card(value: object) -> Card:
    """``value`` as a card number, or a ScoringError.

    >>> check_card(0)
    Traceback (most recent call last):
    ...
    scoring.ScoringError: There is no card 0: cards go from 1 to 100.
    """
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= 100:
        raise error("card_range", "There is no card {card}: cards go from 1 to 100.", card=value)
    return value


def check_cards(values: object) -> tuple[Card, ...]:
    """Distinct cards, as a tuple in the order given.

    >>> check_cards((5, 98, 1))
    (5, 98, 1)
    >>> check_cards("12")
    Traceback (most recent call last):
    ...
    scoring.ScoringError: Cards must be given as a list of card numbers.
    """
    if isinstance(values, (str, bytes, Mapping)) or not isinstance(values, Iterable):
        raise error("cards_type", "Cards must be given as a list of card numbers.")
    cards = tuple(values)
    if not cards or (
        set(map(type, cards)) == {int} and min(cards) >= 1 and max(cards) <= 100
        and len(set(cards)) == len(cards)
    ):
        return cards  # the common case, checked without a Python loop
    seen: set[Card] = set()
    for card in map(check_card, cards):
        if card in seen:
            raise error("card_twice", "Card {card} appears twice.", card=card)
        seen.add(card)
    return cards


@dataclass(frozen=True, slots=True)
class Deck:
    """Hornochsen printed on each card 1–100.

    The rulebooks only say every card shows 1, 2, 3, 5 or 7 Hornochsen; the
    classic scheme (:func:`scoring.hornochsen`) is the default, a group may
    describe its own deck with :meth:`from_mapping`.

    >>> Deck.standard().total, Deck.standard().of(55)
    (167, 7)
    >>> Deck.from_mapping({5: 4})
    Traceback (most recent call last):
    ...
    scoring.ScoringError: Card 5 cannot show 4 Hornochsen: cards show 1, 2, 3, 5 or 7.
    """

    values: tuple[int, ...]
    """Index ``card`` holds the Hornochsen of that card; index 0 is unused (0)."""

    def __post_init__(self) -> None:
        if len(self.values) != 101 or self.values[0] != 0:
            raise error(
                "deck_shape", "A deck describes the Hornochsen of exactly the cards 1 to 100."
            )
        for card in CARDS:
            value = self.values[card]
            if isinstance(value, bool) or value not in (1, 2, 3, 5, 7):
                raise error(
                    "deck_value",
                    "Card {card} cannot show {value} Hornochsen: cards show 1, 2, 3, 5 or 7.",
                    card=card, value=value,
                )

    @classmethod
    def standard(cls) -> Deck:
        """The classic deck: 55 → 7, multiples of 11 → 5, of 10 → 3, of 5 → 2, else 1."""
        return STANDARD_DECK

    @classmethod
    def from_mapping(cls, values: Mapping[int, int]) -> Deck:
        """A deck from ``{card: Hornochsen}``; cards not given keep the classic value.

        >>> Deck.from_mapping({1: 7}).of(1)
        7
        """
        table = list(STANDARD_DECK.values)
        for card, value in values.items():
            table[check_card(card)] = value
        return cls(tuple(table))

    @property
    def total(self) -> int:
        """All Hornochsen of the deck (167 for the classic one)."""
        return sum(self.values)

    def of(self, card: Card) -> int:
        """Hornochsen on one card."""
        return self.values[check_card(card)]

    def count(self, cards: Iterable[Card]) -> int:
        """Hornochsen on some cards."""
        values = self.values
        return sum(values[check_card(card)] for card in cards)


STANDARD_DECK = Deck((0, *(hornochsen(card) for card in CARDS)))

"""X nimmt! (Amigo, Kramer & Staupe): 2–4 players, fewest minus points after two deals.

The rules are in ``rules/x-nimmt.md``. This module has four parts:

* the contract of ``ENGINE.md``: :data:`ROW_SIZES`, :func:`play`,
  :func:`add_to_x_row`, :func:`deal_penalty`;
* the recording interface shared by all games (see :mod:`scoring.common`):
  :class:`Entry`, :func:`deal_count`, :func:`validate_deal`,
  :func:`score_deal`, :func:`entry_from_dict`, :func:`entry_to_dict`;
* the round resolver behind the app's move-legality page:
  :func:`resolve_round`;
* the complete game model: :func:`new_game`, :func:`legal_actions`,
  :func:`apply`, :func:`random_game`.

Cards are the numbers 1–100. The Hornochsen printed on a card come from a
:class:`Deck` (by default the classic scheme of :func:`scoring.hornochsen`; a
group may describe its own deck).

>>> play([[12], [31], [50, 61, 70]], 25).rows
((12, 25), (31,), (50, 61, 70))
>>> deal_penalty(hand=[7, 10], x_stack=[55])
18
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from enum import Enum
from functools import lru_cache
from itertools import pairwise
from types import MappingProxyType
from typing import TypeAlias

from scoring import GAMES, error
from scoring.common import (
    Breakdown,
    CardValue,
    ScorePart,
    SimulatedGame,
    player_names,
    revealed_cards,
)
from scoring.number_cards import CARDS, MAX_HORNOCHSEN, Card, Deck
from scoring.number_cards import STANDARD_DECK as _STANDARD
from scoring.number_cards import check_card as _card
from scoring.number_cards import check_cards as _cards

__all__ = [
    "CARDS",
    "DEALS",
    "HAND_SIZE",
    "MAX_HORNOCHSEN",
    "ROW_SIZES",
    "Action",
    "Card",
    "ChoiceKind",
    "ChooseRow",
    "ChooseXCard",
    "DealHornochsen",
    "DealResult",
    "DealSetup",
    "Deck",
    "Entry",
    "PendingChoice",
    "Phase",
    "Placement",
    "PlacementRule",
    "PlayCard",
    "RoundResolution",
    "Row",
    "Seat",
    "State",
    "Step",
    "XRowChange",
    "add_to_x_row",
    "apply",
    "card_places",
    "deal_count",
    "deal_from_order",
    "deal_penalty",
    "entry_from_dict",
    "entry_to_dict",
    "explain_deal",
    "legal_actions",
    "new_game",
    "play",
    "random_game",
    "random_setup",
    "resolve_round",
    "score_deal",
    "totals",
    "validate_deal",
]

Row: TypeAlias = tuple[Card, ...]
"""The cards of one row (or an X-row), left to right, ascending."""

SLUG = "x-nimmt"
ROW_SIZES: tuple[int, int, int] = (3, 4, 5)
"""The row cards on the table, top to bottom: a row is full with its 3rd, 4th, 5th card."""
HAND_SIZE = 8
"""Cards dealt to each player at the start of a deal."""
DEALS = 2
"""Deals ("Durchgänge") in a game."""

_INFO = GAMES[SLUG]


# ---------------------------------------------------------------------------
# Input checks shared by everything below
# ---------------------------------------------------------------------------


def _rows(rows: object) -> tuple[Row, Row, Row]:
    """Checked table rows: three non-empty ascending rows within their sizes, distinct cards."""
    if isinstance(rows, (str, bytes)) or not isinstance(rows, Sequence) or len(rows) != 3:
        raise error("rows_count", "The table has exactly three rows (the rows 3, 4 and 5).")
    checked: list[Row] = []
    seen: set[Card] = set()
    for index, row in enumerate(rows):
        size = ROW_SIZES[index]
        cards = _cards(row)
        if not cards:
            raise error(
                "row_empty", "The {size}-row is empty: every row always holds a card.", size=size
            )
        for left, right in pairwise(cards):
            if right < left:
                raise error(
                    "row_not_ascending",
                    "The {size}-row must ascend from left to right, but {right} follows {left}.",
                    size=size, left=left, right=right,
                )
        if len(cards) >= size:
            raise error(
                "row_too_long",
                "The {size}-row holds at most {most} cards between two placements, not {count}.",
                size=size, most=size - 1, count=len(cards),
            )
        for card in cards:
            if card in seen:
                raise error("card_twice", "Card {card} appears twice.", card=card)
            seen.add(card)
        checked.append(cards)
    return checked[0], checked[1], checked[2]


def _x_row(x_row: object) -> Row:
    """A checked X-row: distinct ascending cards (may be empty)."""
    cards = _cards(x_row)
    for left, right in pairwise(cards):
        if right < left:
            raise error(
                "x_row_not_ascending",
                "An X-row must ascend from left to right, but {right} follows {left}.",
                left=left, right=right,
            )
    return cards


# ---------------------------------------------------------------------------
# The deck: Hornochsen per card
# ---------------------------------------------------------------------------


def _deck(deck: Deck | None) -> Deck:
    if deck is None:
        return _STANDARD
    if not isinstance(deck, Deck):
        raise error("deck_type", "The deck must be a Deck.")
    return deck


# ---------------------------------------------------------------------------
# The ENGINE.md contract
# ---------------------------------------------------------------------------


class PlacementRule(Enum):
    """Which rule decided where a played card went."""

    ASCENDING = "ascending"
    """Rules 1 and 2 ("ascending", "lowest difference"): the card was added to
    the end of the row whose last card is the highest card below it."""
    FULL_ROW = "full-row"
    """Rule 3 ("full row"): the card would have been the row's 3rd/4th/5th
    card, so the player took the row's cards and the card starts the row."""
    LOW_CARD = "low-card"
    """Rule 4 ("low card"): the card was lower than every row's last card, so
    the player chose a row, took its cards and the card starts that row."""


@dataclass(frozen=True, slots=True)
class Placement:
    """Where a played card went and what the player must take."""

    row: int
    """Index 0–2 of the row the card went to (rows 3, 4, 5)."""
    rows: tuple[Row, Row, Row]
    """The three rows after the placement."""
    taken: tuple[Card, ...]
    """The cards the player must take, ascending; empty if none."""
    rule: PlacementRule
    """The rule that decided the placement."""


def _target_row(rows: tuple[Row, Row, Row], card: Card) -> int | None:
    """Index of the row with the highest last card below ``card`` (rule 2), or None."""
    best = -1
    best_end = 0
    for index in range(3):
        end = rows[index][-1]
        if best_end < end < card:
            best = index
            best_end = end
    return None if best < 0 else best


def _place(rows: tuple[Row, Row, Row], card: Card, choose_row: int | None) -> Placement:
    """:func:`play` on checked rows and a card that is on none of them."""
    index = _target_row(rows, card)
    if index is None:
        if choose_row is None:
            raise error(
                "row_choice_needed",
                "Card {card} is lower than every row's last card: the player must choose a row.",
                card=card,
            )
        if isinstance(choose_row, bool) or not isinstance(choose_row, int) or not (
            0 <= choose_row <= 2
        ):
            raise error(
                "row_index", "There is no row {row}: rows are numbered 0, 1 and 2.", row=choose_row
            )
        index = choose_row
        rule = PlacementRule.LOW_CARD
        taken = rows[index]
        new_row: Row = (card,)
    elif len(rows[index]) == ROW_SIZES[index] - 1:
        rule = PlacementRule.FULL_ROW
        taken = rows[index]
        new_row = (card,)
    else:
        rule = PlacementRule.ASCENDING
        taken = ()
        new_row = (*rows[index], card)
    new_rows = list(rows)
    new_rows[index] = new_row
    return Placement(index, (new_rows[0], new_rows[1], new_rows[2]), taken, rule)


def play(
    rows: Sequence[Sequence[int]], card: int, *, choose_row: int | None = None
) -> Placement:
    """Place ``card`` on the table by rules 1–4.

    ``rows`` are the cards of the rows 3, 4 and 5, left to right. When the card
    is lower than every row's last card the player chooses a row
    (``choose_row``, index 0–2); otherwise ``choose_row`` is ignored.

    >>> placed = play([[12], [31, 40, 45], [70]], 59)  # the 4-row is full with its 4th card
    >>> placed.row, placed.rows, placed.taken, placed.rule.name
    (1, ((12,), (59,), (70,)), (31, 40, 45), 'FULL_ROW')
    >>> play([[48], [59], [60]], 43, choose_row=1).taken
    (59,)
    >>> play([[48], [59], [60]], 43)
    Traceback (most recent call last):
    ...
    scoring.ScoringError: Card 43 is lower than every row's last card: the player must choose a row.
    """
    checked = _rows(rows)
    card = _card(card)
    for row in checked:
        if card in row:
            raise error("card_on_table", "Card {card} already lies in a row.", card=card)
    return _place(checked, card, choose_row)


def add_to_x_row(x_row: Sequence[int], card: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Add a taken card to an X-row: ``(new_x_row, cards_moved_to_x_stack)``.

    The X-row ascends; a card lower than its last card sends all the X-row's
    cards to the X-stack (in X-row order) and starts a new X-row.

    >>> add_to_x_row([18, 23], 40)
    ((18, 23, 40), ())
    >>> add_to_x_row([18, 23], 9)
    ((9,), (18, 23))
    """
    row = _x_row(x_row)
    card = _card(card)
    if card in row:
        raise error("card_in_x_row", "Card {card} already lies in the X-row.", card=card)
    if not row or row[-1] < card:
        return (*row, card), ()
    return (card,), row


def deal_penalty(*, hand: Iterable[int], x_stack: Iterable[int]) -> int:
    """Minus points of a deal: hand Hornochsen ×1, X-stack Hornochsen ×2.

    Cards in the X-row count nothing, so they are not an argument.

    >>> deal_penalty(hand=[1, 2, 3, 4, 6], x_stack=[10, 20, 30])  # 5 + 2 × 9
    23
    """
    hand_cards = _cards(hand)
    stack_cards = _cards(x_stack)
    for card in hand_cards:
        if card in stack_cards:
            raise error("card_twice", "Card {card} appears twice.", card=card)
    return _STANDARD.count(hand_cards) + 2 * _STANDARD.count(stack_cards)


# ---------------------------------------------------------------------------
# Recording interface
# ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class DealHornochsen:
    """The Hornochsen a player ends a deal with."""

    hand: int
    """Hornochsen on the remaining hand cards (1 minus point each)."""
    x_stack: int
    """Hornochsen on the cards of the X-stack (2 minus points each)."""

    @property
    def minus_points(self) -> int:
        """``hand + 2 × x_stack``.

        >>> DealHornochsen(hand=5, x_stack=9).minus_points
        23
        """
        return self.hand + 2 * self.x_stack


@dataclass(frozen=True, slots=True)
class Entry:
    """What one player records for one deal: Hornochsen counts or card numbers.

    Give either the counts (``hand``, ``x_stack``) or the cards
    (``hand_cards``, ``x_stack_cards``); the engine counts the Hornochsen of
    given cards, and cards win over counts. A count other than 0 that
    disagrees with its cards is rejected by :func:`validate_deal`.

    >>> Entry(hand=5, x_stack=9).minus_points
    23
    >>> Entry(hand_cards=(55, 3), x_stack_cards=(10,)).hornochsen()
    DealHornochsen(hand=8, x_stack=3)
    """

    hand: int = 0
    """Hornochsen on the remaining hand cards."""
    x_stack: int = 0
    """Hornochsen on the cards of the X-stack."""
    hand_cards: tuple[int, ...] | None = None
    """The remaining hand cards, if recorded by number."""
    x_stack_cards: tuple[int, ...] | None = None
    """The cards of the X-stack, if recorded by number."""

    def __post_init__(self) -> None:
        # Lists are accepted for convenience and stored as tuples (the entry stays hashable).
        if isinstance(self.hand_cards, list):
            object.__setattr__(self, "hand_cards", tuple(self.hand_cards))
        if isinstance(self.x_stack_cards, list):
            object.__setattr__(self, "x_stack_cards", tuple(self.x_stack_cards))

    def hornochsen(self, deck: Deck | None = None) -> DealHornochsen:
        """The effective Hornochsen: counted from the cards where given, else the counts."""
        deck = _deck(deck)
        hand = self.hand if self.hand_cards is None else deck.count(self.hand_cards)
        stack = self.x_stack if self.x_stack_cards is None else deck.count(self.x_stack_cards)
        return DealHornochsen(hand, stack)

    @property
    def hand_hornochsen(self) -> int:
        """Effective hand Hornochsen with the classic deck."""
        return self.hornochsen().hand

    @property
    def x_stack_hornochsen(self) -> int:
        """Effective X-stack Hornochsen with the classic deck."""
        return self.hornochsen().x_stack

    @property
    def minus_points(self) -> int:
        """Minus points of the deal with the classic deck."""
        return self.hornochsen().minus_points

    @property
    def cards(self) -> tuple[Card, ...]:
        """Every card number the entry names (hand, then X-stack)."""
        return (*(self.hand_cards or ()), *(self.x_stack_cards or ()))


def deal_count(players: int) -> int:
    """Deals in a complete game: always two.

    >>> deal_count(3)
    2
    """
    _INFO.check_players(players)
    return DEALS


def _check_entry(player: str, entry: object, deck: Deck) -> DealHornochsen:
    """Checks one player's entry and returns its effective Hornochsen."""
    if not isinstance(entry, Entry):
        raise error("entry_type", "{player}: the entry is not an X nimmt! entry.", player=player)
    hand, stack = entry.hand, entry.x_stack
    if isinstance(hand, bool) or not isinstance(hand, int):
        raise error(
            "count_type", "{player}: the Hornochsen in hand must be a whole number.",
            player=player,
        )
    if isinstance(stack, bool) or not isinstance(stack, int):
        raise error(
            "count_type", "{player}: the Hornochsen in the X-stack must be a whole number.",
            player=player,
        )
    if hand < 0:
        raise error(
            "count_negative", "{player}: the Hornochsen in hand cannot be negative ({value}).",
            player=player, value=hand,
        )
    if stack < 0:
        raise error(
            "count_negative",
            "{player}: the Hornochsen in the X-stack cannot be negative ({value}).",
            player=player, value=stack,
        )
    if entry.hand_cards is not None:
        counted = deck.count(_cards(entry.hand_cards))
        if hand and hand != counted:
            raise error(
                "count_mismatch",
                "{player}: {count} Hornochsen in hand were recorded, "
                "but the hand cards show {counted}.",
                player=player, count=hand, counted=counted,
            )
        hand = counted
    if entry.x_stack_cards is not None:
        counted = deck.count(_cards(entry.x_stack_cards))
        if stack and stack != counted:
            raise error(
                "count_mismatch",
                "{player}: {count} Hornochsen in the X-stack were recorded, "
                "but the X-stack cards show {counted}.",
                player=player, count=stack, counted=counted,
            )
        stack = counted
    return DealHornochsen(hand, stack)


def validate_deal(entries: Mapping[str, Entry], *, deck: Deck | None = None) -> None:
    """Cross-player checks of one deal's entries (``{player: Entry}``).

    2–4 players; counts are non-negative whole numbers; cards are 1–100; a card
    appears at most once in the deal (over all hands and X-stacks); a count
    other than 0 given beside cards agrees with them; all Hornochsen of the
    deal (hands and X-stacks of all players) are at most the deck's (167);
    at least one hand is empty, given as no card numbers or as 0 Hornochsen
    (a deal ends only after a round at whose end someone holds no hand cards).

    >>> validate_deal({"Anna": Entry(hand_cards=(7,)), "Ben": Entry(x_stack_cards=(7,))})
    Traceback (most recent call last):
    ...
    scoring.ScoringError: Card 7 appears more than once in this deal (Anna and Ben).
    >>> validate_deal({"Anna": Entry(x_stack=100), "Ben": Entry(x_stack=68)})
    Traceback (most recent call last):
    ...
    scoring.ScoringError: This deal records 168 Hornochsen, but the whole deck has only 167.
    >>> validate_deal({"Anna": Entry(hand_cards=(7,)), "Ben": Entry(hand_cards=(9, 12))})
    Traceback (most recent call last):
    ...
    scoring.ScoringError: Every player still holds hand cards, so this deal has not ended: \
a deal ends after a round at whose end someone holds no hand cards.
    >>> validate_deal({"Anna": Entry(hand=3), "Ben": Entry(hand=5, x_stack=2)})
    Traceback (most recent call last):
    ...
    scoring.ScoringError: Every player still holds hand cards, so this deal has not ended: \
a deal ends after a round at whose end someone holds no hand cards.
    """
    _deal_hornochsen(entries, _deck(deck))


def _deal_hornochsen(entries: Mapping[str, Entry], deck: Deck) -> dict[str, DealHornochsen]:
    if not isinstance(entries, Mapping):
        raise error("entries_type", "A deal's entries must map each player to an entry.")
    _INFO.check_players(len(entries))
    owner: dict[Card, str] = {}
    counted: dict[str, DealHornochsen] = {}
    total = 0
    for player, entry in entries.items():
        if not isinstance(player, str) or not player:
            raise error("player_name", "Every player needs a name.")
        result = _check_entry(player, entry, deck)
        counted[player] = result
        total += result.hand + result.x_stack
        for card in entry.cards:
            if card in owner:
                first = owner[card]
                raise error(
                    "card_in_deal_twice",
                    "Card {card} appears more than once in this deal ({first} and {second}).",
                    card=card, first=first, second=player,
                )
            owner[card] = player
    if total > deck.total:
        raise error(
            "too_many_hornochsen",
            "This deal records {total} Hornochsen, but the whole deck has only {most}.",
            total=total, most=deck.total,
        )
    # Every card carries at least one Hornochse: 0 in hand is an empty hand, whichever
    # way the hand was recorded (counts or card numbers).
    if all(result.hand > 0 or entry.hand_cards for result, entry in
           zip(counted.values(), entries.values(), strict=True)):
        raise error(
            "nobody_out",
            "Every player still holds hand cards, so this deal has not ended: "
            "a deal ends after a round at whose end someone holds no hand cards.",
        )
    return counted


def score_deal(entries: Mapping[str, Entry], *, deck: Deck | None = None) -> dict[str, int]:
    """Validates, then each player's minus points of the deal (hand ×1 + X-stack ×2).

    >>> score_deal({"Anna": Entry(hand=5, x_stack=9), "Ben": Entry(x_stack_cards=(55,))})
    {'Anna': 23, 'Ben': 14}
    """
    counted = _deal_hornochsen(entries, _deck(deck))
    return {player: result.minus_points for player, result in counted.items()}


def _card_values(cards: tuple[Card, ...] | None, deck: Deck) -> tuple[CardValue, ...]:
    return tuple(CardValue(card, deck.of(card)) for card in sorted(cards or ()))


def explain_deal(entries: Mapping[str, Entry], *, deck: Deck | None = None) -> Breakdown:
    """Validates, then each player's minus points as hand and X-stack terms.

    The X-stack term counts twice; recorded card numbers come with their
    Hornochsen.

    >>> parts = explain_deal({"Anna": Entry(hand=5, x_stack=9),
    ...                       "Ben": Entry(x_stack_cards=(55, 3))})
    >>> [(p.kind, p.count, p.points) for p in parts["Anna"]]
    [('hand', 5, 5), ('x_stack', 9, 18)]
    >>> parts["Ben"][1].cards
    (CardValue(card=3, hornochsen=1), CardValue(card=55, hornochsen=7))
    """
    deck = _deck(deck)
    counted = _deal_hornochsen(entries, deck)
    return {
        player: (
            ScorePart("hand", counted[player].hand, counted[player].hand,
                      cards=_card_values(entry.hand_cards, deck)),
            ScorePart("x_stack", counted[player].x_stack, 2 * counted[player].x_stack,
                      cards=_card_values(entry.x_stack_cards, deck)),
        )
        for player, entry in entries.items()
    }


_ENTRY_KEYS = ("hand", "x_stack", "hand_cards", "x_stack_cards")


def entry_to_dict(entry: Entry) -> dict[str, object]:
    """JSON-compatible form of an entry (card lists, or ``None`` where not recorded).

    >>> entry_to_dict(Entry(hand=3, x_stack_cards=(10, 20)))
    {'hand': 3, 'x_stack': 0, 'hand_cards': None, 'x_stack_cards': [10, 20]}
    """
    if not isinstance(entry, Entry):
        raise error("entry_type", "This is not an X nimmt! entry.")
    return {
        "hand": entry.hand,
        "x_stack": entry.x_stack,
        "hand_cards": None if entry.hand_cards is None else list(entry.hand_cards),
        "x_stack_cards": None if entry.x_stack_cards is None else list(entry.x_stack_cards),
    }


def entry_from_dict(data: Mapping[str, object]) -> Entry:
    """The entry that :func:`entry_to_dict` wrote; missing keys take their defaults.

    >>> entry_from_dict({"hand": 4, "x_stack_cards": [55]})
    Entry(hand=4, x_stack=0, hand_cards=None, x_stack_cards=(55,))
    >>> entry_from_dict({"hand": -1})
    Traceback (most recent call last):
    ...
    scoring.ScoringError: The Hornochsen in hand cannot be negative (-1).
    """
    if not isinstance(data, Mapping):
        raise error("entry_data", "An X nimmt! entry must be an object with named fields.")
    unknown = sorted(str(key) for key in data if key not in _ENTRY_KEYS)
    if unknown:
        raise error(
            "entry_key", "Unknown field(s) in an X nimmt! entry: {keys}.", keys=", ".join(unknown)
        )
    hand = data.get("hand", 0)
    stack = data.get("x_stack", 0)
    if isinstance(hand, bool) or not isinstance(hand, int):
        raise error("count_type", "The Hornochsen in hand must be a whole number.")
    if isinstance(stack, bool) or not isinstance(stack, int):
        raise error("count_type", "The Hornochsen in the X-stack must be a whole number.")
    if hand < 0:
        raise error(
            "count_negative", "The Hornochsen in hand cannot be negative ({value}).", value=hand
        )
    if stack < 0:
        raise error(
            "count_negative", "The Hornochsen in the X-stack cannot be negative ({value}).",
            value=stack,
        )
    hand_cards = data.get("hand_cards")
    stack_cards = data.get("x_stack_cards")
    for cards in (hand_cards, stack_cards):
        if cards is not None and not isinstance(cards, (list, tuple)):
            raise error("cards_type", "Cards must be given as a list of card numbers.")
    return Entry(
        hand,
        stack,
        None if hand_cards is None else _cards(hand_cards),
        None if stack_cards is None else _cards(stack_cards),
    )


# ---------------------------------------------------------------------------
# The round resolver (the app's move-legality page)
# ---------------------------------------------------------------------------


class ChoiceKind(Enum):
    """A choice the rules leave to a player while a round is resolved."""

    ROW = "row"
    """The card is lower than every row's last card (rule 4): the player picks
    the row whose cards they take; the options are row indices 0–2."""
    X_CARD = "x-card"
    """The player took two or more cards: they pick the one that goes to their
    X-row (the others go to their hand); the options are the taken cards."""


@dataclass(frozen=True, slots=True)
class PendingChoice:
    """The next choice a player must make before the round can go on."""

    kind: ChoiceKind
    player: str
    card: Card
    """The card being resolved (the one the player revealed)."""
    options: tuple[int, ...]
    """Row indices 0–2 (:attr:`ChoiceKind.ROW`) or the taken cards, ascending
    (:attr:`ChoiceKind.X_CARD`)."""
    row: int | None = None
    """For :attr:`ChoiceKind.X_CARD`: the row the card went to."""


@dataclass(frozen=True, slots=True)
class XRowChange:
    """What adding a taken card does to a player's X-row."""

    before: Row
    after: Row
    to_x_stack: tuple[Card, ...]
    """X-row cards that went face down onto the X-stack (empty if none)."""


@dataclass(frozen=True, slots=True)
class Step:
    """One revealed card placed on the table."""

    player: str
    card: Card
    row: int
    """Index 0–2 of the row the card went to (rows 3, 4, 5)."""
    rule: PlacementRule
    taken: tuple[Card, ...]
    """Cards the player took, ascending (empty if none)."""
    to_x_row: Card | None
    """The taken card that went to the player's X-row (None if nothing was taken)."""
    to_hand: tuple[Card, ...]
    """The other taken cards: to the player's hand, playable from the next round on."""
    x_row: XRowChange | None
    """The effect on the player's X-row, when the X-rows were given."""
    rows: tuple[Row, Row, Row]
    """The rows after this step."""


@dataclass(frozen=True, slots=True)
class RoundResolution:
    """A round resolved lowest card first, as far as the given choices reach."""

    steps: tuple[Step, ...]
    rows: tuple[Row, Row, Row]
    """The rows after the last step."""
    pending: PendingChoice | None
    """The choice that stops the resolution, or None when the round is complete."""
    waiting: tuple[Card, ...]
    """Revealed cards not placed yet, ascending (the pending card first)."""
    x_rows: Mapping[str, Row] | None
    """Every given player's X-row after the last step (None if X-rows were not given)."""
    x_stacks: Mapping[str, tuple[Card, ...]] | None
    """Per given player, the cards that went to their X-stack in this round."""

    @property
    def complete(self) -> bool:
        """Every revealed card has been placed."""
        return self.pending is None


def _x_add(x_row: Row, card: Card) -> tuple[Row, Row]:
    """:func:`add_to_x_row` on a checked X-row and a card not in it."""
    if not x_row or x_row[-1] < card:
        return (*x_row, card), ()
    return (card,), x_row


def resolve_round(
    rows: Sequence[Sequence[int]],
    plays: Mapping[str, int],
    *,
    row_choices: Mapping[int, int] | None = None,
    x_choices: Mapping[int, int] | None = None,
    x_rows: Mapping[str, Sequence[int]] | None = None,
) -> RoundResolution:
    """Resolve one round: every revealed card placed, lowest first, step by step.

    ``rows`` are the rows 3, 4, 5 before the round; ``plays`` maps each player
    to the card they revealed. ``row_choices`` maps a too-low card to the row
    index its player chose (rule 4); ``x_choices`` maps a played card to the
    taken card its player puts into the X-row (needed when two or more cards
    are taken; a single taken card goes there by itself). With ``x_rows``
    (player → X-row before the round; a missing player has an empty X-row) the
    steps also show what happens to the X-rows and X-stacks.

    The resolution stops at the first choice that is missing and names it in
    :attr:`RoundResolution.pending`. Choices for cards that turn out not to
    need one are ignored.

    >>> done = resolve_round([[12], [31, 40, 45], [70]], {"Anna": 59, "Ben": 81, "Cem": 94},
    ...                      x_choices={59: 40})
    >>> [(s.player, s.card, s.row, s.rule.name, s.taken, s.to_x_row) for s in done.steps]
    ... # doctest: +NORMALIZE_WHITESPACE
    [('Anna', 59, 1, 'FULL_ROW', (31, 40, 45), 40), ('Ben', 81, 2, 'ASCENDING', (), None),
     ('Cem', 94, 2, 'ASCENDING', (), None)]
    >>> stop = resolve_round([[48], [59], [60]], {"Anna": 43, "Ben": 66})
    >>> stop.pending.kind.name, stop.pending.player, stop.pending.options, stop.waiting
    ('ROW', 'Anna', (0, 1, 2), (43, 66))
    """
    table = _rows(rows)
    on_table = {card for row in table for card in row}
    owner = revealed_cards(plays, on_table=on_table, card=_card,
                           check_players=_INFO.check_players)
    rows_chosen = _choices(row_choices, owner)
    for row in rows_chosen.values():
        if isinstance(row, bool) or not isinstance(row, int) or not 0 <= row <= 2:
            raise error(
                "row_index", "There is no row {row}: rows are numbered 0, 1 and 2.", row=row
            )
    x_chosen = _choices(x_choices, owner)
    for chosen in x_chosen.values():
        _card(chosen)
    current_x: dict[str, Row] | None = None
    stacked: dict[str, tuple[Card, ...]] | None = None
    if x_rows is not None:
        current_x, stacked = _checked_x_rows(x_rows, owner, on_table)

    steps: list[Step] = []
    order = sorted(owner)
    for position, card in enumerate(order):
        player = owner[card]
        if _target_row(table, card) is None and card not in rows_chosen:
            return RoundResolution(
                tuple(steps), table, PendingChoice(ChoiceKind.ROW, player, card, (0, 1, 2)),
                tuple(order[position:]), _frozen(current_x), _frozen(stacked),
            )
        placed = _place(table, card, rows_chosen.get(card))
        taken = placed.taken
        to_x: Card | None = None
        if len(taken) == 1:
            to_x = taken[0]
        elif taken:
            if card not in x_chosen:
                return RoundResolution(
                    tuple(steps), table,
                    PendingChoice(ChoiceKind.X_CARD, player, card, taken, placed.row),
                    tuple(order[position:]), _frozen(current_x), _frozen(stacked),
                )
            to_x = x_chosen[card]
        if to_x is not None and to_x not in taken:
            raise error(
                "x_card_not_taken",
                "Card {choice} cannot go to the X-row: with {card} the player takes {taken}.",
                choice=to_x, card=card, taken=", ".join(map(str, taken)),
            )
        change: XRowChange | None = None
        if to_x is not None and current_x is not None and stacked is not None:
            before = current_x.get(player, ())
            after, moved = _x_add(before, to_x)
            current_x[player] = after
            stacked[player] = (*stacked.get(player, ()), *moved)
            change = XRowChange(before, after, moved)
        table = placed.rows
        steps.append(
            Step(
                player, card, placed.row, placed.rule, taken, to_x,
                tuple(c for c in taken if c != to_x), change, table,
            )
        )
    return RoundResolution(tuple(steps), table, None, (), _frozen(current_x), _frozen(stacked))


def _choices(choices: Mapping[int, int] | None, owner: Mapping[Card, str]) -> dict[Card, int]:
    """Checked choices keyed by revealed cards."""
    if choices is None:
        return {}
    if not isinstance(choices, Mapping):
        raise error("choices_type", "Choices must map a revealed card to the choice made.")
    for card in choices:
        if _card(card) not in owner:
            raise error(
                "choice_for_unplayed_card",
                "A choice is given for card {card}, but nobody revealed it.",
                card=card,
            )
    return dict(choices)


def _checked_x_rows(
    x_rows: Mapping[str, Sequence[int]], owner: Mapping[Card, str], on_table: set[Card]
) -> tuple[dict[str, Row], dict[str, tuple[Card, ...]]]:
    if not isinstance(x_rows, Mapping):
        raise error("x_rows_type", "The X-rows must map a player to the cards of their X-row.")
    players = set(owner.values())
    seen: set[Card] = set()
    checked: dict[str, Row] = {}
    for player, cards in x_rows.items():
        if player not in players:
            raise error(
                "x_row_player", "{player} has an X-row but revealed no card.", player=player
            )
        row = _x_row(cards)
        for card in row:
            if card in on_table or card in owner or card in seen:
                raise error(
                    "card_twice", "Card {card} appears twice.", card=card
                )
            seen.add(card)
        checked[player] = row
    for player in sorted(players):
        checked.setdefault(player, ())
    return checked, {player: () for player in checked}


def _frozen(mapping: dict[str, Row] | None) -> Mapping[str, Row] | None:
    return None if mapping is None else MappingProxyType(dict(mapping))


# ---------------------------------------------------------------------------
# The game model: from the deal to the end of the game
# ---------------------------------------------------------------------------


class Phase(Enum):
    """What the game waits for."""

    CHOOSE_CARDS = "choose-cards"
    """Every player who has not chosen yet picks a hand card face down; when
    all have chosen, the cards are revealed and placed lowest first."""
    CHOOSE_ROW = "choose-row"
    """The lowest revealed card not yet placed fits no row (rule 4): its player
    picks the row whose cards they take."""
    CHOOSE_X_CARD = "choose-x-card"
    """A player took two or more cards and picks the one for their X-row."""
    GAME_OVER = "game-over"
    """Both deals are over; :attr:`State.results` hold the scores."""


@dataclass(frozen=True, slots=True)
class Seat:
    """The cards in front of and in the hand of one player."""

    hand: tuple[Card, ...]
    """Hand cards, ascending."""
    x_row: Row = ()
    """The X-row, left to right (ascending)."""
    x_stack: tuple[Card, ...] = ()
    """The face-down X-stack, in the order the cards went there."""


@dataclass(frozen=True, slots=True)
class DealSetup:
    """How a deal starts: the first card of each row and every player's 8 hand cards."""

    rows: tuple[Card, Card, Card]
    """The first cards of the rows 3, 4 and 5."""
    hands: tuple[tuple[Card, ...], ...]
    """Per seat, the dealt hand cards (ascending)."""


@dataclass(frozen=True, slots=True)
class DealResult:
    """The end of a deal: where each player's cards lay and their minus points."""

    players: tuple[str, ...]
    seats: tuple[Seat, ...]
    minus_points: tuple[int, ...]
    """Per seat: hand Hornochsen + 2 × X-stack Hornochsen."""

    def scores(self) -> dict[str, int]:
        """Minus points per player."""
        return dict(zip(self.players, self.minus_points, strict=True))

    def entries(self) -> dict[str, Entry]:
        """What each player records for this deal (by card numbers)."""
        return {
            player: Entry(hand_cards=seat.hand, x_stack_cards=seat.x_stack)
            for player, seat in zip(self.players, self.seats, strict=True)
        }


@dataclass(frozen=True, slots=True)
class PlayCard:
    """A player chooses the hand card they play this round (face down)."""

    player: str
    card: Card


@dataclass(frozen=True, slots=True)
class ChooseRow:
    """A player whose card fits no row picks the row they take (index 0–2)."""

    player: str
    row: int


@dataclass(frozen=True, slots=True)
class ChooseXCard:
    """A player who took two or more cards picks the one for their X-row."""

    player: str
    card: Card


Action: TypeAlias = PlayCard | ChooseRow | ChooseXCard
"""Every choice a player makes in X nimmt!."""


@dataclass(frozen=True, slots=True)
class State:
    """Everything on the table at one moment; every card 1–100 is in exactly one place.

    Build the first state with :func:`new_game`, move on with :func:`apply`.
    """

    players: tuple[str, ...]
    deck: Deck
    deal: int
    """Number of the current deal, 1 or 2."""
    phase: Phase
    rows: tuple[Row, Row, Row]
    """The rows 3, 4 and 5."""
    seats: tuple[Seat, ...]
    """Per player (in the order of :attr:`players`)."""
    box: tuple[Card, ...]
    """Cards not dealt in this deal (back in the box), ascending."""
    played: tuple[Card | None, ...]
    """Per seat, the card chosen this round and not placed yet (None otherwise).
    Face down in :attr:`Phase.CHOOSE_CARDS`, revealed afterwards."""
    turn: int | None
    """The seat that must choose in :attr:`Phase.CHOOSE_ROW` / :attr:`Phase.CHOOSE_X_CARD`."""
    taken: tuple[Card, ...]
    """In :attr:`Phase.CHOOSE_X_CARD`: the cards the player took, ascending."""
    results: tuple[DealResult, ...]
    """The deals played to the end so far."""
    upcoming: tuple[DealSetup, ...]
    """How the deals still to come start."""

    @property
    def is_over(self) -> bool:
        """Both deals have been played."""
        return self.phase is Phase.GAME_OVER

    def to_act(self) -> tuple[str, ...]:
        """The players the game waits for."""
        if self.phase is Phase.CHOOSE_CARDS:
            waiting = zip(self.players, self.played, strict=True)
            return tuple(player for player, card in waiting if card is None)
        if self.turn is not None:
            return (self.players[self.turn],)
        return ()


def deal_from_order(order: Sequence[int], players: int) -> DealSetup:
    """Deal from a shuffled pile: 3 row cards first, then 8 cards per player.

    >>> setup = deal_from_order(range(100, 0, -1), 2)
    >>> setup.rows, setup.hands[0]
    ((100, 99, 98), (90, 91, 92, 93, 94, 95, 96, 97))
    """
    _INFO.check_players(players)
    cards = _cards(order)
    needed = 3 + HAND_SIZE * players
    if len(cards) < needed:
        raise error(
            "pile_too_small",
            "Dealing to {players} players needs {needed} cards, not {count}.",
            players=players, needed=needed, count=len(cards),
        )
    hands = tuple(
        tuple(sorted(cards[3 + HAND_SIZE * seat : 3 + HAND_SIZE * (seat + 1)]))
        for seat in range(players)
    )
    return DealSetup((cards[0], cards[1], cards[2]), hands)


def random_setup(players: int, rng: random.Random) -> DealSetup:
    """A shuffled deal for ``players`` players."""
    return deal_from_order(rng.sample(CARDS, 3 + HAND_SIZE * players), players)


def _shuffled_setup(players: int, rng: random.Random) -> DealSetup:
    cards = rng.sample(CARDS, 3 + HAND_SIZE * players)
    hands = tuple(
        tuple(sorted(cards[3 + HAND_SIZE * seat : 3 + HAND_SIZE * (seat + 1)]))
        for seat in range(players)
    )
    return DealSetup((cards[0], cards[1], cards[2]), hands)


def _check_setup(setup: object, players: int) -> DealSetup:
    if not isinstance(setup, DealSetup):
        raise error("setup_type", "A deal must be described by a DealSetup.")
    row_cards = _cards(setup.rows)
    if len(row_cards) != 3:
        raise error("setup_rows", "A deal starts with exactly one card in each of the three rows.")
    if len(setup.hands) != players:
        raise error(
            "setup_hands", "The deal has {count} hands for {players} players.",
            count=len(setup.hands), players=players,
        )
    seen = set(row_cards)
    hands: list[tuple[Card, ...]] = []
    for hand in setup.hands:
        cards = _cards(hand)
        if len(cards) != HAND_SIZE:
            raise error(
                "setup_hand_size", "Every player is dealt 8 cards, not {count}.", count=len(cards)
            )
        for card in cards:
            if card in seen:
                raise error("card_twice", "Card {card} appears twice.", card=card)
            seen.add(card)
        hands.append(tuple(sorted(cards)))
    return DealSetup((row_cards[0], row_cards[1], row_cards[2]), tuple(hands))


def _start_deal(
    players: tuple[str, ...], deck: Deck, number: int, setup: DealSetup,
    results: tuple[DealResult, ...], upcoming: tuple[DealSetup, ...],
) -> State:
    used = set(setup.rows)
    for hand in setup.hands:
        used.update(hand)
    return State(
        players, deck, number, Phase.CHOOSE_CARDS,
        ((setup.rows[0],), (setup.rows[1],), (setup.rows[2],)),
        tuple(Seat(hand) for hand in setup.hands),
        tuple(card for card in CARDS if card not in used),
        (None,) * len(players), None, (), results, upcoming,
    )


def new_game(
    players: Sequence[str], setups: Sequence[DealSetup], *, deck: Deck | None = None
) -> State:
    """The first state of a game: ``players`` in seat order, one setup per deal.

    >>> rng = random.Random(7)
    >>> state = new_game(["Anna", "Ben"], [random_setup(2, rng), random_setup(2, rng)])
    >>> state.phase.name, state.deal, len(state.seats[0].hand), len(state.box)
    ('CHOOSE_CARDS', 1, 8, 81)
    """
    if isinstance(players, str) or not isinstance(players, Sequence):
        raise error("players_type", "The players must be a list of names.")
    names = tuple(players)
    _INFO.check_players(len(names))
    for name in names:
        if not isinstance(name, str) or not name:
            raise error("player_name", "Every player needs a name.")
    if len(set(names)) != len(names):
        raise error("player_twice", "Every player needs a different name.")
    if isinstance(setups, (str, bytes)) or not isinstance(setups, Sequence) or len(
        setups
    ) != DEALS:
        raise error("setups_count", "A match of X nimmt! has exactly two deals.")
    checked = tuple(_check_setup(setup, len(names)) for setup in setups)
    return _start_deal(names, _deck(deck), 1, checked[0], (), checked[1:])


@lru_cache(maxsize=1024)
def _play_actions(player: str) -> tuple[PlayCard, ...]:
    """``PlayCard(player, card)`` at index ``card`` (index 0 unused), built once per name."""
    return (PlayCard(player, 0), *(PlayCard(player, card) for card in CARDS))


@lru_cache(maxsize=8192)
def _x_action(player: str, card: Card) -> ChooseXCard:
    return ChooseXCard(player, card)


@lru_cache(maxsize=1024)
def _row_actions(player: str) -> tuple[ChooseRow, ChooseRow, ChooseRow]:
    return ChooseRow(player, 0), ChooseRow(player, 1), ChooseRow(player, 2)


def legal_actions(state: State) -> tuple[Action, ...]:
    """Every action allowed now (empty when the game is over).

    While cards are chosen, every player who has not chosen yet may play any
    hand card: the choice is simultaneous, so the order does not matter.
    """
    phase = state.phase
    if phase is Phase.CHOOSE_CARDS:
        actions: list[Action] = []
        for player, seat, card in zip(state.players, state.seats, state.played, strict=True):
            if card is None:
                table = _play_actions(player)
                actions.extend([table[c] for c in seat.hand])
        return tuple(actions)
    if phase is Phase.CHOOSE_ROW and state.turn is not None:
        return _row_actions(state.players[state.turn])
    if phase is Phase.CHOOSE_X_CARD and state.turn is not None:
        player = state.players[state.turn]
        return tuple([_x_action(player, card) for card in state.taken])
    return ()


def _seat_of(state: State, player: object) -> int:
    try:
        return state.players.index(player)
    except ValueError:
        raise error(
            "unknown_player", "{player} is not playing in this match.", player=player
        ) from None


def _check_turn(state: State, player: str, phase: Phase) -> int:
    if state.phase is Phase.GAME_OVER:
        raise error("game_over", "The game is over.")
    seat = _seat_of(state, player)
    if state.phase is not phase or state.turn is None:
        if phase is Phase.CHOOSE_ROW:
            raise error("not_now", "No row has to be chosen now.")
        raise error("not_now", "No card for an X-row has to be chosen now.")
    if state.turn != seat:
        raise error(
            "not_your_turn", "{turn} has to choose now, not {player}.",
            turn=state.players[state.turn], player=player,
        )
    return seat


def apply(state: State, action: Action) -> State:
    """The state after ``action``; the given state is unchanged.

    Revealed cards are placed lowest first until a player has to choose or
    the round is over. A deal ends after a round at whose end some player
    holds no hand cards (a player who played their last card and then took
    cards into hand still holds cards and plays on), and the next deal
    starts by itself.

    >>> setup = DealSetup((10, 50, 90), (tuple(range(1, 9)), tuple(range(11, 19))))
    >>> state = new_game(["Anna", "Ben"], [setup, setup])
    >>> state = apply(apply(state, PlayCard("Anna", 1)), PlayCard("Ben", 11))
    >>> state.phase.name, state.to_act(), state.played
    ('CHOOSE_ROW', ('Anna',), (1, 11))
    >>> state = apply(state, ChooseRow("Anna", 1))
    >>> state.rows, state.seats[0].x_row, state.phase.name
    (((10, 11), (1,), (90,)), (50,), 'CHOOSE_CARDS')
    """
    seats = list(state.seats)
    played = list(state.played)
    if isinstance(action, PlayCard):
        if state.phase is not Phase.CHOOSE_CARDS:
            if state.phase is Phase.GAME_OVER:
                raise error("game_over", "The game is over.")
            raise error(
                "not_now", "The revealed cards are being placed: no card can be played now."
            )
        seat_index = _seat_of(state, action.player)
        if played[seat_index] is not None:
            raise error(
                "already_played", "{player} has already chosen a card this round.",
                player=action.player,
            )
        seat = seats[seat_index]
        hand = seat.hand
        if action.card not in hand:
            raise error(
                "card_not_in_hand", "{player} does not hold card {card}.",
                player=action.player, card=action.card,
            )
        at = hand.index(action.card)
        seats[seat_index] = Seat(hand[:at] + hand[at + 1 :], seat.x_row, seat.x_stack)
        played[seat_index] = action.card
        if None in played:
            return State(
                state.players, state.deck, state.deal, Phase.CHOOSE_CARDS, state.rows,
                tuple(seats), state.box, tuple(played), None, (), state.results, state.upcoming,
            )
        return _advance(state, list(state.rows), seats, played)
    rows = list(state.rows)
    if isinstance(action, ChooseRow):
        seat_index = _check_turn(state, action.player, Phase.CHOOSE_ROW)
        row = action.row
        if isinstance(row, bool) or not isinstance(row, int) or not 0 <= row <= 2:
            raise error(
                "row_index", "There is no row {row}: rows are numbered 0, 1 and 2.", row=row
            )
        card = played[seat_index]
        if card is None:
            raise error("not_now", "No row has to be chosen now.")
        taken = rows[row]
        rows[row] = (card,)
        played[seat_index] = None
        if len(taken) > 1:
            return _waiting_for_x_card(state, rows, seats, played, seat_index, taken)
        seats[seat_index] = _take(seats[seat_index], taken[0], ())
        return _advance(state, rows, seats, played)
    if isinstance(action, ChooseXCard):
        seat_index = _check_turn(state, action.player, Phase.CHOOSE_X_CARD)
        if action.card not in state.taken:
            raise error(
                "x_card_not_taken", "Card {card} is not among the cards {player} took.",
                card=action.card, player=action.player,
            )
        rest = tuple(card for card in state.taken if card != action.card)
        seats[seat_index] = _take(seats[seat_index], action.card, rest)
        return _advance(state, rows, seats, played)
    raise error("unknown_action", "This is not an X nimmt! action.")


def _take(seat: Seat, to_x: Card, to_hand: tuple[Card, ...]) -> Seat:
    """The seat after taking: one card to the X-row, the others to the hand."""
    x_row = seat.x_row
    x_stack = seat.x_stack
    if not x_row or x_row[-1] < to_x:
        x_row = (*x_row, to_x)
    else:
        x_stack = x_stack + x_row
        x_row = (to_x,)
    hand = tuple(sorted(seat.hand + to_hand)) if to_hand else seat.hand
    return Seat(hand, x_row, x_stack)


def _waiting_for_x_card(
    state: State, rows: list[Row], seats: list[Seat], played: list[Card | None],
    seat_index: int, taken: tuple[Card, ...],
) -> State:
    return State(
        state.players, state.deck, state.deal, Phase.CHOOSE_X_CARD,
        (rows[0], rows[1], rows[2]), tuple(seats), state.box, tuple(played), seat_index,
        taken, state.results, state.upcoming,
    )


def _advance(
    state: State, rows: list[Row], seats: list[Seat], played: list[Card | None]
) -> State:
    """Place revealed cards lowest first until a choice is needed or the round ends."""
    while True:
        low = 101
        who = -1
        for index, card in enumerate(played):
            if card is not None and card < low:
                low = card
                who = index
        if who < 0:
            break
        target = -1
        best_end = 0
        for index in (0, 1, 2):
            end = rows[index][-1]
            if best_end < end < low:
                target = index
                best_end = end
        if target < 0:
            return State(
                state.players, state.deck, state.deal, Phase.CHOOSE_ROW,
                (rows[0], rows[1], rows[2]), tuple(seats), state.box, tuple(played), who, (),
                state.results, state.upcoming,
            )
        played[who] = None
        row = rows[target]
        if len(row) == ROW_SIZES[target] - 1:
            rows[target] = (low,)
            if len(row) > 1:
                return _waiting_for_x_card(state, rows, seats, played, who, row)
            seats[who] = _take(seats[who], row[0], ())
        else:
            rows[target] = (*row, low)
    table = (rows[0], rows[1], rows[2])
    if all(seat.hand for seat in seats):
        return State(
            state.players, state.deck, state.deal, Phase.CHOOSE_CARDS, table, tuple(seats),
            state.box, tuple(played), None, (), state.results, state.upcoming,
        )
    values = state.deck.values
    minus = tuple(
        sum([values[c] for c in seat.hand]) + 2 * sum([values[c] for c in seat.x_stack])
        for seat in seats
    )
    results = (*state.results, DealResult(state.players, tuple(seats), minus))
    if len(results) == DEALS or not state.upcoming:
        return State(
            state.players, state.deck, state.deal, Phase.GAME_OVER, table, tuple(seats),
            state.box, tuple(played), None, (), results, state.upcoming,
        )
    return _start_deal(
        state.players, state.deck, state.deal + 1, state.upcoming[0], results,
        state.upcoming[1:],
    )


def totals(state: State) -> dict[str, int]:
    """Minus points per player over the deals played to the end so far."""
    result = dict.fromkeys(state.players, 0)
    for deal in state.results:
        for player, points in zip(deal.players, deal.minus_points, strict=True):
            result[player] += points
    return result


def card_places(state: State) -> dict[str, tuple[Card, ...]]:
    """Where every card of the current deal lies, by place name.

    Every card 1–100 appears in exactly one place (the box included).

    >>> rng = random.Random(1)
    >>> places = card_places(new_game(["A", "B"], [random_setup(2, rng), random_setup(2, rng)]))
    >>> sorted(c for cards in places.values() for c in cards) == list(CARDS)
    True
    """
    places: dict[str, tuple[Card, ...]] = {"box": state.box}
    for size, row in zip(ROW_SIZES, state.rows, strict=True):
        places[f"row {size}"] = row
    for index, (player, seat) in enumerate(zip(state.players, state.seats, strict=True)):
        card = state.played[index]
        places[f"{player}: hand"] = seat.hand
        places[f"{player}: played"] = () if card is None else (card,)
        places[f"{player}: taken"] = state.taken if state.turn == index else ()
        places[f"{player}: X-row"] = seat.x_row
        places[f"{player}: X-stack"] = seat.x_stack
    return places


_STEP_LIMIT = 100_000
_INDICES: tuple[range, ...] = tuple(range(count) for count in range(HAND_SIZE * 4 + 100))
"""``range(n)`` per count ``n``: ``rng.choice(_INDICES[n])`` draws an index exactly as
``rng.choice`` draws from a sequence of ``n`` actions."""
_ROW_INDICES = (0, 1, 2)

_DealOutcome: TypeAlias = tuple[tuple[tuple[Card, ...], ...], tuple[tuple[Card, ...], ...]]
"""The end of a simulated deal: per seat, the hand (ascending) and the X-stack."""


def _simulate_deal(setup: DealSetup, rng: random.Random) -> _DealOutcome:
    """One deal of uniformly random legal actions, in a lean loop on lists.

    The same moves from the same random numbers as ``rng.choice(legal_actions(state))``
    followed by :func:`apply`, step by step (a property test holds the two together):
    while cards are chosen, the actions are the hand cards of the players who have not
    chosen yet, seat by seat, each hand ascending; a row choice has three actions, an
    X-row choice one per card taken, ascending.
    """
    choice = rng.choice
    indices = _INDICES
    players = len(setup.hands)
    rows = [[setup.rows[0]], [setup.rows[1]], [setup.rows[2]]]
    hands = [list(hand) for hand in setup.hands]
    x_rows: list[list[Card]] = [[] for _ in hands]
    x_stacks: list[list[Card]] = [[] for _ in hands]
    seats = range(players)
    full = [size - 1 for size in ROW_SIZES]
    played = [0] * players
    for _ in range(_STEP_LIMIT):
        waiting = list(seats)
        while waiting:
            index = choice(indices[sum([len(hands[seat]) for seat in waiting])])
            for position, seat in enumerate(waiting):
                hand = hands[seat]
                if index < len(hand):
                    played[seat] = hand.pop(index)
                    del waiting[position]
                    break
                index -= len(hand)
        for seat in sorted(seats, key=played.__getitem__):
            card = played[seat]
            target = -1
            best_end = 0
            for row_index in _ROW_INDICES:
                end = rows[row_index][-1]
                if best_end < end < card:
                    target = row_index
                    best_end = end
            if target < 0:
                target = choice(_ROW_INDICES)
            elif len(rows[target]) < full[target]:
                rows[target].append(card)
                continue
            taken = rows[target]
            rows[target] = [card]
            to_x = choice(taken) if len(taken) > 1 else taken[0]
            x_row = x_rows[seat]
            if not x_row or x_row[-1] < to_x:
                x_row.append(to_x)
            else:
                x_stacks[seat] += x_row
                x_rows[seat] = [to_x]
            if len(taken) > 1:
                hand = hands[seat]
                hand += [other for other in taken if other != to_x]
                hand.sort()
        if not all(hands):
            return tuple(map(tuple, hands)), tuple(map(tuple, x_stacks))
    raise RuntimeError("a random game of X nimmt! did not end")


def random_game(players: int, rng: random.Random, *, deck: Deck | None = None) -> SimulatedGame:
    """A complete game with uniformly random legal actions of the game model.

    Every action of :func:`legal_actions` is equally likely at every step;
    the deals are played in a lean loop that makes the same moves as
    ``apply(state, rng.choice(legal_actions(state)))`` from the same random
    numbers (a property test holds the two together). Each deal's entries
    are recorded by counts, by cards or both (chosen at random), as players
    may record them at the table.

    >>> game = random_game(3, random.Random(5))
    >>> len(game.deals), sorted(game.totals) == ["P1", "P2", "P3"]
    (2, True)
    """
    names = player_names(players)
    _INFO.check_players(players)
    # Shuffled setups are valid by construction: skip new_game's checks for speed.
    setups = tuple(_shuffled_setup(players, rng) for _ in range(DEALS))
    values = _deck(deck).values
    outcomes = [_simulate_deal(setup, rng) for setup in setups]
    deals: list[dict[str, Entry]] = []
    game_totals = dict.fromkeys(names, 0)
    for hands, x_stacks in outcomes:
        entries: dict[str, Entry] = {}
        for player, hand_cards, stack_cards in zip(names, hands, x_stacks, strict=True):
            hand = sum([values[card] for card in hand_cards])
            stack = sum([values[card] for card in stack_cards])
            game_totals[player] += hand + 2 * stack
            form = rng.randrange(3)
            if form == 0:
                entries[player] = Entry(hand_cards=hand_cards, x_stack_cards=stack_cards)
            elif form == 1:
                entries[player] = Entry(hand, stack)
            else:
                entries[player] = Entry(hand, stack, hand_cards, stack_cards)
        deals.append(entries)
    return SimulatedGame(names, tuple(deals), game_totals)

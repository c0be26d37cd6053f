"""Freaky (Amigo, Leo Colovini): rows of cards that share a feature.

Every card shows three features: a background colour, a circle colour and a
number 1–6. A card joins a row when it shares at least one feature with the
row's last card; it opens a new row only when it fits no row's last card. A
row in which one feature value appears at least four times may be collected
by the player whose turn it is. Most collected cards wins.

Colours are keys of one six-colour vocabulary, :data:`COLOURS`, used for both
the background and the circle. The rulebook names yellow, violet and blue;
the other three keys complete a six-colour wheel. The engine never assumes
which combinations the 108 real cards print: a deck is an input
(:func:`synthetic_deck` is a stand-in for tests and simulations).

>>> row_ends = (Card("yellow", "blue", 2), Card("red", "green", 4), Card("orange", "orange", 1))
>>> placement_options(Card("yellow", "violet", 6), row_ends)
(0,)
>>> may_open_row(Card("violet", "violet", 6), row_ends)
True
>>> score_deal({"Anna": Entry(collected=9), "Ben": Entry(collected=0)})
{'Anna': 9, 'Ben': 0}
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from operator import attrgetter
from types import MappingProxyType
from typing import Literal, TypeAlias, cast

from scoring import GAMES, error
from scoring.common import Breakdown, ScorePart, SimulatedGame, player_names

__all__ = [
    "BACKGROUND_COLOURS",
    "CIRCLE_COLOURS",
    "COLLECT_AT",
    "COLOURS",
    "COLOUR_SWATCHES",
    "DECK_SIZE",
    "END_TURN",
    "FEATURES",
    "HAND_SIZE",
    "MAX_ON_TABLE",
    "MAX_PLAYED_PER_TURN",
    "MAX_STEPS",
    "NUMBERS",
    "START_ROWS",
    "Action",
    "Card",
    "CollectRow",
    "EndTurn",
    "Entry",
    "Feature",
    "FeatureMatch",
    "PlayCard",
    "Row",
    "State",
    "apply",
    "broken_link",
    "card_from_dict",
    "card_to_dict",
    "check_card",
    "check_row",
    "collectable",
    "collectable_features",
    "deal_count",
    "entries",
    "entry_from_dict",
    "entry_to_dict",
    "explain_deal",
    "final_scores",
    "fits",
    "legal_actions",
    "may_open_row",
    "new_game",
    "placement_options",
    "random_game",
    "score_deal",
    "synthetic_deck",
    "validate_deal",
]

SLUG = "freaky"

COLOURS: tuple[str, ...] = ("red", "orange", "yellow", "green", "blue", "violet")
"""The six colour keys, in rainbow order, for backgrounds and circles alike."""

BACKGROUND_COLOURS: tuple[str, ...] = COLOURS
"""Colour keys a card's background may have."""

CIRCLE_COLOURS: tuple[str, ...] = COLOURS
"""Colour keys a card's circle may have."""

COLOUR_SWATCHES: Mapping[str, str] = MappingProxyType(
    {
        "red": "#d62828",
        "orange": "#f77f00",
        "yellow": "#fcbf49",
        "green": "#2a9d8f",
        "blue": "#1d4e89",
        "violet": "#7b2cbf",
    }
)
"""A CSS colour per key, for the swatches the app shows."""

NUMBERS: tuple[int, ...] = (1, 2, 3, 4, 5, 6)
"""The numbers a card may show."""

DECK_SIZE = 108
"""Cards in the box."""

HAND_SIZE = 3
"""Hand cards every player refills to at the end of a turn."""

START_ROWS = 3
"""Rows turned up at the start of the game."""

MAX_PLAYED_PER_TURN = 3
"""A player plays 1 to this many cards per turn."""

COLLECT_AT = 4
"""A row may be collected when one feature value appears this many times."""

MAX_ON_TABLE = DECK_SIZE - HAND_SIZE
"""The most cards the rows on the table can hold together: every card of the box but
the hand of one other player, who refilled to 3 at the end of their turn (collecting is
optional, so a row may grow long; rows are opened one card at a time)."""

Feature: TypeAlias = Literal["background", "circle", "number"]
"""One of the three features a card shows."""

FEATURES: tuple[Feature, ...] = ("background", "circle", "number")
"""The three features, in the order :class:`Card` lists them."""


# --------------------------------------------------------------------------- cards


@dataclass(frozen=True, slots=True)
class Card:
    """One Freaky card: background colour, circle colour and number.

    Building a card checks its features:

    >>> Card("yellow", "violet", 6)
    Card(background='yellow', circle='violet', number=6)
    >>> Card("pink", "violet", 6)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    scoring.ScoringError: There is no background colour 'pink': choose one of red, orange, ...
    """

    background: str
    circle: str
    number: int
    _code: int = field(init=False, repr=False, compare=False)
    """One byte per feature value (6 backgrounds, 6 circles, 6 numbers), this
    card's three set to 1: two cards fit iff their codes share a bit, and the
    sum of a row's codes counts every feature value in one byte."""

    def __post_init__(self) -> None:
        check_card(self.background, self.circle, self.number)
        code = (
            1 << 8 * COLOURS.index(self.background)
            | 1 << 8 * (6 + COLOURS.index(self.circle))
            | 1 << 8 * (11 + self.number)
        )
        object.__setattr__(self, "_code", code)

    def __str__(self) -> str:
        return f"{self.number} ({self.background} background, {self.circle} circle)"

    def feature(self, name: Feature) -> str | int:
        """The value of one feature.

        >>> Card("yellow", "violet", 6).feature("circle")
        'violet'
        """
        if name == "background":
            return self.background
        if name == "circle":
            return self.circle
        if name == "number":
            return self.number
        raise error("unknown_feature", "There is no card feature {feature!r}.", feature=name)


Row: TypeAlias = tuple[Card, ...]
"""The cards of one row, first card first; the last card is the row's end."""


def check_card(background: object, circle: object, number: object) -> None:
    """Raise :class:`scoring.ScoringError` unless the three values make a card.

    >>> check_card("blue", "blue", 7)
    Traceback (most recent call last):
    ...
    scoring.ScoringError: There is no card number 7: numbers go from 1 to 6.
    """
    if not isinstance(background, str) or background not in BACKGROUND_COLOURS:
        raise error(
            "background_colour",
            "There is no background colour {colour!r}: choose one of {choices}.",
            colour=background,
            choices=", ".join(BACKGROUND_COLOURS),
        )
    if not isinstance(circle, str) or circle not in CIRCLE_COLOURS:
        raise error(
            "circle_colour",
            "There is no circle colour {colour!r}: choose one of {choices}.",
            colour=circle,
            choices=", ".join(CIRCLE_COLOURS),
        )
    if isinstance(number, bool) or not isinstance(number, int) or number not in NUMBERS:
        raise error(
            "card_number",
            "There is no card number {number}: numbers go from 1 to 6.",
            number=number,
        )


def card_from_dict(data: Mapping[str, object]) -> Card:
    """A card from ``{"background": ..., "circle": ..., "number": ...}``.

    >>> card_from_dict({"background": "red", "circle": "blue", "number": 3})
    Card(background='red', circle='blue', number=3)
    >>> card_from_dict({"background": "red", "circle": "blue"})
    Traceback (most recent call last):
    ...
    scoring.ScoringError: A card needs a background colour, a circle colour and a number.
    """
    if not isinstance(data, Mapping):
        raise error("card_type", "A card must be given as background, circle and number.")
    unknown = sorted(str(key) for key in data if key not in FEATURES)
    if unknown:
        raise error(
            "card_unknown_field", "A card has no feature {fields}.", fields=", ".join(unknown)
        )
    if any(name not in data for name in FEATURES):
        raise error(
            "card_incomplete", "A card needs a background colour, a circle colour and a number."
        )
    background, circle, number = data["background"], data["circle"], data["number"]
    check_card(background, circle, number)
    return Card(cast(str, background), cast(str, circle), cast(int, number))


def card_to_dict(card: Card) -> dict[str, object]:
    """The JSON-compatible form of a card (:func:`card_from_dict` reads it back)."""
    return {"background": card.background, "circle": card.circle, "number": card.number}


def _card(value: object) -> Card:
    if not isinstance(value, Card):
        raise error("not_a_card", "{value!r} is not a Freaky card.", value=value)
    return value


def _cards(values: Iterable[object]) -> tuple[Card, ...]:
    if isinstance(values, (str, bytes, Card)) or not isinstance(values, Iterable):
        raise error("not_cards", "Cards must be given as a list of cards.")
    return tuple(_card(value) for value in values)


# --------------------------------------------------------------------- the contract


def fits(card: Card, last: Card) -> bool:
    """Whether ``card`` may join a row whose last card is ``last``.

    It may when the two cards share at least one feature: background colour,
    circle colour or number.

    >>> fits(Card("yellow", "blue", 4), Card("yellow", "red", 2))
    True
    >>> fits(Card("yellow", "blue", 4), Card("green", "red", 2))
    False
    """
    card = _card(card)
    last = _card(last)
    return (
        card.background == last.background
        or card.circle == last.circle
        or card.number == last.number
    )


def placement_options(card: Card, row_ends: Sequence[Card]) -> tuple[int, ...]:
    """Indices of the rows ``card`` may join, given each row's last card.

    An empty result means the card fits no row and must open a new row.

    >>> ends = (Card("yellow", "red", 1), Card("green", "blue", 2), Card("red", "green", 3))
    >>> placement_options(Card("yellow", "blue", 4), ends)
    (0, 1)
    >>> placement_options(Card("violet", "violet", 6), ends)
    ()
    """
    card = _card(card)
    ends = _cards(row_ends)
    return tuple(index for index, last in enumerate(ends) if fits(card, last))


def may_open_row(card: Card, row_ends: Sequence[Card]) -> bool:
    """Whether ``card`` may open a new row: only if it fits no row's last card.

    With no rows on the table every card opens a new row.

    >>> may_open_row(Card("yellow", "violet", 6), (Card("blue", "red", 1),))
    True
    >>> may_open_row(Card("yellow", "violet", 6), (Card("blue", "red", 6),))
    False
    >>> may_open_row(Card("yellow", "violet", 6), ())
    True
    """
    return not placement_options(card, row_ends)


def broken_link(row: Sequence[Card]) -> int | None:
    """The index of the first card in ``row`` that does not fit the card before it, if any.

    A row on the table is a chain: each card joined the row's then last card,
    so it shares a feature with the card before it.

    >>> broken_link([Card("red", "blue", 1), Card("red", "green", 2), Card("violet", "green", 3)])
    >>> broken_link([Card("red", "blue", 1), Card("yellow", "green", 2)])
    1
    """
    cards = _cards(row)
    for index in range(1, len(cards)):
        if not fits(cards[index], cards[index - 1]):
            return index
    return None


def check_row(row: Sequence[Card]) -> tuple[Card, ...]:
    """``row`` as a tuple, if it could have been built on the table; else a :class:`ScoringError`
    that names the card that breaks the chain (numbered from 1, as players count).

    >>> check_row([Card("red", "blue", 1), Card("yellow", "green", 2)])
    Traceback (most recent call last):
    ...
    scoring.ScoringError: Card 2 of the row cannot lie there: it shares no feature with card 1 \
before it, so it could not have joined the row.
    """
    cards = _cards(row)
    if len(cards) > MAX_ON_TABLE:
        raise error("row_too_long", "A row cannot hold {count} cards: at most {most} lie on "
                    "the table.", count=len(cards), most=MAX_ON_TABLE)
    broken = broken_link(cards)
    if broken is not None:
        raise error(
            "row_broken",
            "Card {position} of the row cannot lie there: it shares no feature with card "
            "{before} before it, so it could not have joined the row.",
            position=broken + 1, before=broken,
        )
    return cards


@dataclass(frozen=True, slots=True)
class FeatureMatch:
    """A feature value that appears at least four times in a row."""

    feature: Feature
    value: str | int
    count: int


def collectable_features(row: Sequence[Card]) -> tuple[FeatureMatch, ...]:
    """Every feature value that appears at least four times in ``row``.

    Values count per feature: a yellow background and a yellow circle are two
    different feature values. Results are ordered by feature (background,
    circle, number), then by value.

    >>> row = [Card("yellow", "blue", 6), Card("red", "blue", 6),
    ...        Card("green", "blue", 6), Card("green", "blue", 6)]
    >>> [(m.feature, m.value, m.count) for m in collectable_features(row)]
    [('circle', 'blue', 4), ('number', 6, 4)]
    """
    cards = _cards(row)
    matches: list[FeatureMatch] = []
    orders: tuple[tuple[Feature, tuple[str | int, ...]], ...] = (
        ("background", COLOURS),
        ("circle", COLOURS),
        ("number", NUMBERS),
    )
    for feature, order in orders:
        counts: dict[str | int, int] = {}
        for card in cards:
            value = card.feature(feature)
            counts[value] = counts.get(value, 0) + 1
        for value in order:
            count = counts.get(value, 0)
            if count >= COLLECT_AT:
                matches.append(FeatureMatch(feature, value, count))
    return tuple(matches)


def collectable(row: Sequence[Card]) -> bool:
    """Whether some feature value appears at least four times in ``row``.

    >>> collectable([Card("yellow", "blue", n) for n in (1, 2, 3)])
    False
    >>> collectable([Card("yellow", "blue", n) for n in (1, 2, 3, 4)])
    True
    """
    return bool(collectable_features(row))


# ------------------------------------------------------------ the recording interface


@dataclass(frozen=True, slots=True)
class Entry:
    """What one player records for a game of Freaky: the cards they collected."""

    collected: int = 0


def deal_count(players: int) -> int:
    """A game of Freaky is a single deal.

    >>> deal_count(4)
    1
    """
    GAMES[SLUG].check_players(players)
    return 1


def _check_count(player: str, value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise error(
            "entry_type",
            "{player}: the number of collected cards must be a whole number, not {value!r}.",
            player=player,
            value=value,
        )
    if value < 0:
        raise error(
            "entry_negative",
            "{player}: the number of collected cards cannot be negative ({value}).",
            player=player,
            value=value,
        )
    return value


def most_collected(players: int) -> int:
    """The most cards all players together can have collected in a game.

    The game ends when a player cannot refill their hand to three: the draw pile is
    empty, and every other player has just refilled and holds three unscored cards.

    >>> most_collected(2), most_collected(5)
    (105, 96)
    """
    return DECK_SIZE - HAND_SIZE * (players - 1)


def validate_deal(entries: Mapping[str, Entry]) -> None:
    """Raise :class:`scoring.ScoringError` unless the entries of one game can be true.

    2–5 players; every count is 0 or at least 4 (a collected row has at least
    four cards); at most :func:`most_collected` cards collected in total (108 less
    the hand cards every player but one still holds at the end).

    >>> validate_deal({"Anna": Entry(60), "Ben": Entry(49)})
    Traceback (most recent call last):
    ...
    scoring.ScoringError: 109 cards collected in total, but Freaky has only 108 cards.
    >>> validate_deal({"Anna": Entry(60), "Ben": Entry(40), "Cem": Entry(4)})
    Traceback (most recent call last):
    ...
    scoring.ScoringError: 104 cards collected in total, but with 3 players at most 102 can be: \
when the game ends, every player but one still holds 3 hand cards.
    >>> validate_deal({"Anna": Entry(3), "Ben": Entry(8)})  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    scoring.ScoringError: Anna: 3 collected cards is impossible: every collected row has ...
    """
    if not isinstance(entries, Mapping):
        raise error("entries_type", "The entries must map each player to their entry.")
    GAMES[SLUG].check_players(len(entries))
    total = 0
    for player, entry in entries.items():
        if not isinstance(player, str) or not player.strip():
            raise error("player_name", "Every player needs a name, not {player!r}.", player=player)
        if not isinstance(entry, Entry):
            raise error(
                "entry_type", "{player}: {entry!r} is not a Freaky entry.", player=player,
                entry=entry,
            )
        collected = _check_count(player, entry.collected)
        if 0 < collected < COLLECT_AT:
            raise error(
                "entry_short_row",
                "{player}: {collected} collected cards is impossible: every collected row "
                "has at least 4 cards.",
                player=player,
                collected=collected,
            )
        total += collected
    if total > DECK_SIZE:
        raise error(
            "deck_exceeded",
            "{total} cards collected in total, but Freaky has only 108 cards.",
            total=total,
        )
    most = most_collected(len(entries))
    if total > most:
        raise error(
            "hands_exceeded",
            "{total} cards collected in total, but with {players} players at most {most} "
            "can be: when the game ends, every player but one still holds 3 hand cards.",
            total=total, players=len(entries), most=most,
        )


def score_deal(entries: Mapping[str, Entry]) -> dict[str, int]:
    """Each player's score: the number of cards they collected (after validation).

    >>> score_deal({"Anna": Entry(12), "Ben": Entry(4), "Cem": Entry()})
    {'Anna': 12, 'Ben': 4, 'Cem': 0}
    """
    validate_deal(entries)
    return {player: entry.collected for player, entry in entries.items()}


def explain_deal(entries: Mapping[str, Entry]) -> Breakdown:
    """Validates, then each player's score as one term: a point per collected card.

    >>> explain_deal({"Anna": Entry(12), "Ben": Entry()})["Anna"]
    (ScorePart(kind='collected', count=12, points=12, colour='', cards=(), tied=False),)
    """
    validate_deal(entries)
    return {
        player: (ScorePart("collected", entry.collected, entry.collected),)
        for player, entry in entries.items()
    }


def entry_from_dict(data: Mapping[str, object]) -> Entry:
    """An entry from its JSON form; a missing ``collected`` means 0.

    >>> entry_from_dict({"collected": 7})
    Entry(collected=7)
    >>> entry_from_dict({})
    Entry(collected=0)
    >>> entry_from_dict({"points": 7})
    Traceback (most recent call last):
    ...
    scoring.ScoringError: A Freaky entry has no field points.
    """
    if not isinstance(data, Mapping):
        raise error("entry_type", "A Freaky entry must be given as fields and values.")
    unknown = sorted(str(key) for key in data if key != "collected")
    if unknown:
        raise error(
            "entry_unknown_field", "A Freaky entry has no field {fields}.",
            fields=", ".join(unknown),
        )
    value = data.get("collected", 0)
    if isinstance(value, bool) or not isinstance(value, int):
        raise error(
            "entry_type",
            "The number of collected cards must be a whole number, not {value!r}.",
            value=value,
        )
    if value < 0:
        raise error(
            "entry_negative",
            "The number of collected cards cannot be negative ({value}).",
            value=value,
        )
    return Entry(collected=value)


def entry_to_dict(entry: Entry) -> dict[str, object]:
    """The JSON-compatible form of an entry.

    >>> entry_to_dict(Entry(collected=5))
    {'collected': 5}
    """
    return {"collected": entry.collected}


# ------------------------------------------------------------------- the game model
#
# A game of Freaky is one deal. The state lists every card in exactly one place:
# a hand, the draw pile, a row on the table, or a player's collected stack.
# Reading of the rules that the model follows (rules file, "Decisions"):
# - In the collect step the player whose turn it is may take any row that is
#   collectable at that moment, one row at a time, as many as they like; a
#   collected row disappears and the rows after it move up one index.
# - With no rows on the table, a card fits no row and opens a new row.
# - At the end of a turn the player draws up to 3 cards; when the pile cannot
#   fill the hand to 3, the player takes what is left and the game is over.


@dataclass(frozen=True, slots=True)
class PlayCard:
    """Play ``card`` from the hand: join row ``row``, or open a new row (``None``)."""

    card: Card
    row: int | None


@dataclass(frozen=True, slots=True)
class CollectRow:
    """Take row ``row`` (collectable, after at least one card was played this turn)."""

    row: int


@dataclass(frozen=True, slots=True)
class EndTurn:
    """Stop playing and collecting; draw back up to three cards."""


Action: TypeAlias = PlayCard | CollectRow | EndTurn
"""Everything a player can do."""

END_TURN = EndTurn()


@dataclass(frozen=True, slots=True)
class State:
    """A moment of a game of Freaky; every card is in exactly one place.

    ``pile`` is the draw pile, top card first. ``played`` counts the cards
    played in the current turn, ``collecting`` is true once the current
    player has collected a row this turn (no more cards may be played then).
    """

    players: tuple[str, ...]
    hands: tuple[tuple[Card, ...], ...]
    pile: tuple[Card, ...]
    rows: tuple[Row, ...]
    collected: tuple[tuple[Card, ...], ...]
    current: int = 0
    played: int = 0
    collecting: bool = False
    over: bool = False

    def cards(self) -> tuple[Card, ...]:
        """Every card of the game, from every place (hands, pile, rows, collected)."""
        everything: list[Card] = []
        for hand in self.hands:
            everything.extend(hand)
        everything.extend(self.pile)
        for row in self.rows:
            everything.extend(row)
        for stack in self.collected:
            everything.extend(stack)
        return tuple(everything)

    @property
    def row_ends(self) -> tuple[Card, ...]:
        """The last card of every row."""
        return tuple(row[-1] for row in self.rows)


@cache
def synthetic_deck() -> tuple[Card, ...]:
    """A stand-in deck for tests and simulations: 108 distinct cards.

    Of the 6×6×6 feature triples it keeps those whose colour and number
    positions add up to an even number, so that every colour is the
    background of 18 cards, the circle of 18 cards, and every number is on 18.

    >>> deck = synthetic_deck()
    >>> len(deck), len(set(deck)), sum(card.background == "blue" for card in deck)
    (108, 108, 18)
    """
    return tuple(
        Card(background, circle, number)
        for b, background in enumerate(COLOURS)
        for c, circle in enumerate(COLOURS)
        for number in NUMBERS
        if (b + c + number) % 2 == 0
    )


def new_game(
    players: Sequence[str], deck: Sequence[Card], *, first_player: int = 0
) -> State:
    """Deal a game: ``deck`` is the shuffled deck of 108 cards, top card first.

    Every player gets three cards (one at a time, round the table), then three
    cards are turned up as the first cards of three rows. ``first_player`` (the
    youngest) starts.

    >>> state = new_game(["Anna", "Ben"], synthetic_deck())
    >>> [len(hand) for hand in state.hands], len(state.rows), len(state.pile)
    ([3, 3], 3, 99)
    """
    names = _check_players(players)
    cards = _cards(deck)
    if len(cards) != DECK_SIZE:
        raise error(
            "deck_size", "A Freaky deck has 108 cards, not {count}.", count=len(cards)
        )
    if isinstance(first_player, bool) or not isinstance(first_player, int) or not (
        0 <= first_player < len(names)
    ):
        raise error(
            "seat", "There is no seat {seat} at a table of {players}.", seat=first_player,
            players=len(names),
        )
    count = len(names)
    dealt = HAND_SIZE * count
    hands = tuple(cards[seat:dealt:count] for seat in range(count))
    rows = tuple((card,) for card in cards[dealt : dealt + START_ROWS])
    return State(
        players=names,
        hands=hands,
        pile=cards[dealt + START_ROWS :],
        rows=rows,
        collected=tuple(() for _ in names),
        current=first_player,
    )


def _check_players(players: Sequence[str]) -> tuple[str, ...]:
    if isinstance(players, str) or not isinstance(players, Sequence):
        raise error("players_type", "The players must be given as a list of names.")
    names = tuple(players)
    GAMES[SLUG].check_players(len(names))
    for name in names:
        if not isinstance(name, str) or not name.strip():
            raise error("player_name", "Every player needs a name, not {player!r}.", player=name)
    if len(set(names)) != len(names):
        raise error("player_twice", "Every player must have a different name.")
    return names


def _fits(card: Card, last: Card) -> bool:
    return bool(card._code & last._code)


_code_of = attrgetter("_code")
_FEATURE_VALUES = 18
# Adding 0x7C to a byte sets its top bit exactly when the byte is at least 4
# (a row never holds more than 108 cards, so no byte carries into the next).
_COLLECT_ADD = sum((0x80 - COLLECT_AT) << 8 * i for i in range(_FEATURE_VALUES))
_COLLECT_HIGH = sum(0x80 << 8 * i for i in range(_FEATURE_VALUES))


def _is_collectable(row: Row) -> bool:
    return len(row) >= COLLECT_AT and bool(
        (sum(map(_code_of, row)) + _COLLECT_ADD) & _COLLECT_HIGH
    )


# The rules of a move live in one place, ``_Table``: a lean, mutable picture of
# the game (lists instead of tuples, the pile top card last, a running sum of
# card codes per row). The public functions copy a frozen State into a fresh
# table, apply the rules and freeze the result, so they stay pure;
# ``random_game`` runs the same table directly, which is what lets the
# benchmark play hundreds of games per second.

_PLAY, _COLLECT, _END = 0, 1, 2
_NEW_ROW = -1
_Move: TypeAlias = tuple[int, Card | None, int]
"""``(_PLAY, card, row or _NEW_ROW)``, ``(_COLLECT, None, row)`` or ``(_END, None, 0)``."""
_END_MOVE: _Move = (_END, None, 0)


class _Table:
    """A game in progress, mutable; the single implementation of a move."""

    __slots__ = (
        "collected", "collecting", "current", "hands", "over", "pile", "played", "rows", "sums",
    )

    def __init__(self, state: State) -> None:
        self.hands = [list(hand) for hand in state.hands]
        self.pile = list(reversed(state.pile))
        self.rows = [list(row) for row in state.rows]
        self.sums = [sum(map(_code_of, row)) for row in state.rows]
        self.collected = [list(stack) for stack in state.collected]
        self.current = state.current
        self.played = state.played
        self.collecting = state.collecting
        self.over = state.over

    def freeze(self, players: tuple[str, ...]) -> State:
        return State(
            players=players,
            hands=tuple(map(tuple, self.hands)),
            pile=tuple(reversed(self.pile)),
            rows=tuple(map(tuple, self.rows)),
            collected=tuple(map(tuple, self.collected)),
            current=self.current,
            played=self.played,
            collecting=self.collecting,
            over=self.over,
        )

    def moves(self) -> list[_Move]:
        """The legal moves, in the order :func:`legal_actions` lists them."""
        moves: list[_Move] = []
        if self.over:
            return moves
        if not self.collecting and self.played < MAX_PLAYED_PER_TURN:
            ends = [row[-1]._code for row in self.rows]
            seen: list[int] = []
            for card in self.hands[self.current]:
                code = card._code
                if code in seen:
                    continue
                seen.append(code)
                options = [(_PLAY, card, index) for index, last in enumerate(ends) if code & last]
                moves += options or ((_PLAY, card, _NEW_ROW),)
        if self.played:
            rows = self.rows
            for index, total in enumerate(self.sums):
                if (total + _COLLECT_ADD) & _COLLECT_HIGH and len(rows[index]) >= COLLECT_AT:
                    moves.append((_COLLECT, None, index))
            moves.append(_END_MOVE)
        return moves

    def move(self, move: _Move) -> None:
        """Make a legal move."""
        kind, card, index = move
        if kind == _PLAY:
            card = cast(Card, card)
            self.hands[self.current].remove(card)
            if index == _NEW_ROW:
                self.rows.append([card])
                self.sums.append(card._code)
            else:
                self.rows[index].append(card)
                self.sums[index] += card._code
            self.played += 1
        elif kind == _COLLECT:
            self.collected[self.current] += self.rows.pop(index)
            del self.sums[index]
            self.collecting = True
        else:
            hand = self.hands[self.current]
            pile = self.pile
            need = HAND_SIZE - len(hand)
            if need > len(pile):
                hand += reversed(pile)
                pile.clear()
                self.over = True
            else:
                for _ in range(need):
                    hand.append(pile.pop())
                self.current = (self.current + 1) % len(self.hands)
            self.played = 0
            self.collecting = False


def _action(move: _Move) -> Action:
    kind, card, index = move
    if kind == _PLAY:
        return PlayCard(cast(Card, card), None if index == _NEW_ROW else index)
    if kind == _COLLECT:
        return CollectRow(index)
    return END_TURN


def _check_state(state: object) -> None:
    if not isinstance(state, State):
        raise error("state_type", "{state!r} is not a game state.", state=state)


def legal_actions(state: State) -> tuple[Action, ...]:
    """Every action the current player may take, in a stable order.

    Plays first (per distinct hand card in hand order: the rows it fits, or
    opening a new row), then collecting each collectable row, then ending the
    turn. Empty when the game is over.

    >>> state = new_game(["Anna", "Ben"], synthetic_deck())
    >>> all(isinstance(action, PlayCard) for action in legal_actions(state))
    True
    """
    _check_state(state)
    return tuple(map(_action, _Table(state).moves()))


def apply(state: State, action: Action) -> State:
    """The state after ``action``; raises :class:`scoring.ScoringError` if it is not legal.

    >>> state = new_game(["Anna", "Ben"], synthetic_deck())
    >>> apply(state, END_TURN)
    Traceback (most recent call last):
    ...
    scoring.ScoringError: Play at least one card before ending the turn.
    """
    _check_state(state)
    if state.over:
        raise error("game_over", "The game is over.")
    if isinstance(action, PlayCard):
        move = _check_play(state, action)
    elif isinstance(action, CollectRow):
        move = _check_collect(state, action.row)
    elif isinstance(action, EndTurn):
        if not state.played:
            raise error("end_before_play", "Play at least one card before ending the turn.")
        move = _END_MOVE
    else:
        raise error("action_type", "{action!r} is not a move in Freaky.", action=action)
    table = _Table(state)
    table.move(move)
    return table.freeze(state.players)


def _check_play(state: State, action: PlayCard) -> _Move:
    if state.collecting:
        raise error("play_after_collect", "Cards are played before rows are collected.")
    if state.played >= MAX_PLAYED_PER_TURN:
        raise error("play_limit", "A player plays at most 3 cards per turn.")
    card = action.card
    if not isinstance(card, Card) or card not in state.hands[state.current]:
        raise error("card_not_in_hand", "The card {card} is not in the hand.", card=card)
    rows = state.rows
    target = action.row
    if target is None:
        for index, row in enumerate(rows):
            if _fits(card, row[-1]):
                raise error(
                    "must_join",
                    "The card {card} fits row {row}: a new row may only be opened by a card "
                    "that fits no row.",
                    card=card,
                    row=index + 1,
                )
        return (_PLAY, card, _NEW_ROW)
    if isinstance(target, bool) or not isinstance(target, int) or not 0 <= target < len(rows):
        raise error("no_row", "There is no row {row}.", row=target)
    if not _fits(card, rows[target][-1]):
        raise error(
            "does_not_fit",
            "The card {card} shares no feature with the last card of row {row}.",
            card=card,
            row=target + 1,
        )
    return (_PLAY, card, target)


def _check_collect(state: State, target: int) -> _Move:
    if not state.played:
        raise error("collect_before_play", "Play at least one card before collecting a row.")
    rows = state.rows
    if isinstance(target, bool) or not isinstance(target, int) or not 0 <= target < len(rows):
        raise error("no_row", "There is no row {row}.", row=target)
    if not _is_collectable(rows[target]):
        raise error(
            "not_collectable",
            "Row {row} cannot be collected: no feature appears four times in it.",
            row=target + 1,
        )
    return (_COLLECT, None, target)


def final_scores(state: State) -> dict[str, int]:
    """Each player's score so far: the number of cards they collected.

    >>> final_scores(new_game(["Anna", "Ben"], synthetic_deck()))
    {'Anna': 0, 'Ben': 0}
    """
    return {
        player: len(stack) for player, stack in zip(state.players, state.collected, strict=True)
    }


def entries(state: State) -> dict[str, Entry]:
    """What each player records at the table for this game."""
    return {
        player: Entry(collected=len(stack))
        for player, stack in zip(state.players, state.collected, strict=True)
    }


MAX_STEPS = 4 * DECK_SIZE * MAX_PLAYED_PER_TURN
"""No game of Freaky takes more actions (every turn draws a card from the pile)."""


def random_game(players: int, rng: random.Random) -> SimulatedGame:
    """Play a complete random legal game (uniform among the legal actions).

    It runs the model's own move rules on a private table, making the same
    choices as ``apply(state, legal_actions(state)[i])`` would with the same
    random numbers (the property tests replay it through the public model).

    >>> game = random_game(3, random.Random(1))
    >>> sum(game.totals.values()) <= 108 and game.totals == score_deal(game.deals[0])
    True
    """
    names = player_names(players)
    deck = list(synthetic_deck())
    rng.shuffle(deck)
    state = new_game(names, deck, first_player=rng.randrange(players))
    table = _Table(state)
    steps = 0
    while not table.over:
        moves = table.moves()
        table.move(moves[int(rng.random() * len(moves))])
        steps += 1
        if steps > MAX_STEPS:
            raise error("endless", "The simulated game did not end.")
    state = table.freeze(names)
    return SimulatedGame(
        players=names,
        deals=(MappingProxyType(entries(state)),),
        totals=MappingProxyType(final_scores(state)),
    )

"""3 sind einer zuviel! (Amigo, 2–4 players, most points wins).

Players place number cards into three rows headed by the start cards 0, 30
and 60; the fifth card in a row makes the player take cards. Taken cards are
sorted by colour: the first two cards of a colour lie open, the third turns
all three face down (−1 each), the fourth counts as a new first card.

Which number has which colour is printed on the physical cards and not known
to the engine: the recording interface counts colours, and the game model
takes a deck description (:func:`synthetic_deck` for tests).

Contract (``ENGINE.md``): :data:`COLOURS`, :func:`place`,
:func:`collection_score`. Recording interface (``scoring.common``):
:class:`Entry`, :func:`deal_count`, :func:`validate_deal`, :func:`score_deal`,
:func:`entry_from_dict`, :func:`entry_to_dict`, :func:`random_game`.
Live recording for the score sheet: :class:`LiveGame`, :func:`live_start`,
:func:`live_turn`, :func:`live_replay`, :func:`live_view`,
:func:`live_entries`. Game model: :class:`Deck` (from a deck description
``{number: colour key}``), :class:`GameState`, :func:`new_game`,
:func:`setup_game`, :func:`legal_actions`, :func:`apply`,
:func:`final_scores`, :func:`recorded_entries`.

>>> place([(10, 19, 24), (46, 57), (77,)], 40).rows
((10, 19, 24), (40, 46, 57), (77,))
>>> collection_score({"rot": 2, "orange": 1}, interim_bonus=10)
16
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from itertools import pairwise
from typing import Final, TypeAlias, cast

from scoring import GAMES, error
from scoring.common import Breakdown, ScorePart, SimulatedGame, player_names

__all__ = [
    "COLOURED_NUMBERS",
    "COLOURS",
    "COLOUR_LABELS",
    "GREY_CARDS",
    "INTERIM_BONUSES",
    "NUMBER_CARDS",
    "START_CARDS",
    "ColourCounts",
    "Deck",
    "Entry",
    "GameState",
    "LiveGame",
    "LiveView",
    "Placement",
    "Play",
    "apply",
    "collection_score",
    "deal_count",
    "entry_from_dict",
    "entry_from_open_face_down",
    "entry_to_dict",
    "explain_deal",
    "fewest_coloured_taken",
    "final_bonus",
    "final_scores",
    "legal_actions",
    "live_entries",
    "live_replay",
    "live_start",
    "live_turn",
    "live_view",
    "max_cards_taken",
    "new_game",
    "place",
    "random_game",
    "recorded_entries",
    "row_of",
    "score_deal",
    "setup_game",
    "synthetic_deck",
    "validate_deal",
]

SLUG: Final = "drei-sind-einer-zuviel"

COLOURS: Final[tuple[str, ...]] = (
    "orange", "flieder", "hellblau", "rot", "tuerkis", "magenta", "olivgruen",
)
"""The seven colour keys, in the order the app lists them."""

COLOUR_LABELS: Final[Mapping[str, str]] = {
    "orange": "orange",
    "flieder": "flieder",
    "hellblau": "hellblau",
    "rot": "rot",
    "tuerkis": "türkis",
    "magenta": "magenta",
    "olivgruen": "olivgrün",
}
"""The colour names as printed on the cards (German, also used in English)."""

_COLOUR_INDEX: Final[Mapping[str, int]] = {colour: i for i, colour in enumerate(COLOURS)}

START_CARDS: Final[tuple[int, int, int]] = (0, 30, 60)
"""The black start cards heading rows 1, 2 and 3; they never move."""

GREY_CARDS: Final[tuple[int, int, int]] = (15, 45, 75)
"""The grey cards: no colour; taken ones go back to the box unscored."""

INTERIM_BONUSES: Final[tuple[int, ...]] = (10, 7, 5, 3)
"""The "Zwischenwertung" stack, top card first."""

CARDS_PER_COLOUR: Final = 12
COLOURED_CARDS: Final = CARDS_PER_COLOUR * len(COLOURS)  # 84
ROW_LIMIT: Final = 3
"""Number cards a row holds besides its start card; the next one triggers taking."""
PLAYS_PER_PLAYER: Final = 18
PILE_SIZE: Final = 20
HAND_SIZE: Final = 8
REFILL_AT: Final = 2
REFILL_SIZE: Final = 6
SETUP_CARDS: Final = 3


def final_bonus(open_colours: int) -> int:
    """The "Endwertung" bonus for a number of colours lying open at the end.

    >>> final_bonus(5), final_bonus(6), final_bonus(7)
    (0, 5, 10)
    """
    if open_colours >= 7:
        return 10
    if open_colours == 6:
        return 5
    return 0


# ---------------------------------------------------------------------------
# Counts per colour
# ---------------------------------------------------------------------------


def _check_count(value: object, colour: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise error(
            "count_type", "The count for {colour} must be a whole number, not {value!r}.",
            colour=colour, value=value,
        )
    if value < 0:
        raise error(
            "negative_count", "The count for {colour} cannot be negative ({value}).",
            colour=colour, value=value,
        )
    return value


class ColourCounts(Mapping[str, int]):
    """An immutable, hashable count per colour key.

    All seven colour keys are always present (0 where nothing was given).
    Unknown keys, negative or non-integer counts raise ``ScoringError``.

    >>> counts = ColourCounts({"rot": 2})
    >>> counts["rot"], counts["orange"], len(counts)
    (2, 0, 7)
    >>> counts
    ColourCounts({'rot': 2})
    >>> ColourCounts({"grau": 1})  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    scoring.ScoringError: Unknown colour 'grau'; the colours are orange, flieder, ...
    """

    __slots__ = ("_values",)
    _values: tuple[int, ...]

    def __init__(self, counts: Mapping[str, int] | None = None) -> None:
        values = [0] * len(COLOURS)
        if counts is not None:
            if not isinstance(counts, Mapping):
                raise error(
                    "counts_type", "Counts per colour must be a mapping, not {value!r}.",
                    value=counts,
                )
            for colour, value in counts.items():
                values[_colour_index(colour)] = _check_count(value, str(colour))
        self._values = tuple(values)

    @classmethod
    def from_values(cls, values: Sequence[int]) -> ColourCounts:
        """Counts from seven integers in :data:`COLOURS` order (checked).

        >>> ColourCounts.from_values((1, 0, 0, 0, 0, 0, 2))["olivgruen"]
        2
        """
        if len(values) != len(COLOURS):
            raise error(
                "counts_length", "Expected {expected} counts, one per colour, not {got}.",
                expected=len(COLOURS), got=len(values),
            )
        return cls(dict(zip(COLOURS, values, strict=True)))

    @classmethod
    def _trusted(cls, values: tuple[int, ...]) -> ColourCounts:
        counts = cls.__new__(cls)
        counts._values = values
        return counts

    @property
    def values_tuple(self) -> tuple[int, ...]:
        """The seven counts in :data:`COLOURS` order."""
        return self._values

    def total(self) -> int:
        """Sum over all colours."""
        return sum(self._values)

    def __getitem__(self, colour: str) -> int:
        index = _COLOUR_INDEX.get(colour)
        if index is None:
            raise KeyError(colour)
        return self._values[index]

    def __iter__(self) -> Iterator[str]:
        return iter(COLOURS)

    def __len__(self) -> int:
        return len(COLOURS)

    def __contains__(self, colour: object) -> bool:
        return colour in _COLOUR_INDEX

    def __eq__(self, other: object) -> bool:
        if isinstance(other, ColourCounts):
            return self._values == other._values
        if isinstance(other, Mapping):
            try:
                return ColourCounts(other)._values == self._values
            except ValueError:
                return False
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self._values)

    def __repr__(self) -> str:
        shown = {c: v for c, v in zip(COLOURS, self._values, strict=True) if v}
        return f"ColourCounts({shown!r})"


def _colour_index(colour: object) -> int:
    index = _COLOUR_INDEX.get(colour) if isinstance(colour, str) else None
    if index is None:
        raise error(
            "unknown_colour", "Unknown colour {colour!r}; the colours are {colours}.",
            colour=colour, colours=", ".join(COLOURS),
        )
    return index


def _colour_points(n: int) -> int:
    """Points of one colour with ``n`` cards taken: open ones plus face-down ones."""
    open_cards = n % 3
    return (0, 1, 5)[open_cards] - (n - open_cards)


def _score_values(values: Sequence[int], interim_bonus: int) -> int:
    open_colours = sum(1 for n in values if n % 3)
    return sum(_colour_points(n) for n in values) + final_bonus(open_colours) + interim_bonus


def _check_interim_bonus(value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or (
        value != 0 and value not in INTERIM_BONUSES
    ):
        raise error(
            "interim_bonus_value",
            "The interim bonus (Zwischenwertung) is 10, 7, 5, 3 or 0 for none, not {value!r}.",
            value=value,
        )
    return value


def collection_score(taken: Mapping[str, int], *, interim_bonus: int = 0) -> int:
    """A player's final score from the cards taken per colour over the game.

    ``taken`` maps a colour key to the total number of cards of that colour
    the player took (missing colours count 0). Per colour, ``n % 3`` cards lie
    open (1 → 1 point, 2 → 5 points) and the other ``n - n % 3`` lie face down
    (−1 each). Six open colours give a final bonus of 5, seven of 10; the
    interim bonus (10, 7, 5, 3 or 0) is added.

    Thomas in the rulebook: four colours with one open card, two with two,
    six face-down cards, interim bonus 7, six open colours:

    >>> collection_score({"orange": 1, "flieder": 1, "hellblau": 1, "rot": 4,
    ...                   "tuerkis": 2, "magenta": 2, "olivgruen": 3}, interim_bonus=7)
    20
    >>> collection_score({"rot": 13})
    Traceback (most recent call last):
    ...
    scoring.ScoringError: There are only 12 cards of rot, not 13.
    """
    counts = taken if isinstance(taken, ColourCounts) else ColourCounts(taken)
    bonus = _check_interim_bonus(interim_bonus)
    for colour, n in zip(COLOURS, counts.values_tuple, strict=True):
        if n > CARDS_PER_COLOUR:
            raise error(
                "colour_over", "There are only 12 cards of {colour}, not {count}.",
                colour=colour, count=n,
            )
    return _score_values(counts.values_tuple, bonus)


# ---------------------------------------------------------------------------
# Placement
# ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Placement:
    """The outcome of placing one card.

    ``rows`` are the three rows' number cards after the placement (without
    the start cards), ``taken`` the cards the player takes (ascending, empty
    if none), ``row`` the index 0–2 of the row the card went to.
    """

    rows: tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]
    taken: tuple[int, ...]
    row: int


def row_of(card: int) -> int:
    """The row (0, 1 or 2) a number card belongs to: 1–29, 31–59, 61–89.

    >>> row_of(29), row_of(31), row_of(89)
    (0, 1, 2)
    >>> row_of(60)
    Traceback (most recent call last):
    ...
    scoring.ScoringError: Card 60 is a start card and is never played.
    """
    if isinstance(card, bool) or not isinstance(card, int) or not 0 <= card <= 89:
        raise error(
            "card_range", "There is no card {card}: number cards go from 1 to 89.", card=card
        )
    if card % 30 == 0:
        raise error(
            "start_card", "Card {card} is a start card and is never played.", card=card
        )
    return card // 30


def _place_in_row(row: tuple[int, ...], card: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """(new row, taken) for a card placed in its (valid, ascending) row."""
    position = 0
    for value in row:
        if value > card:
            break
        position += 1
    if len(row) < ROW_LIMIT:
        return (*row[:position], card, *row[position:]), ()
    if position == len(row):
        # a) the highest card: take the lowest, the rest close up
        return (*row[1:], card), row[:1]
    # b) take every card higher than the placed one
    return (*row[:position], card), row[position:]


def place(rows: Sequence[Sequence[int]], card: int) -> Placement:
    """Place ``card`` by the placement rules; the fifth card in a row takes.

    ``rows`` are the three rows' number cards without the start cards 0, 30,
    60, each ascending.

    >>> place([(10, 19, 24), (40, 46, 57), (77,)], 28)
    Placement(rows=((19, 24, 28), (40, 46, 57), (77,)), taken=(10,), row=0)
    >>> place([(10, 19, 24), (40, 46, 57), (77,)], 37).taken
    (40, 46, 57)
    >>> place([(10,), (), ()], 10)
    Traceback (most recent call last):
    ...
    scoring.ScoringError: Card 10 is already on the table.
    """
    checked = _check_rows(rows)
    target = row_of(card)
    if any(card in row for row in checked):
        raise error("card_on_table", "Card {card} is already on the table.", card=card)
    new_row, taken = _place_in_row(checked[target], card)
    new_rows = list(checked)
    new_rows[target] = new_row
    return Placement((new_rows[0], new_rows[1], new_rows[2]), taken, target)


def _check_rows(
    rows: Sequence[Sequence[int]],
) -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]:
    if isinstance(rows, str | bytes) or not isinstance(rows, Sequence) or len(rows) != 3:
        raise error("rows_shape", "The table has exactly three rows, not {rows!r}.", rows=rows)
    checked: list[tuple[int, ...]] = []
    for index, row in enumerate(rows):
        if isinstance(row, str | bytes) or not isinstance(row, Sequence):
            raise error(
                "rows_shape", "Row {row} must be a list of cards, not {value!r}.",
                row=index + 1, value=row,
            )
        cards = tuple(row)
        for card in cards:
            if row_of(card) != index:
                raise error(
                    "card_wrong_row", "Card {card} does not belong in row {row}.",
                    card=card, row=index + 1,
                )
        if len(cards) > ROW_LIMIT:
            raise error(
                "row_too_long",
                "Row {row} holds at most 3 number cards besides its start card, not {count}.",
                row=index + 1, count=len(cards),
            )
        for left, right in pairwise(cards):
            if left == right:
                raise error("card_twice", "Card {card} appears twice.", card=left)
            if right < left:
                raise error(
                    "row_order",
                    "Row {size} must ascend from left to right, but {right} follows {left}.",
                    size=index + 1, row=index + 1, left=left, right=right,
                )
        checked.append(cards)
    return checked[0], checked[1], checked[2]


# ---------------------------------------------------------------------------
# Recording interface
# ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Entry:
    """What one player recorded for the game (one deal per match).

    ``taken``: per colour key, the total number of cards of that colour the
    player took over the game (any mapping is accepted and stored as an
    immutable :class:`ColourCounts`; missing colours count 0).
    ``interim_bonus``: the "Zwischenwertung" card won, 10, 7, 5, 3, or 0.

    >>> entry = Entry({"rot": 4, "orange": 2}, interim_bonus=0)
    >>> entry.open["rot"], entry.face_down["rot"], entry.score
    (1, 3, 3)
    """

    taken: Mapping[str, int]
    interim_bonus: int = 0

    def __post_init__(self) -> None:
        if not isinstance(self.taken, ColourCounts):
            object.__setattr__(self, "taken", ColourCounts(self.taken))
        _check_interim_bonus(self.interim_bonus)

    @property
    def counts(self) -> ColourCounts:
        """``taken`` as :class:`ColourCounts`."""
        return cast(ColourCounts, self.taken)  # normalised in __post_init__

    @property
    def open(self) -> ColourCounts:
        """Open cards per colour (0–2)."""
        return ColourCounts._trusted(tuple(n % 3 for n in self.counts.values_tuple))

    @property
    def face_down(self) -> ColourCounts:
        """Face-down cards per colour (multiples of 3)."""
        return ColourCounts._trusted(tuple(n - n % 3 for n in self.counts.values_tuple))

    @property
    def open_colours(self) -> int:
        """How many colours lie open (at least one open card)."""
        return sum(1 for n in self.counts.values_tuple if n % 3)

    @property
    def score(self) -> int:
        """The player's points (same as :func:`collection_score`)."""
        return collection_score(self.counts, interim_bonus=self.interim_bonus)


def entry_from_open_face_down(
    open: Mapping[str, int], face_down: Mapping[str, int], interim_bonus: int = 0
) -> Entry:
    """An entry from open and face-down counts per colour, as seen at the end.

    ``open`` is 0–2 per colour, ``face_down`` a multiple of 3.

    >>> entry_from_open_face_down({"rot": 1}, {"rot": 3}, 5).taken["rot"]
    4
    >>> entry_from_open_face_down({"rot": 3}, {})
    Traceback (most recent call last):
    ...
    scoring.ScoringError: At most 2 cards of a colour lie open; rot has 3.
    """
    open_counts = ColourCounts(open)
    down_counts = ColourCounts(face_down)
    for colour in COLOURS:
        if open_counts[colour] > 2:
            raise error(
                "open_over", "At most 2 cards of a colour lie open; {colour} has {count}.",
                colour=colour, count=open_counts[colour],
            )
        if down_counts[colour] % 3:
            raise error(
                "face_down_triples",
                "Face-down cards come in threes; {colour} has {count}.",
                colour=colour, count=down_counts[colour],
            )
    taken = tuple(
        a + b for a, b in zip(open_counts.values_tuple, down_counts.values_tuple, strict=True)
    )
    return Entry(ColourCounts._trusted(taken), interim_bonus)


def deal_count(players: int) -> int:
    """Deals in a match: one game is one deal.

    >>> deal_count(3)
    1
    """
    GAMES[SLUG].check_players(players)
    return 1


def max_cards_taken(players: int) -> int:
    """Most cards (grey ones included) all players together can take in a game.

    Three setup cards plus 18 played per player reach the table; after any
    take at least one card stays in that row.

    >>> max_cards_taken(2), max_cards_taken(4)
    (38, 74)
    """
    GAMES[SLUG].check_players(players)
    return SETUP_CARDS + PLAYS_PER_PLAYER * players - 1


def fewest_coloured_taken(players: int) -> int:
    """Fewest coloured cards all players together take in a complete game.

    Three setup cards plus 18 played per player reach the table; at the end each of the
    three rows holds at most three number cards, and three cards are grey. Fewer
    recorded is not refused (a game may have been cut short), only unlikely.

    >>> fewest_coloured_taken(2), fewest_coloured_taken(4)
    (27, 63)
    """
    GAMES[SLUG].check_players(players)
    return (SETUP_CARDS + PLAYS_PER_PLAYER * players - len(START_CARDS) * ROW_LIMIT
            - len(GREY_CARDS))


def validate_deal(entries: Mapping[str, Entry]) -> None:
    """Check all players' entries of one game together; raise ``ScoringError``.

    At most 12 cards of a colour and 84 coloured cards (and no more than the
    game can hand out for the player count) in all; interim bonuses distinct
    and handed out in order 10, 7, 5, 3; a player with an interim bonus had
    every colour at some point; 2–4 players.

    >>> validate_deal({"Anna": Entry({}, 7), "Ben": Entry({})})
    Traceback (most recent call last):
    ...
    scoring.ScoringError: Anna has the interim bonus 7, but nobody has the 10.
    """
    if not isinstance(entries, Mapping):
        raise error("entries_type", "Expected entries per player, not {value!r}.", value=entries)
    GAMES[SLUG].check_players(len(entries))
    for player, entry in entries.items():
        if not isinstance(player, str) or not player.strip():
            raise error("player_name", "Player names must be non-empty text, not {player!r}.",
                        player=player)
        if not isinstance(entry, Entry):
            raise error("entry_type", "The entry of {player} is not an entry: {value!r}.",
                        player=player, value=entry)
    for index, colour in enumerate(COLOURS):
        total = sum(entry.counts.values_tuple[index] for entry in entries.values())
        if total > CARDS_PER_COLOUR:
            raise error(
                "colour_total",
                "Together the players took {count} cards of {colour}, but there are only 12.",
                colour=colour, count=total,
            )
    total = sum(entry.counts.total() for entry in entries.values())
    if total > COLOURED_CARDS:
        raise error(
            "cards_total",
            "Together the players took {count} coloured cards, but there are only 84.",
            count=total,
        )
    limit = max_cards_taken(len(entries))
    if total > limit:
        raise error(
            "cards_total_players",
            "With {players} players at most {limit} cards can be taken in a game, not {count}.",
            players=len(entries), limit=limit, count=total,
        )
    holders: dict[int, str] = {}
    for player, entry in entries.items():
        bonus = entry.interim_bonus
        if not bonus:
            continue
        if bonus in holders:
            raise error(
                "interim_twice",
                "{player} and {other} both have the interim bonus {bonus}; there is one of each.",
                player=holders[bonus], other=player, bonus=bonus,
            )
        holders[bonus] = player
    for index, bonus in enumerate(INTERIM_BONUSES):
        if bonus in holders:
            for earlier in INTERIM_BONUSES[:index]:
                if earlier not in holders:
                    raise error(
                        "interim_order",
                        "{player} has the interim bonus {bonus}, but nobody has the {earlier}.",
                        player=holders[bonus], bonus=bonus, earlier=earlier,
                    )
    for bonus, player in holders.items():
        counts = entries[player].counts.values_tuple
        missing = [c for c, n in zip(COLOURS, counts, strict=True) if not n]
        if missing:
            raise error(
                "interim_colours",
                "{player} has the interim bonus {bonus} but took no card of {colours}; "
                "it needs all seven colours open.",
                player=player, bonus=bonus, colours=", ".join(missing),
            )


def score_deal(entries: Mapping[str, Entry]) -> dict[str, int]:
    """Validate the game's entries and return each player's points.

    >>> score_deal({"Anna": Entry({"rot": 2}), "Ben": Entry({"rot": 3, "orange": 1})})
    {'Anna': 5, 'Ben': -2}
    """
    validate_deal(entries)
    return {player: entry.score for player, entry in entries.items()}


def explain_deal(entries: Mapping[str, Entry]) -> Breakdown:
    """Validates, then each player's points as terms: per colour taken the open
    cards (1 → 1, 2 → 5 points) and the face-down triples (−1 per card), the
    final bonus for the open colours, and the interim bonus card if any.

    Thomas in the rulebook, with the interim bonus 10:

    >>> thomas = Entry({"orange": 1, "flieder": 1, "hellblau": 1, "rot": 4, "tuerkis": 2,
    ...                 "magenta": 2, "olivgruen": 3}, interim_bonus=10)
    >>> parts = explain_deal({"Thomas": thomas, "Ben": Entry({})})["Thomas"]
    >>> [(p.kind, p.colour, p.count, p.points) for p in parts[3:]]  # doctest: +NORMALIZE_WHITESPACE
    [('open', 'rot', 1, 1), ('face_down', 'rot', 3, -3), ('open', 'tuerkis', 2, 5),
     ('open', 'magenta', 2, 5), ('face_down', 'olivgruen', 3, -3), ('final_bonus', '', 6, 5),
     ('interim_bonus', '', 10, 10)]
    >>> sum(p.points for p in parts) == thomas.score == 23
    True
    """
    validate_deal(entries)
    breakdown: Breakdown = {}
    for player, entry in entries.items():
        parts: list[ScorePart] = []
        for colour, n in zip(COLOURS, entry.counts.values_tuple, strict=True):
            if n % 3:
                parts.append(ScorePart("open", n % 3, (0, 1, 5)[n % 3], colour=colour))
            if n >= 3:
                parts.append(ScorePart("face_down", n - n % 3, -(n - n % 3), colour=colour))
        parts.append(
            ScorePart("final_bonus", entry.open_colours, final_bonus(entry.open_colours))
        )
        if entry.interim_bonus:
            parts.append(ScorePart("interim_bonus", entry.interim_bonus, entry.interim_bonus))
        breakdown[player] = tuple(parts)
    return breakdown


def entry_to_dict(entry: Entry) -> dict[str, object]:
    """JSON-compatible form of an entry (all seven colours listed).

    >>> entry_to_dict(Entry({"rot": 2}, 10))["taken"]["rot"]
    2
    """
    if not isinstance(entry, Entry):
        raise error("entry_type", "Expected an entry, not {value!r}.", value=entry)
    return {"taken": dict(entry.counts), "interim_bonus": entry.interim_bonus}


_ENTRY_KEYS: Final = frozenset({"taken", "interim_bonus"})


def entry_from_dict(data: Mapping[str, object]) -> Entry:
    """An entry from the dict :func:`entry_to_dict` produces.

    Missing ``taken``, colours or ``interim_bonus`` count 0; unknown keys,
    unknown colours, wrong types and negative counts raise ``ScoringError``.

    >>> entry_from_dict({"taken": {"rot": 2}})
    Entry(taken=ColourCounts({'rot': 2}), interim_bonus=0)
    >>> entry_from_dict({"taken": {"rot": -1}})
    Traceback (most recent call last):
    ...
    scoring.ScoringError: The count for rot cannot be negative (-1).
    """
    if not isinstance(data, Mapping):
        raise error("entry_type", "Expected the entry as a mapping, not {value!r}.", value=data)
    unknown = sorted(str(key) for key in data if key not in _ENTRY_KEYS)
    if unknown:
        raise error("unknown_key", "Unknown entry field(s): {keys}.", keys=", ".join(unknown))
    taken = data.get("taken", {})
    if not isinstance(taken, Mapping):
        raise error(
            "counts_type", "Counts per colour must be a mapping, not {value!r}.", value=taken
        )
    bonus = data.get("interim_bonus", 0)
    return Entry(ColourCounts(taken), _check_interim_bonus(bonus))


# ---------------------------------------------------------------------------
# Live recording (the app's score sheet)
# ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class LiveGame:
    """The score sheet of a game recorded turn by turn (immutable).

    ``players`` in seat order; ``taken[i]`` the cards per colour player
    ``i`` took so far; ``interim[i]`` the interim bonus card player ``i`` got
    (0 = none yet). The stack of interim cards left is :attr:`stack`.
    Build it with :func:`live_start`, :func:`live_turn`, :func:`live_replay`.
    """

    players: tuple[str, ...]
    taken: tuple[ColourCounts, ...]
    interim: tuple[int, ...]

    @property
    def stack(self) -> tuple[int, ...]:
        """Interim bonus cards still on the stack, top first.

        >>> live_start(["Anna", "Ben"]).stack
        (10, 7, 5, 3)
        """
        given = set(self.interim)
        return tuple(bonus for bonus in INTERIM_BONUSES if bonus not in given)

    @property
    def bonuses(self) -> dict[str, int]:
        """Who got which interim bonus (players without one are left out)."""
        return {p: b for p, b in zip(self.players, self.interim, strict=True) if b}

    def index(self, player: str) -> int:
        """Seat index of ``player``; ``ScoringError`` for someone not playing."""
        try:
            return self.players.index(player)
        except ValueError:
            raise error(
                "unknown_player", "{player!r} does not play in this match.", player=player
            ) from None


@dataclass(frozen=True, slots=True)
class LiveView:
    """One player's collection as it lies on the table right now."""

    player: str
    open: ColourCounts
    """Open cards per colour (0–2)."""
    face_down: ColourCounts
    """Face-down cards per colour (multiples of 3)."""
    interim_bonus: int
    open_colours: int
    final_bonus: int
    """The "Endwertung" bonus if the game ended now."""
    score: int
    """Points if the game ended now."""


def _check_player_names(players: Sequence[str]) -> tuple[str, ...]:
    if isinstance(players, str) or not isinstance(players, Sequence):
        raise error("players_type", "Expected a list of player names, not {value!r}.",
                    value=players)
    names = tuple(players)
    GAMES[SLUG].check_players(len(names))
    seen: set[str] = set()
    for name in names:
        if not isinstance(name, str) or not name.strip():
            raise error("player_name", "Player names must be non-empty text, not {player!r}.",
                        player=name)
        if name in seen:
            raise error("player_twice", "{player} is listed twice.", player=name)
        seen.add(name)
    return names


def live_start(players: Sequence[str]) -> LiveGame:
    """An empty score sheet for 2–4 players in seat order.

    >>> live_start(["Anna", "Ben"]).interim
    (0, 0)
    """
    names = _check_player_names(players)
    empty = ColourCounts._trusted((0,) * len(COLOURS))
    return LiveGame(names, (empty,) * len(names), (0,) * len(names))


def live_turn(state: LiveGame, player: str, colours: Sequence[str]) -> LiveGame:
    """Record the cards ``player`` took in their own turn (one colour key per card).

    Grey cards (15, 45, 75) go back to the box and are not recorded; a turn
    takes at most three cards. If afterwards the player has all seven colours
    open and no interim bonus yet, they get the top card of the stack.

    >>> game = live_start(["Anna", "Ben"])
    >>> game = live_turn(game, "Anna", ["rot", "rot", "rot"])
    >>> live_view(game, "Anna").face_down["rot"]
    3
    >>> live_turn(game, "Cem", ["rot"])
    Traceback (most recent call last):
    ...
    scoring.ScoringError: 'Cem' does not play in this match.
    """
    if not isinstance(state, LiveGame):
        raise error("state_type", "Expected a live game, not {value!r}.", value=state)
    seat = state.index(player)
    if isinstance(colours, str) or not isinstance(colours, Sequence):
        raise error(
            "colours_type", "Expected a list of colours, one per card taken, not {value!r}.",
            value=colours,
        )
    if len(colours) > ROW_LIMIT:
        raise error(
            "turn_too_many",
            "A turn takes at most 3 cards, but {count} were recorded for {player}.",
            count=len(colours), player=player,
        )
    values = list(state.taken[seat].values_tuple)
    for colour in colours:
        values[_colour_index(colour)] += 1
    for index, colour in enumerate(COLOURS):
        total = values[index] + sum(
            counts.values_tuple[index] for i, counts in enumerate(state.taken) if i != seat
        )
        if total > CARDS_PER_COLOUR:
            raise error(
                "colour_total",
                "Together the players took {count} cards of {colour}, but there are only 12.",
                colour=colour, count=total,
            )
    total = sum(values) + sum(c.total() for i, c in enumerate(state.taken) if i != seat)
    limit = max_cards_taken(len(state.players))
    if total > limit:
        raise error(
            "cards_total_players",
            "With {players} players at most {limit} cards can be taken in a game, not {count}.",
            players=len(state.players), limit=limit, count=total,
        )
    taken = list(state.taken)
    taken[seat] = ColourCounts._trusted(tuple(values))
    interim = state.interim
    if not interim[seat] and all(n % 3 for n in values):
        stack = state.stack
        if stack:
            interim = (*interim[:seat], stack[0], *interim[seat + 1:])
    return LiveGame(state.players, tuple(taken), interim)


def live_replay(players: Sequence[str], turns: Sequence[tuple[str, Sequence[str]]]) -> LiveGame:
    """The score sheet after recording ``turns`` (player, colours) in order.

    The app keeps the list of turns; undo is replaying all but the last.

    >>> game = live_replay(["Anna", "Ben"], [("Anna", ["rot"]), ("Ben", ["rot", "orange"])])
    >>> live_view(game, "Ben").score
    2
    """
    state = live_start(players)
    if isinstance(turns, str) or not isinstance(turns, Sequence):
        raise error("turns_type", "Expected a list of turns, not {value!r}.", value=turns)
    for turn in turns:
        if isinstance(turn, str) or not isinstance(turn, Sequence) or len(turn) != 2:
            raise error(
                "turn_shape", "A turn is (player, colours), not {value!r}.", value=turn
            )
        state = live_turn(state, turn[0], turn[1])
    return state


def live_view(state: LiveGame, player: str) -> LiveView:
    """Open and face-down cards per colour of one player, with the score so far.

    >>> game = live_replay(["Anna", "Ben"], [("Anna", ["rot"] * 3), ("Anna", ["rot"])])
    >>> view = live_view(game, "Anna")
    >>> view.open["rot"], view.face_down["rot"], view.score
    (1, 3, -2)
    """
    if not isinstance(state, LiveGame):
        raise error("state_type", "Expected a live game, not {value!r}.", value=state)
    seat = state.index(player)
    values = state.taken[seat].values_tuple
    open_colours = sum(1 for n in values if n % 3)
    return LiveView(
        player=player,
        open=ColourCounts._trusted(tuple(n % 3 for n in values)),
        face_down=ColourCounts._trusted(tuple(n - n % 3 for n in values)),
        interim_bonus=state.interim[seat],
        open_colours=open_colours,
        final_bonus=final_bonus(open_colours),
        score=_score_values(values, state.interim[seat]),
    )


def live_entries(state: LiveGame) -> dict[str, Entry]:
    """The live score sheet as recording entries (same scores as :func:`live_view`).

    >>> live_entries(live_replay(["Anna", "Ben"], [("Ben", ["rot"])]))["Ben"]
    Entry(taken=ColourCounts({'rot': 1}), interim_bonus=0)
    """
    if not isinstance(state, LiveGame):
        raise error("state_type", "Expected a live game, not {value!r}.", value=state)
    return {
        player: Entry(counts, bonus)
        for player, counts, bonus in zip(state.players, state.taken, state.interim, strict=True)
    }


# ---------------------------------------------------------------------------
# Game model
# ---------------------------------------------------------------------------


NUMBER_CARDS: Final[tuple[int, ...]] = tuple(c for c in range(1, 90) if c % 30)
"""The 87 cards dealt from: every card but the start cards (84 coloured, 3 grey)."""

COLOURED_NUMBERS: Final[tuple[int, ...]] = tuple(c for c in NUMBER_CARDS if c not in GREY_CARDS)
"""The 84 numbers that carry a colour."""

NUMBER_CARDS_SET: Final[frozenset[int]] = frozenset(NUMBER_CARDS)
COLOURED_NUMBERS_SET: Final[frozenset[int]] = frozenset(COLOURED_NUMBERS)


def synthetic_deck() -> dict[int, str]:
    """A made-up deck description with 12 cards per colour (for tests and the simulator).

    The real assignment is printed on the cards; this one cycles through the
    colours in number order.

    >>> deck = synthetic_deck()
    >>> deck[1], deck[2], deck[8], len(deck)
    ('orange', 'flieder', 'orange', 84)
    """
    return {card: COLOURS[i % len(COLOURS)] for i, card in enumerate(COLOURED_NUMBERS)}


@dataclass(frozen=True, slots=True)
class Deck:
    """Which colour each number card has (checked; build with :meth:`from_mapping`).

    ``colour_index[card]`` is the index into :data:`COLOURS`, ``-1`` for the
    start cards 0/30/60 and the grey cards 15/45/75.
    """

    colour_index: tuple[int, ...]

    @classmethod
    def from_mapping(cls, deck: Mapping[int, str]) -> Deck:
        """Check a deck description: every coloured number 1–89 (not 0/30/60,
        not the grey 15/45/75) maps to a colour key, 12 cards per colour.

        >>> Deck.from_mapping(synthetic_deck()).colour(8)
        'orange'
        >>> Deck.from_mapping({**synthetic_deck(), 15: "rot"})  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        scoring.ScoringError: Card 15 has no colour in this game; only 1–89 without ...
        """
        if not isinstance(deck, Mapping):
            raise error("deck_type", "The deck must map card numbers to colours, not {value!r}.",
                        value=deck)
        index = [-1] * 90
        per_colour = [0] * len(COLOURS)
        for card, colour in deck.items():
            if (
                isinstance(card, bool) or not isinstance(card, int)
                or card not in COLOURED_NUMBERS_SET
            ):
                raise error(
                    "deck_card",
                    "Card {card} has no colour in this game; "
                    "only 1–89 without 0, 30, 60, 15, 45, 75 do.",
                    card=card,
                )
            index[card] = _colour_index(colour)
            per_colour[index[card]] += 1
        for card in COLOURED_NUMBERS:
            if index[card] < 0:
                raise error("deck_missing", "The deck gives no colour for card {card}.",
                            card=card)
        for colour, count in zip(COLOURS, per_colour, strict=True):
            if count != CARDS_PER_COLOUR:
                raise error(
                    "deck_colour_count",
                    "The deck has {count} cards of {colour}; there are 12 of each colour.",
                    colour=colour, count=count,
                )
        return cls(tuple(index))

    def colour(self, card: int) -> str | None:
        """The colour key of ``card``; ``None`` for the grey and start cards.

        >>> deck = Deck.from_mapping(synthetic_deck())
        >>> deck.colour(1), deck.colour(15), deck.colour(30)
        ('orange', None, None)
        """
        if isinstance(card, bool) or not isinstance(card, int) or not 0 <= card <= 89:
            raise error(
                "card_range", "There is no card {card}: number cards go from 1 to 89.",
                card=card,
            )
        index = self.colour_index[card]
        return COLOURS[index] if index >= 0 else None


_SYNTHETIC_DECK: Final = Deck.from_mapping(synthetic_deck())

Rows: TypeAlias = tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]
ByColour: TypeAlias = tuple[tuple[int, ...], ...]
"""Seven tuples of cards, one per colour in :data:`COLOURS` order."""

_NO_CARDS: Final[ByColour] = ((),) * len(COLOURS)


@dataclass(frozen=True, slots=True)
class Play:
    """The only decision: play this hand card."""

    card: int


@dataclass(frozen=True, slots=True)
class GameState:
    """A game of 3 sind einer zuviel! at one moment (immutable).

    Every card 1–89 is in exactly one place: a row (``rows``, without the
    start cards), a hand, a personal draw pile (``piles``, top first), a
    collection (``open`` and ``face_down`` per player and colour) or the box
    (undealt cards, taken grey cards, the hand cards discarded at the end).
    Build one with :func:`new_game` or :func:`setup_game`; move on with
    :func:`apply`.
    """

    players: tuple[str, ...]
    deck: Deck
    rows: Rows
    hands: tuple[tuple[int, ...], ...]
    """Hand cards per player, ascending."""
    piles: tuple[tuple[int, ...], ...]
    """Personal draw piles per player, top card first."""
    open: tuple[ByColour, ...]
    """Open cards per player and colour (0–2 each)."""
    face_down: tuple[ByColour, ...]
    """Face-down cards per player and colour (in threes)."""
    interim: tuple[int, ...]
    """Interim bonus card per player, 0 = none yet."""
    box: tuple[int, ...]
    current: int
    """Seat index of the player to play."""
    plays: int
    """Cards played so far by all players together."""

    @property
    def finished(self) -> bool:
        """Every player has played 18 cards; the last two hand cards are in the box."""
        return self.plays == PLAYS_PER_PLAYER * len(self.players)

    @property
    def stack(self) -> tuple[int, ...]:
        """Interim bonus cards still on the stack, top first."""
        given = set(self.interim)
        return tuple(bonus for bonus in INTERIM_BONUSES if bonus not in given)

    def taken(self, seat: int) -> ColourCounts:
        """Cards per colour player ``seat`` has taken so far (open and face down)."""
        return ColourCounts._trusted(tuple(
            len(a) + len(b) for a, b in zip(self.open[seat], self.face_down[seat], strict=True)
        ))


def setup_game(
    players: Sequence[str],
    *,
    setup: Sequence[int],
    piles: Sequence[Sequence[int]],
    deck: Mapping[int, str] | Deck | None = None,
    first: int = 0,
) -> GameState:
    """The game after setup from given cards: three ``setup`` cards placed by
    the placement rules, a 20-card pile per player (top first) of which 8 go
    to the hand; the number cards not used go to the box. ``first`` is the
    seat of the starting player (the youngest).

    >>> piles = [list(range(1, 21)), list(range(31, 51))]
    >>> state = setup_game(["Anna", "Ben"], setup=[61, 62, 63], piles=piles)
    >>> state.rows, state.hands[1], len(state.box)
    (((), (), (61, 62, 63)), (31, 32, 33, 34, 35, 36, 37, 38), 44)
    """
    names = _check_player_names(players)
    checked_deck = _check_deck(deck)
    if isinstance(first, bool) or not isinstance(first, int) or not 0 <= first < len(names):
        raise error("first_player", "The starting seat must be 0 to {last}, not {value!r}.",
                    last=len(names) - 1, value=first)
    if isinstance(setup, str) or not isinstance(setup, Sequence) or len(setup) != SETUP_CARDS:
        raise error("setup_cards", "Setup places exactly 3 number cards, not {value!r}.",
                    value=setup)
    if isinstance(piles, str) or not isinstance(piles, Sequence) or len(piles) != len(names):
        raise error("piles_count", "Every player needs a draw pile: {players} piles expected.",
                    players=len(names))
    used: set[int] = set()

    def claim(card: object) -> int:
        if isinstance(card, bool) or not isinstance(card, int) or card not in NUMBER_CARDS_SET:
            raise error("deal_card", "Card {card!r} cannot be dealt: 1–89 without 30 and 60.",
                        card=card)
        if card in used:
            raise error("deal_twice", "Card {card} is dealt twice.", card=card)
        used.add(card)
        return card

    rows: list[tuple[int, ...]] = [(), (), ()]
    for card in setup:
        target = row_of(claim(card))
        rows[target], _ = _place_in_row(rows[target], card)
    own_piles: list[tuple[int, ...]] = []
    for seat, pile in enumerate(piles):
        if isinstance(pile, str) or not isinstance(pile, Sequence) or len(pile) != PILE_SIZE:
            raise error("pile_size", "The draw pile of {player} must have 20 cards.",
                        player=names[seat])
        own_piles.append(tuple(claim(card) for card in pile))
    box = tuple(card for card in NUMBER_CARDS if card not in used)
    empty = _NO_CARDS
    return GameState(
        players=names,
        deck=checked_deck,
        rows=(rows[0], rows[1], rows[2]),
        hands=tuple(tuple(sorted(pile[:HAND_SIZE])) for pile in own_piles),
        piles=tuple(pile[HAND_SIZE:] for pile in own_piles),
        open=(empty,) * len(names),
        face_down=(empty,) * len(names),
        interim=(0,) * len(names),
        box=box,
        current=first,
        plays=0,
    )


def _check_deck(deck: Mapping[int, str] | Deck | None) -> Deck:
    if deck is None:
        return _SYNTHETIC_DECK
    if isinstance(deck, Deck):
        return deck
    return Deck.from_mapping(deck)


def new_game(
    players: Sequence[str],
    rng: random.Random,
    *,
    deck: Mapping[int, str] | Deck | None = None,
    first: int = 0,
) -> GameState:
    """A freshly shuffled game: three random cards placed, 20-card piles, 8 to hand.

    Without ``deck`` the :func:`synthetic_deck` is used.

    >>> state = new_game(["Anna", "Ben", "Cem"], random.Random(1))
    >>> [len(h) for h in state.hands], [len(p) for p in state.piles], len(state.box)
    ([8, 8, 8], [12, 12, 12], 24)
    """
    names = _check_player_names(players)
    cards = list(NUMBER_CARDS)
    rng.shuffle(cards)
    piles = [cards[SETUP_CARDS + PILE_SIZE * i: SETUP_CARDS + PILE_SIZE * (i + 1)]
             for i in range(len(names))]
    return setup_game(names, setup=cards[:SETUP_CARDS], piles=piles, deck=deck, first=first)


_PLAYS: Final[tuple[Play, ...]] = tuple(Play(card) for card in range(90))


def legal_actions(state: GameState) -> tuple[Play, ...]:
    """The plays open to the player on turn: any hand card (none once finished).

    >>> piles = [list(range(1, 21)), list(range(31, 51))]
    >>> state = setup_game(["Anna", "Ben"], setup=[61, 62, 63], piles=piles)
    >>> [action.card for action in legal_actions(state)]
    [1, 2, 3, 4, 5, 6, 7, 8]
    """
    if state.finished:
        return ()
    plays = _PLAYS
    return tuple([plays[card] for card in state.hands[state.current]])


def apply(state: GameState, action: Play) -> GameState:
    """The state after the player on turn plays ``action.card``.

    Places the card, sorts taken cards into the collection (grey ones to the
    box, every third card of a colour turns the open two and itself face
    down), hands out the top interim bonus to a player who now has all seven
    colours open, refills a hand of two from the pile, passes the turn and,
    after the last play, discards the remaining hand cards into the box.

    >>> piles = [list(range(1, 21)), list(range(31, 51))]
    >>> state = setup_game(["Anna", "Ben"], setup=[61, 62, 63], piles=piles)
    >>> state = apply(state, Play(1))
    >>> state.rows, state.current, state.hands[0]
    (((1,), (), (61, 62, 63)), 1, (2, 3, 4, 5, 6, 7, 8))
    """
    if not isinstance(action, Play):
        raise error("action_type", "Expected a play, not {value!r}.", value=action)
    if state.finished:
        raise error("game_over", "The game is over; no more cards are played.")
    seat = state.current
    hand = state.hands[seat]
    card = action.card
    if type(card) is not int or card not in hand:
        raise error("not_in_hand", "{player} does not hold card {card}.",
                    player=state.players[seat], card=card)
    position = hand.index(card)
    new_hand = hand[:position] + hand[position + 1:]
    target = card // 30
    new_row, taken = _place_in_row(state.rows[target], card)
    rows = state.rows
    new_rows: Rows = (
        new_row if target == 0 else rows[0],
        new_row if target == 1 else rows[1],
        new_row if target == 2 else rows[2],
    )
    box = state.box
    all_open = state.open
    all_down = state.face_down
    interim = state.interim
    if taken:
        colour_index = state.deck.colour_index
        open_cards = list(all_open[seat])
        down_cards = list(all_down[seat])
        for taken_card in taken:
            colour = colour_index[taken_card]
            if colour < 0:
                box = (*box, taken_card)
                continue
            pile = (*open_cards[colour], taken_card)
            if len(pile) == 3:
                down_cards[colour] = down_cards[colour] + pile
                pile = ()
            open_cards[colour] = pile
        all_open = (*all_open[:seat], tuple(open_cards), *all_open[seat + 1:])
        all_down = (*all_down[:seat], tuple(down_cards), *all_down[seat + 1:])
        if not interim[seat] and all(open_cards):
            stack = [bonus for bonus in INTERIM_BONUSES if bonus not in interim]
            if stack:
                interim = (*interim[:seat], stack[0], *interim[seat + 1:])
    piles = state.piles
    if len(new_hand) == REFILL_AT and piles[seat]:
        pile = piles[seat]
        new_hand = tuple(sorted(new_hand + pile[:REFILL_SIZE]))
        piles = (*piles[:seat], pile[REFILL_SIZE:], *piles[seat + 1:])
    hands = (*state.hands[:seat], new_hand, *state.hands[seat + 1:])
    plays = state.plays + 1
    if plays == PLAYS_PER_PLAYER * len(state.players):
        box = box + tuple(c for h in hands for c in h)
        hands = ((),) * len(hands)
    return GameState(
        players=state.players,
        deck=state.deck,
        rows=new_rows,
        hands=hands,
        piles=piles,
        open=all_open,
        face_down=all_down,
        interim=interim,
        box=box,
        current=(seat + 1) % len(state.players),
        plays=plays,
    )


def final_scores(state: GameState) -> dict[str, int]:
    """Each player's points at the end, counted from the cards in the collections.

    Open cards: 1 of a colour → 1 point, 2 → 5 points; every face-down card
    −1; the "Endwertung" bonus for 6 or 7 open colours; the interim bonus.
    """
    if not state.finished:
        raise error("game_running", "The game is not over yet: {left} cards still to play.",
                    left=PLAYS_PER_PLAYER * len(state.players) - state.plays)
    scores: dict[str, int] = {}
    for seat, player in enumerate(state.players):
        open_cards = state.open[seat]
        open_points = sum((0, 1, 5)[len(cards)] for cards in open_cards)
        face_down = sum(len(cards) for cards in state.face_down[seat])
        open_colours = sum(1 for cards in open_cards if cards)
        scores[player] = (
            open_points - face_down + final_bonus(open_colours) + state.interim[seat]
        )
    return scores


def recorded_entries(state: GameState) -> dict[str, Entry]:
    """What each player would record at the end: cards per colour and interim bonus."""
    return {
        player: Entry(state.taken(seat), state.interim[seat])
        for seat, player in enumerate(state.players)
    }


def random_game(players: int, rng: random.Random) -> SimulatedGame:
    """A complete game with uniformly random legal plays on the synthetic deck.

    >>> result = random_game(3, random.Random(7))
    >>> result.players, score_deal(result.deals[0]) == result.totals
    (('P1', 'P2', 'P3'), True)
    """
    names = player_names(players)
    GAMES[SLUG].check_players(players)
    state = new_game(names, rng)
    choice = rng.choice
    while not state.finished:
        state = apply(state, choice(legal_actions(state)))
    return SimulatedGame(names, (recorded_entries(state),), final_scores(state))

"""6 nimmt! (Amigo, Wolfgang Kramer): 2–10 players, fewest Hornochsen when the match ends.

The rules are in ``rules/sechs-nimmt.md``. This module has four parts:

* the cards: :func:`hornochsen` for the cards 1–104 (171 Hornochsen in all),
  :func:`cards_in_play` (all 104, or 1 to 10 × players + 4 in the Profi variant);
* placing cards: :func:`play` (one card) and :func:`resolve_round` (a whole
  round, lowest card first, with the row choices of low cards);
* the recording interface shared by all games (see :mod:`scoring.common`):
  :class:`Entry`, :func:`deal_count`, :func:`validate_deal`,
  :func:`score_deal`, :func:`explain_deal`, :func:`entry_from_dict`,
  :func:`entry_to_dict`, :func:`random_game`;
* the match: :class:`Options` (target, a fixed number of deals, Profi),
  :func:`options_from_dict`, :func:`match_over`, :func:`deals_needed`, and
  :func:`with_options` (the recording interface bound to a match's options, which
  :func:`scoring.common.rules_for` asks for).

Decisions (shown to players on the rules page): cards are resolved strictly
lowest first and a low card's row is chosen when that card is resolved; the
played card is never taken; the match ends after the deal in which somebody
reaches the target, also when several do, and the fewest total wins.

>>> hornochsen(55), hornochsen(101), hornochsen(104)
(7, 1, 1)
>>> play([[12], [31, 40, 45, 47, 50], [70], [90]], 59).taken
(31, 40, 45, 47, 50)
>>> score_deal({"Anna": Entry(hornochsen=9), "Ben": Entry(cards=(55, 10))})
{'Anna': 9, 'Ben': 10}
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import Enum
from functools import lru_cache
from itertools import pairwise
from typing import TypeAlias

from scoring import GAMES, ScoringError, error, hornochsen_by_scheme
from scoring.common import (
    Breakdown,
    CardValue,
    ScorePart,
    SimulatedGame,
    player_names,
    revealed_cards,
)

__all__ = [
    "CARDS",
    "DEFAULT_TARGET",
    "HAND_SIZE",
    "MAX_HORNOCHSEN",
    "ROWS",
    "ROW_LIMIT",
    "Card",
    "Entry",
    "Options",
    "PendingChoice",
    "Placement",
    "PlacementRule",
    "RoundResolution",
    "Row",
    "Rules",
    "Step",
    "cards_in_play",
    "deal_count",
    "deals_needed",
    "entry_from_dict",
    "entry_to_dict",
    "explain_deal",
    "hornochsen",
    "match_over",
    "options_from_dict",
    "options_to_dict",
    "play",
    "random_game",
    "resolve_round",
    "score_deal",
    "validate_deal",
    "with_options",
]

Card: TypeAlias = int
"""A number card 1–104."""
Row: TypeAlias = tuple[Card, ...]
"""The cards of one row, left to right, ascending."""

SLUG = "sechs-nimmt"
CARDS: tuple[Card, ...] = tuple(range(1, 105))
"""All number cards."""
HAND_SIZE = 10
"""Cards dealt to each player: a deal has ten rounds."""
ROWS = 4
"""Rows on the table."""
ROW_LIMIT = 5
"""Cards a row holds at most: the sixth card takes the five."""
DEFAULT_TARGET = 66
"""The match ends after the deal in which somebody reaches this total."""
MAX_TARGET = 1000
"""The highest target a group may agree on."""
MAX_DEALS = 100
"""The most deals a match of a fixed number of deals may have."""

_INFO = GAMES[SLUG]


# ---------------------------------------------------------------------------
# The cards
# ---------------------------------------------------------------------------


def _card(value: object, highest: int = 104) -> Card:
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= highest:
        raise error("card_range", "There is no card {card}: cards go from 1 to {highest}.",
                    card=value, highest=highest)
    return value


def _cards(values: object, highest: int = 104) -> tuple[Card, ...]:
    if isinstance(values, (str, bytes, Mapping)) or not isinstance(values, (list, tuple)):
        raise error("cards_type", "Cards must be given as a list of card numbers.")
    seen: set[Card] = set()
    for value in values:
        card = _card(value, highest)
        if card in seen:
            raise error("card_twice", "Card {card} appears twice.", card=card)
        seen.add(card)
    return tuple(values)


def hornochsen(card: int) -> int:
    """Hornochsen on a card 1–104: 55 → 7; other multiples of 11 → 5; multiples
    of 10 → 3; other multiples of 5 → 2; every other card → 1.

    >>> sum(hornochsen(card) for card in CARDS)
    171
    >>> [hornochsen(card) for card in (11, 20, 25, 102)]
    [5, 3, 2, 1]
    >>> hornochsen(105)
    Traceback (most recent call last):
    ...
    scoring.ScoringError: There is no card 105: cards go from 1 to 104.
    """
    return _VALUES[_card(card)]


_VALUES: tuple[int, ...] = (0, *(hornochsen_by_scheme(card) for card in CARDS))
MAX_HORNOCHSEN = sum(_VALUES)
"""All Hornochsen of the 104 cards: 171."""


def cards_in_play(players: int, *, profi: bool = False) -> tuple[Card, ...]:
    """The cards a deal is dealt from: all 104, or 1 to 10 × players + 4 in the Profi variant.

    >>> len(cards_in_play(4)), cards_in_play(2, profi=True)[-1]
    (104, 24)
    >>> cards_in_play(11)
    Traceback (most recent call last):
    ...
    scoring.ScoringError: 6 nimmt! is played by 2 to 10 players, not 11.
    """
    _INFO.check_players(players)
    if not profi:
        return CARDS
    return CARDS[: HAND_SIZE * players + ROWS]


# ---------------------------------------------------------------------------
# Placing cards
# ---------------------------------------------------------------------------


class PlacementRule(Enum):
    """Which rule decided where a played card went."""

    ASCENDING = "ascending"
    """"Ascending" and "lowest difference": the card went to the end of the row
    whose last card is the highest card below it."""
    SIXTH_CARD = "sixth-card"
    """"Sixth card": that row already held five cards; the player took them and
    the card starts the row."""
    LOW_CARD = "low-card"
    """"Low card": the card was lower than every row's last card; the player
    chose a row, took all its cards, and the card starts that row."""


@dataclass(frozen=True, slots=True)
class Placement:
    """Where a played card went and what the player takes."""

    row: int
    """Index 0–3 of the row the card went to (top to bottom)."""
    rows: tuple[Row, ...]
    """The four rows after the placement."""
    taken: tuple[Card, ...]
    """The cards the player takes into their pile, ascending; empty if none."""
    rule: PlacementRule


def _rows(rows: object) -> tuple[Row, ...]:
    """Checked table rows: four non-empty ascending rows of at most five cards, distinct."""
    if isinstance(rows, (str, bytes)) or not isinstance(rows, Sequence) or len(rows) != ROWS:
        raise error("rows_count", "The table has exactly four rows.")
    checked: list[Row] = []
    seen: set[Card] = set()
    for number, row in enumerate(rows, start=1):
        cards = _cards(row)
        if not cards:
            raise error("row_empty", "Row {row} is empty: every row always holds a card.",
                        row=number)
        for left, right in pairwise(cards):
            if right < left:
                raise error(
                    "row_not_ascending",
                    "Row {row} must ascend from left to right, but {right} follows {left}.",
                    row=number, left=left, right=right,
                )
        if len(cards) > ROW_LIMIT:
            raise error("row_too_long", "Row {row} holds {count} cards, but a row holds at most 5.",
                        row=number, count=len(cards))
        for card in cards:
            if card in seen:
                raise error("card_twice", "Card {card} appears twice.", card=card)
            seen.add(card)
        checked.append(cards)
    return tuple(checked)


def _target_row(rows: tuple[Row, ...], card: Card) -> int | None:
    """The row whose last card is the highest below ``card``, or None (a low card)."""
    best: int | None = None
    best_end = 0
    for index, row in enumerate(rows):
        if best_end < row[-1] < card:
            best, best_end = index, row[-1]
    return best


def _place(rows: tuple[Row, ...], card: Card, choose_row: object) -> Placement:
    index = _target_row(rows, card)
    new_row: Row
    if index is None:
        if choose_row is None:
            raise error(
                "row_choice_needed",
                "Card {card} is lower than every row's last card: the player must choose a row.",
                card=card,
            )
        if isinstance(choose_row, bool) or not isinstance(choose_row, int) or not (
            0 <= choose_row < ROWS
        ):
            raise error("row_index", "There is no row {row}: rows are numbered 1 to 4.",
                        row=choose_row)
        index, rule, taken, new_row = choose_row, PlacementRule.LOW_CARD, rows[choose_row], (card,)
    elif len(rows[index]) == ROW_LIMIT:
        rule, taken, new_row = PlacementRule.SIXTH_CARD, rows[index], (card,)
    else:
        rule, taken, new_row = PlacementRule.ASCENDING, (), (*rows[index], card)
    after = list(rows)
    after[index] = new_row
    return Placement(index, tuple(after), taken, rule)


def play(rows: Sequence[Sequence[int]], card: int, *, choose_row: int | None = None) -> Placement:
    """Place ``card`` on the four ``rows`` by the rules; ``choose_row`` (0–3) for a low card.

    >>> play([[12], [31], [50], [70]], 35).rows
    ((12,), (31, 35), (50,), (70,))
    >>> placed = play([[12], [31], [50], [70]], 5, choose_row=2)
    >>> placed.rule.name, placed.taken, placed.rows[2]
    ('LOW_CARD', (50,), (5,))
    >>> play([[12], [31], [50], [70]], 5)
    Traceback (most recent call last):
    ...
    scoring.ScoringError: Card 5 is lower than every row's last card: the player must choose a row.
    """
    checked = _rows(rows)
    card = _card(card)
    if any(card in row for row in checked):
        raise error("card_on_table", "Card {card} already lies in a row.", card=card)
    return _place(checked, card, choose_row)


@dataclass(frozen=True, slots=True)
class PendingChoice:
    """A low card waits for its player to choose the row they take."""

    player: str
    card: Card
    options: tuple[int, ...] = tuple(range(ROWS))
    """The row indices the player may choose (every row)."""


@dataclass(frozen=True, slots=True)
class Step:
    """One revealed card placed on the table."""

    player: str
    card: Card
    row: int
    rule: PlacementRule
    taken: tuple[Card, ...]
    """The cards the player took into their pile, ascending (empty if none)."""
    rows: tuple[Row, ...]
    """The rows after this step."""


@dataclass(frozen=True, slots=True)
class RoundResolution:
    """A round resolved lowest card first, as far as the given row choices reach."""

    steps: tuple[Step, ...]
    rows: tuple[Row, ...]
    pending: PendingChoice | None
    """The low card whose row has not been chosen yet, or None when the round is complete."""
    waiting: tuple[Card, ...]
    """Revealed cards not placed yet, ascending (the pending card first)."""

    @property
    def complete(self) -> bool:
        """Every revealed card has been placed."""
        return self.pending is None

    @property
    def taken(self) -> dict[str, tuple[Card, ...]]:
        """Per player who took cards in the steps so far, the cards taken, ascending."""
        piles: dict[str, tuple[Card, ...]] = {}
        for step in self.steps:
            if step.taken:
                piles[step.player] = tuple(sorted((*piles.get(step.player, ()), *step.taken)))
        return piles


def resolve_round(
    rows: Sequence[Sequence[int]],
    plays: Mapping[str, int],
    *,
    row_choices: Mapping[int, int] | None = None,
) -> RoundResolution:
    """Resolve one round: every revealed card placed, strictly lowest first.

    ``plays`` maps each player to their revealed card; ``row_choices`` maps a
    low card to the row index (0–3) its player chooses when it is resolved.
    The resolution stops at the first low card without a choice; choices for
    cards that turn out not to be low are ignored.

    >>> done = resolve_round([[3], [20, 21, 22, 23, 24], [50], [80]],
    ...                      {"Anna": 25, "Ben": 51, "Cem": 2}, row_choices={2: 0})
    >>> [(s.player, s.card, s.row, s.rule.name, s.taken) for s in done.steps]
    ... # doctest: +NORMALIZE_WHITESPACE
    [('Cem', 2, 0, 'LOW_CARD', (3,)), ('Anna', 25, 1, 'SIXTH_CARD', (20, 21, 22, 23, 24)),
     ('Ben', 51, 2, 'ASCENDING', ())]
    >>> stop = resolve_round([[48], [59], [60], [90]], {"Anna": 43, "Ben": 66})
    >>> stop.pending, stop.waiting
    (PendingChoice(player='Anna', card=43, options=(0, 1, 2, 3)), (43, 66))
    """
    table = _rows(rows)
    owner = revealed_cards(plays, on_table={card for row in table for card in row},
                           card=_card, check_players=_INFO.check_players)
    if row_choices is None:
        row_choices = {}
    if not isinstance(row_choices, Mapping):
        raise error("choices_type", "Row choices must map a revealed card to a row.")
    for card, row in row_choices.items():
        if card not in owner:
            raise error("choice_not_played", "Card {card} was not revealed this round.", card=card)
        if isinstance(row, bool) or not isinstance(row, int) or not 0 <= row < ROWS:
            raise error("row_index", "There is no row {row}: rows are numbered 1 to 4.", row=row)
    steps: list[Step] = []
    order = sorted(owner)
    for position, card in enumerate(order):
        player = owner[card]
        if _target_row(table, card) is None and card not in row_choices:
            return RoundResolution(tuple(steps), table, PendingChoice(player, card),
                                   tuple(order[position:]))
        placed = _place(table, card, row_choices.get(card))
        table = placed.rows
        steps.append(Step(player, card, placed.row, placed.rule, placed.taken, table))
    return RoundResolution(tuple(steps), table, None, ())


# ---------------------------------------------------------------------------
# Match options
# ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Options:
    """How long a match runs and which cards are in play.

    Either a ``target`` (the match ends after the deal in which somebody
    reaches it; 66 by default) or a fixed number of ``deals``; ``profi``
    plays with the cards 1 to 10 × players + 4 only.

    >>> Options().target, Options(deals=1).target
    (66, None)
    >>> Options(target=50, deals=2)
    Traceback (most recent call last):
    ...
    scoring.ScoringError: A match plays either to a target or a fixed number of deals, not both.
    """

    target: int | None = DEFAULT_TARGET
    deals: int | None = None
    profi: bool = False

    def __post_init__(self) -> None:
        if self.deals is not None and self.target == DEFAULT_TARGET:
            object.__setattr__(self, "target", None)
        if self.deals is not None and self.target is not None:
            raise error("target_and_deals",
                        "A match plays either to a target or a fixed number of deals, not both.")
        if self.deals is None and self.target is None:
            raise error("no_end", "A match needs a target or a fixed number of deals.")
        if self.target is not None and (
            isinstance(self.target, bool) or not isinstance(self.target, int)
            or not 1 <= self.target <= MAX_TARGET
        ):
            raise error("target_range",
                        "The target is a whole number from 1 to {most}, not {value}.",
                        most=MAX_TARGET, value=self.target)
        if self.deals is not None and (
            isinstance(self.deals, bool) or not isinstance(self.deals, int)
            or not 1 <= self.deals <= MAX_DEALS
        ):
            raise error("deals_range",
                        "The number of deals is a whole number from 1 to {most}, not {value}.",
                        most=MAX_DEALS, value=self.deals)
        if not isinstance(self.profi, bool):
            raise error("profi_type", "Profi must be yes or no.")


_OPTION_KEYS = ("target", "deals", "profi")


def options_from_dict(data: Mapping[str, object] | None) -> Options:
    """The options of a match as stored with it; keys of other concerns are ignored.

    >>> options_from_dict({"deals": 3, "profi": True, "live_rev": 2})
    Options(target=None, deals=3, profi=True)
    >>> options_from_dict(None)
    Options(target=66, deals=None, profi=False)
    """
    if data is None:
        return Options()
    if not isinstance(data, Mapping):
        raise error("options_type", "The match options must be an object with named fields.")
    target = data.get("target")
    deals = data.get("deals")
    profi = data.get("profi", False)
    if deals is None and target is None:
        target = DEFAULT_TARGET
    return Options(target, deals, profi)  # type: ignore[arg-type]  # checked by Options


def options_to_dict(options: Options) -> dict[str, object]:
    """The stored form: only what differs from a plain match to 66.

    >>> options_to_dict(Options()), options_to_dict(Options(deals=1, profi=True))
    ({}, {'deals': 1, 'profi': True})
    """
    stored: dict[str, object] = {}
    if options.deals is not None:
        stored["deals"] = options.deals
    elif options.target != DEFAULT_TARGET:
        stored["target"] = options.target
    if options.profi:
        stored["profi"] = True
    return stored


def _options(options: Options | Mapping[str, object] | None) -> Options:
    return options if isinstance(options, Options) else options_from_dict(options)


# ---------------------------------------------------------------------------
# Recording interface
# ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Entry:
    """What one player records for one deal: the Hornochsen in their pile, or its cards.

    With ``cards`` the engine counts the Hornochsen; when both are given they
    must agree (a ``hornochsen`` of 0 next to cards means "not counted").

    >>> Entry(cards=(55, 10, 3)).count()
    11
    >>> Entry(hornochsen=5, cards=(55,)).count()
    Traceback (most recent call last):
    ...
    scoring.ScoringError: 5 Hornochsen were entered, but the cards 55 show 7.
    """

    hornochsen: int = 0
    cards: tuple[int, ...] | None = None

    def __post_init__(self) -> None:
        if isinstance(self.cards, list):
            object.__setattr__(self, "cards", tuple(self.cards))

    def count(self, highest: int = 104) -> int:
        """The Hornochsen in the pile: counted from the cards where given."""
        value = self.hornochsen
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise error("count_value",
                        "The Hornochsen in a pile are a whole number of 0 or more, not {value!r}.",
                        value=value)
        if self.cards is None:
            if value > MAX_HORNOCHSEN:
                raise error("count_too_high",
                            "A pile cannot hold {value} Hornochsen: all cards show {most}.",
                            value=value, most=MAX_HORNOCHSEN)
            return value
        cards = _cards(self.cards, highest)
        counted = sum(_VALUES[card] for card in cards)
        if value not in (0, counted):
            raise error("count_disagrees",
                        "{value} Hornochsen were entered, but the cards {cards} show {counted}.",
                        value=value, cards=", ".join(map(str, sorted(cards))), counted=counted)
        return counted


def deal_count(players: int, options: Options | Mapping[str, object] | None = None) -> int | None:
    """Deals in a complete match: the fixed number, or None when it plays to a target.

    >>> deal_count(4), deal_count(4, {"deals": 2})
    (None, 2)
    """
    _INFO.check_players(players)
    return _options(options).deals


def _checked(entries: object, options: Options) -> dict[str, int]:
    if not isinstance(entries, Mapping):
        raise error("entries_type", "A deal's entries must map each player to an entry.")
    players = len(entries)
    _INFO.check_players(players)
    play = cards_in_play(players, profi=options.profi)
    highest = play[-1]
    most = sum(_VALUES[card] for card in play)
    owner: dict[Card, str] = {}
    scores: dict[str, int] = {}
    for player, entry in entries.items():
        if not isinstance(player, str) or not player:
            raise error("player_name", "Every player needs a name.")
        if not isinstance(entry, Entry):
            raise error("entry_type", "{player}: the entry is not a 6 nimmt! entry.", player=player)
        try:
            scores[player] = entry.count(highest)
        except ScoringError as problem:
            # Keep the entry's own (translatable) template; name the player in params.
            raise ScoringError(f"{player}: {problem.message}", code=problem.code,
                               template=problem.template,
                               **{**problem.params, "player": player}) from problem
        cards = entry.cards or ()
        if len(cards) > HAND_SIZE * ROW_LIMIT:
            raise error(
                "pile_too_big",
                "{player}: a pile holds at most 50 cards (5 per round taken), not {count}.",
                player=player, count=len(cards),
            )
        for card in cards:
            if card in owner:
                raise error(
                    "card_in_deal_twice",
                    "Card {card} appears more than once in this deal ({first} and {second}).",
                    card=card, first=owner[card], second=player,
                )
            owner[card] = player
    if len(owner) > HAND_SIZE * players:
        raise error(
            "too_many_cards",
            "The piles hold {count} cards, but {players} players take at most {most}: "
            "of the {in_play} cards in play four still lie in the rows.",
            count=len(owner), players=players, most=HAND_SIZE * players,
            in_play=HAND_SIZE * players + ROWS,
        )
    total = sum(scores.values())
    if total > most:
        raise error("too_many_hornochsen",
                    "This deal records {total} Hornochsen, but the cards in play show only {most}.",
                    total=total, most=most)
    if total == 0:
        raise error(
            "nobody_took",
            "Somebody takes cards in every deal: the rows cannot hold all the cards played, "
            "so a deal with 0 Hornochsen for everyone is not possible.",
        )
    return scores


def validate_deal(
    entries: Mapping[str, Entry], options: Options | Mapping[str, object] | None = None
) -> None:
    """Raise :class:`scoring.ScoringError` unless one deal's entries can all be true.

    Checks: 2 to 10 players; card numbers of the cards in play, each at most
    once; a pile of at most 50 cards and all piles together at most
    10 × players cards; all Hornochsen at most those of the cards in play
    (171, or those of 1 to 10 × players + 4 in the Profi variant); somebody
    took cards.

    >>> validate_deal({"Anna": Entry(), "Ben": Entry()})
    Traceback (most recent call last):
    ...
    scoring.ScoringError: Somebody takes cards in every deal: the rows cannot hold all the \
cards played, so a deal with 0 Hornochsen for everyone is not possible.
    >>> validate_deal({"Anna": Entry(cards=(30,)), "Ben": Entry(hornochsen=2)}, {"profi": True})
    Traceback (most recent call last):
    ...
    scoring.ScoringError: Anna: There is no card 30: cards go from 1 to 24.
    >>> validate_deal({"Anna": Entry(hornochsen=30), "Ben": Entry(hornochsen=9)}, {"profi": True})
    Traceback (most recent call last):
    ...
    scoring.ScoringError: This deal records 39 Hornochsen, but the cards in play show only 38.
    """
    _checked(entries, _options(options))


def score_deal(
    entries: Mapping[str, Entry], options: Options | Mapping[str, object] | None = None
) -> dict[str, int]:
    """Validates, then each player's Hornochsen of the deal (minus points).

    >>> score_deal({"Anna": Entry(cards=(11, 22)), "Ben": Entry(hornochsen=3), "Cem": Entry()})
    {'Anna': 10, 'Ben': 3, 'Cem': 0}
    """
    return _checked(entries, _options(options))


def explain_deal(
    entries: Mapping[str, Entry], options: Options | Mapping[str, object] | None = None
) -> Breakdown:
    """Validates, then each player's score as one term: the Hornochsen in their pile.

    >>> parts = explain_deal({"Anna": Entry(cards=(55, 3)), "Ben": Entry(hornochsen=4)})
    >>> [(p.kind, p.count, p.points) for p in parts["Anna"]], parts["Anna"][0].cards[1]
    ([('pile', 8, 8)], CardValue(card=55, hornochsen=7))
    """
    scores = _checked(entries, _options(options))
    return {
        player: (ScorePart("pile", scores[player], scores[player], cards=tuple(
            CardValue(card, _VALUES[card]) for card in sorted(entry.cards or ())
        )),)
        for player, entry in entries.items()
    }


def entry_to_dict(entry: Entry) -> dict[str, object]:
    """JSON-compatible form of an entry.

    >>> entry_to_dict(Entry(cards=(10, 20)))
    {'hornochsen': 0, 'cards': [10, 20]}
    """
    if not isinstance(entry, Entry):
        raise error("entry_type", "This is not a 6 nimmt! entry.")
    return {"hornochsen": entry.hornochsen,
            "cards": None if entry.cards is None else list(entry.cards)}


def entry_from_dict(data: Mapping[str, object]) -> Entry:
    """The entry that :func:`entry_to_dict` wrote; missing keys take their defaults.

    >>> entry_from_dict({"hornochsen": 4})
    Entry(hornochsen=4, cards=None)
    >>> entry_from_dict({"hornochsen": -1})
    Traceback (most recent call last):
    ...
    scoring.ScoringError: The Hornochsen in a pile are a whole number of 0 or more, not -1.
    """
    if not isinstance(data, Mapping):
        raise error("entry_data", "A 6 nimmt! entry must be an object with named fields.")
    unknown = sorted(str(key) for key in data if key not in ("hornochsen", "cards"))
    if unknown:
        raise error("entry_key", "Unknown field(s) in a 6 nimmt! entry: {keys}.",
                    keys=", ".join(unknown))
    cards = data.get("cards")
    entry = Entry(data.get("hornochsen", 0),  # type: ignore[arg-type]  # checked by count()
                  None if cards is None else _cards(cards))
    entry.count()
    return entry


# ---------------------------------------------------------------------------
# The match
# ---------------------------------------------------------------------------


def match_over(
    deal_scores: Sequence[Mapping[str, int]], options: Options | Mapping[str, object] | None = None
) -> bool:
    """Whether a match with these deal scores is complete.

    To a target: after the deal in which at least one player's total reaches
    it (also when several do). A fixed number of deals: when all are played.

    >>> match_over([{"Anna": 40, "Ben": 10}, {"Anna": 26, "Ben": 12}])
    True
    >>> match_over([{"Anna": 40, "Ben": 10}, {"Anna": 25, "Ben": 12}])
    False
    >>> match_over([{"Anna": 1, "Ben": 0}], {"deals": 1})
    True
    """
    chosen = _options(options)
    if chosen.deals is not None:
        return len(deal_scores) >= chosen.deals
    totals: dict[str, int] = {}
    for scores in deal_scores:
        for player, score in scores.items():
            totals[player] = totals.get(player, 0) + score
    assert chosen.target is not None
    return any(total >= chosen.target for total in totals.values())


def deals_needed(
    players: int, *, recorded: int, totals: Mapping[str, int],
    options: Options | Mapping[str, object] | None = None,
) -> int:
    """How many deals the match has with ``recorded`` deals and these ``totals``: the
    fixed number, or to a target ``recorded`` once somebody has reached it, else one more.

    >>> deals_needed(4, recorded=3, totals={"Anna": 66, "Ben": 12})
    3
    >>> deals_needed(4, recorded=3, totals={"Anna": 65, "Ben": 12})
    4
    >>> deals_needed(4, recorded=0, totals={}, options={"deals": 2})
    2
    """
    _INFO.check_players(players)
    chosen = _options(options)
    if chosen.deals is not None:
        return chosen.deals
    assert chosen.target is not None
    reached = recorded > 0 and any(total >= chosen.target for total in totals.values())
    return recorded if reached else recorded + 1


@dataclass(frozen=True, slots=True)
class Rules:
    """The recording interface of :mod:`scoring.common` bound to one match's options.

    >>> rules = with_options({"profi": True, "deals": 1})
    >>> rules.deal_count(2), rules.score_deal({"Anna": Entry(cards=(24,)), "Ben": Entry()})
    (1, {'Anna': 1, 'Ben': 0})
    """

    options: Options

    def deal_count(self, players: int) -> int | None:
        return deal_count(players, self.options)

    def deals_needed(self, players: int, *, recorded: int, totals: Mapping[str, int]) -> int:
        return deals_needed(players, recorded=recorded, totals=totals, options=self.options)

    def validate_deal(self, entries: Mapping[str, Entry]) -> None:
        validate_deal(entries, self.options)

    def score_deal(self, entries: Mapping[str, Entry]) -> dict[str, int]:
        return score_deal(entries, self.options)

    def explain_deal(self, entries: Mapping[str, Entry]) -> Breakdown:
        return explain_deal(entries, self.options)

    def entry_from_dict(self, data: Mapping[str, object]) -> Entry:
        return entry_from_dict(data)

    def entry_to_dict(self, entry: Entry) -> dict[str, object]:
        return entry_to_dict(entry)

    def match_over(self, deal_scores: Sequence[Mapping[str, int]]) -> bool:
        return match_over(deal_scores, self.options)

    def random_game(self, players: int, rng: random.Random) -> SimulatedGame:
        return random_game(players, rng, self.options)


def with_options(options: Options | Mapping[str, object] | None) -> Rules:
    """The rules of a match with these options (stored keys of other concerns ignored)."""
    return Rules(_options(options))


# ---------------------------------------------------------------------------
# The game model: random legal deals
# ---------------------------------------------------------------------------


@lru_cache(maxsize=16)
def _names(players: int) -> tuple[str, ...]:
    return player_names(players)


def _random_deal(players: int, rng: random.Random, profi: bool) -> list[tuple[Card, ...]]:
    """One deal of random legal plays; returns each seat's pile (ascending)."""
    deck = list(cards_in_play(players, profi=profi))
    rng.shuffle(deck)
    hands = [deck[HAND_SIZE * seat: HAND_SIZE * (seat + 1)] for seat in range(players)]
    start = sorted(deck[HAND_SIZE * players: HAND_SIZE * players + ROWS])
    rows: tuple[Row, ...] = tuple((card,) for card in start)
    piles: list[list[Card]] = [[] for _ in range(players)]
    names = _names(players)
    for _ in range(HAND_SIZE):
        plays = {names[seat]: hand.pop(rng.randrange(len(hand)))
                 for seat, hand in enumerate(hands)}
        choices = {card: rng.randrange(ROWS) for card in plays.values()}
        resolution = resolve_round(rows, plays, row_choices=choices)
        rows = resolution.rows
        for step in resolution.steps:
            piles[names.index(step.player)].extend(step.taken)
    return [tuple(sorted(pile)) for pile in piles]


def random_game(
    players: int, rng: random.Random, options: Options | Mapping[str, object] | None = None
) -> SimulatedGame:
    """A complete match of random legal plays, deal after deal until :func:`match_over`.

    Each deal is shuffled, dealt, and played round by round through
    :func:`resolve_round` (a random hand card per player, a random row for a
    low card). Each entry is recorded by count, by cards or both, at random.

    >>> game = random_game(3, random.Random(5), {"deals": 2})
    >>> len(game.deals), sorted(game.totals) == ["P1", "P2", "P3"]
    (2, True)
    """
    chosen = _options(options)
    _INFO.check_players(players)
    names = _names(players)
    deals: list[dict[str, Entry]] = []
    scores: list[dict[str, int]] = []
    totals = dict.fromkeys(names, 0)
    while not match_over(scores, chosen):
        piles = _random_deal(players, rng, chosen.profi)
        entries: dict[str, Entry] = {}
        deal_scores: dict[str, int] = {}
        for player, pile in zip(names, piles, strict=True):
            count = sum(_VALUES[card] for card in pile)
            form = rng.randrange(3)
            entries[player] = (Entry(cards=pile) if form == 0 else Entry(count) if form == 1
                               else Entry(count, pile))
            deal_scores[player] = count
            totals[player] += count
        deals.append(entries)
        scores.append(deal_scores)
    return SimulatedGame(names, tuple(deals), totals)

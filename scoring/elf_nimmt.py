"""11 nimmt! (Amigo, Wolfgang Kramer): 2–7 players, fewest minus points after N deals.

The rules are in ``rules/elf-nimmt.md``. This module has five parts:

* the contract of ``ENGINE.md``: :func:`distance`, :func:`can_play`,
  :func:`can_play_all`, :func:`hand_penalty`, :func:`deals`;
* the recording interface shared by all games (see :mod:`scoring.common`):
  :class:`Entry`, :func:`deal_count`, :func:`validate_deal`,
  :func:`score_deal`, :func:`entry_from_dict`, :func:`entry_to_dict`, and
  :func:`next_starter`;
* the move-legality helpers behind the app's check page:
  :func:`legal_piles`, :func:`pile_distances`, :func:`check_play`,
  :func:`must_take`;
* the bull card tracker (a live helper at the table): :class:`BullCards`,
  :func:`take_pile`, :func:`steal_candidates`;
* the complete game model: :class:`GameState` (with its :class:`Table`),
  :func:`start_game`, :func:`legal_actions`, :func:`apply` (actions
  :class:`PlayCards`, :class:`TakePile`, :class:`EndTurn`),
  :func:`start_next_deal`, :func:`random_game`.

Readings where the rulebook is silent (shown to players as the app's
decisions): ties for the next starter go to the first tied player in seat
order (:func:`next_starter`); with the supply empty, "the player with the
most" bull cards is counted over everybody, the taker included, and stealing
is optional (:func:`bull_card_source`, :func:`take_pile`); a deal in which the last
pile is taken with an empty draw pile ends at once, nobody out
(:func:`start_game`, :func:`validate_deal`).

Cards are the numbers 1–100. The Hornochsen printed on a card come from a
:class:`Deck` (by default the classic scheme of :func:`scoring.hornochsen`; a
group may describe its own deck).

>>> distance(98, 5)
7
>>> can_play(96, 6), can_play(96, 7)
(True, False)
>>> hand_penalty([55, 10, 3])
11
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from enum import Enum
from functools import lru_cache, reduce
from itertools import chain, pairwise, repeat
from operator import getitem, itemgetter, or_
from types import MappingProxyType
from typing import TypeAlias

from scoring import GAMES, ScoringError, error
from scoring.common import Breakdown, CardValue, ScorePart, SimulatedGame, player_names
from scoring.number_cards import CARDS, MAX_HORNOCHSEN, Card, Deck
from scoring.number_cards import STANDARD_DECK as _STANDARD
from scoring.number_cards import check_card as _card
from scoring.number_cards import check_cards as _cards

__all__ = [
    "BULL_CARDS",
    "CARDS",
    "HAND_SIZE",
    "MAX_DISTANCE",
    "MAX_HORNOCHSEN",
    "PILE_FOR_BULL_CARD",
    "Action",
    "BullCardDue",
    "BullCardSource",
    "BullCards",
    "DealResult",
    "Deck",
    "EndTurn",
    "Entry",
    "GameState",
    "Phase",
    "PlayCards",
    "PlayCheck",
    "PlayProblem",
    "Table",
    "TakePile",
    "apply",
    "bull_card_source",
    "can_play",
    "can_play_all",
    "check_play",
    "deal_count",
    "deals",
    "distance",
    "entry_from_dict",
    "entry_to_dict",
    "explain_deal",
    "hand_penalty",
    "legal_actions",
    "legal_piles",
    "must_take",
    "next_starter",
    "next_starter_tie",
    "pile_distances",
    "random_game",
    "score_deal",
    "start_game",
    "start_next_deal",
    "steal_candidates",
    "take_pile",
    "validate_deal",
]

Pile: TypeAlias = tuple[Card, ...]
"""The cards of one discard pile, bottom first: the last card is the top card."""

SLUG = "elf-nimmt"
HAND_SIZE = 10
"""Cards dealt to each player at the start of a deal."""
MAX_DISTANCE = 10
"""A card may go on a pile if its wrap-around distance to the top card is 1 to 10."""
BULL_CARDS = 10
"""Bull cards in the game; they all lie in the supply at the start of a deal."""
PILE_FOR_BULL_CARD = 3
"""Taking a pile of at least this many cards earns a bull card."""

_INFO = GAMES[SLUG]


# ---------------------------------------------------------------------------
# Input checks shared by everything below
# ---------------------------------------------------------------------------


def _count(value: object) -> int:
    """A non-negative whole number (a count of Hornochsen, cards, players or bull cards)."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise error("not_a_number", "A count must be a whole number, not {value!r}.", value=value)
    if value < 0:
        raise error("negative", "A count cannot be negative: {value}.", value=value)
    return value


def _hand_count(value: object) -> int:
    """The Hornochsen on a hand as entered: a whole number, 0 or more."""
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise error(
            "hand_count",
            "The Hornochsen on hand are a whole number of 0 or more, not {value!r}.",
            value=value,
        )
    return value


def _tops(tops: object) -> tuple[Card, ...]:
    """The top cards of the discard piles, one per pile (distinct cards)."""
    return _cards(tops)


# ---------------------------------------------------------------------------
# The deck: Hornochsen per card
# ---------------------------------------------------------------------------




# ---------------------------------------------------------------------------
# The contract of ENGINE.md
# ---------------------------------------------------------------------------


def distance(top: int, card: int) -> int:
    """How far ``card`` lies above ``top``, counting on from 100 to 1 (1–99).

    >>> distance(33, 43), distance(96, 100), distance(96, 1), distance(98, 5)
    (10, 4, 5, 7)
    >>> distance(5, 98)
    93
    >>> distance(12, 12)
    Traceback (most recent call last):
    ...
    scoring.ScoringError: Card 12 cannot lie on itself: every card exists once.
    """
    top, card = _card(top), _card(card)
    if top == card:
        raise error(
            "same_card", "Card {card} cannot lie on itself: every card exists once.", card=card
        )
    return (card - top) % 100


def can_play(top: int, card: int) -> bool:
    """Whether ``card`` may go on a pile whose top card is ``top`` (distance 1–10).

    >>> can_play(31, 36), can_play(46, 57), can_play(100, 1), can_play(40, 39)
    (True, False, True, False)
    """
    return distance(top, card) <= MAX_DISTANCE


def can_play_all(top: int, cards: Iterable[int]) -> bool:
    """Whether a bull card play may put all ``cards`` on one pile with top card ``top``.

    Every card must lie within distance 1–10 of the top card before the play;
    the cards go down in ascending wrap-around order, so their order here does
    not matter. No cards is no play (``False``); a card named twice is an error.

    >>> can_play_all(33, [34, 43, 40])
    True
    >>> can_play_all(33, [34, 44])
    False
    >>> can_play_all(95, [100, 2, 5])
    True
    >>> can_play_all(33, [])
    False
    >>> can_play_all(33, [35, 35])
    Traceback (most recent call last):
    ...
    scoring.ScoringError: Card 35 appears twice.
    """
    played = _cards(cards)
    top = _card(top)
    return bool(played) and all(can_play(top, card) for card in played)


def hand_penalty(hand: Iterable[int], *, deck: Deck = _STANDARD) -> int:
    """Minus points for the cards left in a hand at the end of a deal.

    >>> hand_penalty([]), hand_penalty([1, 2]), hand_penalty([55, 66, 70, 75])
    (0, 2, 17)
    """
    return sum(map(deck.values.__getitem__, _cards(hand)))


def deals(players: int) -> int:
    """Deals in a complete game: as many as there are players.

    >>> deals(2), deals(7)
    (2, 7)
    >>> deals(8)
    Traceback (most recent call last):
    ...
    scoring.ScoringError: 11 nimmt! is played by 2 to 7 players, not 8.
    """
    _INFO.check_players(_count(players))
    return players


# ---------------------------------------------------------------------------
# Recording interface (see scoring.common)
# ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Entry:
    """What one player records at the end of one deal.

    ``hand`` is the Hornochsen on the cards left in hand; ``hand_cards``
    (optional) the card numbers themselves, and then the engine counts. When
    both are given they must agree; a ``hand`` of 0 next to cards means "not
    counted" (a card in hand always shows at least one Hornochse).
    ``went_out`` marks the player who played their last card and ended the
    deal: they have no cards and score 0.

    >>> Entry(hand_cards=(55, 3)).hornochsen()
    8
    >>> Entry(hand=9, hand_cards=(55, 3)).hornochsen()
    Traceback (most recent call last):
    ...
    scoring.ScoringError: 9 Hornochsen were entered, but the cards 3, 55 show 8.
    """

    hand: int = 0
    hand_cards: tuple[int, ...] | None = None
    went_out: bool = False

    def hornochsen(self, *, deck: Deck = _STANDARD) -> int:
        """Hornochsen on the hand: counted from the cards if given, else ``hand``."""
        hand = _hand_count(self.hand)
        if not isinstance(self.went_out, bool):
            raise error("went_out_type", "'Went out' must be yes or no.")
        if self.hand_cards is None:
            counted = hand
        else:
            cards = _cards(self.hand_cards)
            counted = sum(map(deck.values.__getitem__, cards))
            if hand not in (0, counted):
                raise error(
                    "hand_disagrees",
                    "{hand} Hornochsen were entered, but the cards {cards} show {counted}.",
                    hand=hand, cards=", ".join(str(card) for card in sorted(cards)),
                    counted=counted,
                )
        if self.went_out and counted:
            raise error(
                "out_with_cards",
                "A player who went out has no cards left, so no Hornochsen (not {hand}).",
                hand=counted,
            )
        if self.went_out and self.hand_cards:
            raise error("out_with_cards_listed", "A player who went out has no cards left.")
        return counted


def deal_count(players: int) -> int:
    """Deals in a complete game: one per player (same as :func:`deals`).

    >>> deal_count(4)
    4
    """
    return deals(players)


def _entries(entries: object) -> Mapping[str, Entry]:
    if not isinstance(entries, Mapping):
        raise error("entries_type", "A deal is recorded as one entry per player.")
    for player, entry in entries.items():
        if not isinstance(player, str) or not player:
            raise error("player_name", "Every entry needs a player name.")
        if not isinstance(entry, Entry):
            raise error("entry_type", "The entry of {player} is not an 11 nimmt! entry.",
                        player=player)
    return entries


def validate_deal(entries: Mapping[str, Entry], *, deck: Deck = _STANDARD) -> None:
    """Raise :class:`scoring.ScoringError` unless one deal's entries can all be true.

    Checks: 2 to 7 players; exactly one player went out (the deal ends as soon
    as a player has no cards) and has no Hornochsen; every other player still
    holds a card, so at least one Hornochse; card numbers 1–100, each in at
    most one hand; at most 167 Hornochsen (all of the deck) in all hands.

    One reading beyond the rulebook (see :func:`start_game`): when every
    pile has been taken and the draw pile is empty, nobody can move and the
    deal ends without anyone going out. Such a deal holds all 100 cards in
    the hands, so it is accepted with nobody out exactly when the hands show
    all Hornochsen of the deck (167).

    >>> validate_deal({"Anna": Entry(went_out=True), "Ben": Entry(hand=4)})
    >>> validate_deal({"Anna": Entry(hand=3), "Ben": Entry(hand=4)})
    Traceback (most recent call last):
    ...
    scoring.ScoringError: Nobody went out, but the hands show only 7 of the 167 Hornochsen: \
a deal ends when one player goes out, or, blocked, with every card in the hands.
    """
    _deal_hornochsen(entries, deck)


def _deal_hornochsen(entries: Mapping[str, Entry], deck: Deck) -> dict[str, int]:
    checked = _entries(entries)
    _INFO.check_players(len(checked))
    scores: dict[str, int] = {}
    seen: set[Card] = set()
    for player, entry in checked.items():
        try:
            scores[player] = entry.hornochsen(deck=deck)
        except ScoringError as problem:
            # Keep the entry's own (translatable) template; name the player in params.
            raise ScoringError(
                f"{player}: {problem.message}", code=problem.code, template=problem.template,
                **{**problem.params, "player": player},
            ) from problem
        cards = entry.hand_cards or ()
        if not seen.isdisjoint(cards):
            card = min(card for card in cards if card in seen)
            first = next(
                earlier for earlier, other in checked.items()
                if card in (other.hand_cards or ())
            )
            raise error(
                "card_in_two_hands",
                "Card {card} is in the hands of both {first} and {second}.",
                card=card, first=first, second=player,
            )
        seen.update(cards)
    out = [player for player, entry in checked.items() if entry.went_out]
    total = sum(scores.values())
    if len(out) > 1:
        raise error(
            "several_out",
            "Only one player can go out, the deal ends at once: {players} are marked.",
            players=", ".join(out),
        )
    if not out and total < deck.total:
        # Not "exactly one goes out": a blocked deal ends with nobody out (the Decisions).
        raise error(
            "nobody_out",
            "Nobody went out, but the hands show only {total} of the {most} Hornochsen: a "
            "deal ends when one player goes out, or, blocked, with every card in the hands.",
            total=total, most=deck.total,
        )
    for player, entry in checked.items():
        if not entry.went_out and scores[player] == 0:
            raise error(
                "stayed_without_cards",
                "{player} did not go out, so they still hold a card and at least one Hornochse.",
                player=player,
            )
    if total > deck.total:
        raise error(
            "too_many_hornochsen",
            "The hands show {total} Hornochsen, but all cards together show only {most}.",
            total=total, most=deck.total,
        )
    return scores


def score_deal(entries: Mapping[str, Entry], *, deck: Deck = _STANDARD) -> dict[str, int]:
    """Validate one deal, then each player's minus points: Hornochsen on hand, 0 if out.

    >>> score_deal({"Anna": Entry(hand=12), "Ben": Entry(went_out=True),
    ...             "Cem": Entry(hand_cards=(55, 10, 1))})
    {'Anna': 12, 'Ben': 0, 'Cem': 11}
    """
    return _deal_hornochsen(entries, deck)


def explain_deal(entries: Mapping[str, Entry], *, deck: Deck = _STANDARD) -> Breakdown:
    """Validates, then each player's minus points: the Hornochsen on hand (with
    the cards where recorded), or nothing for the player who went out.

    >>> parts = explain_deal({"Anna": Entry(hand_cards=(55, 10)), "Ben": Entry(went_out=True)})
    >>> [(p.kind, p.count, p.points, [c.hornochsen for c in p.cards]) for p in parts["Anna"]]
    [('hand', 10, 10, [3, 7])]
    >>> parts["Ben"]
    (ScorePart(kind='went_out', count=0, points=0, colour='', cards=(), tied=False),)
    """
    scores = _deal_hornochsen(entries, deck)
    return {
        player: (ScorePart("went_out", 0, 0),) if entry.went_out else (
            ScorePart("hand", scores[player], scores[player], cards=tuple(
                CardValue(card, deck.of(card)) for card in sorted(entry.hand_cards or ())
            )),
        )
        for player, entry in entries.items()
    }


_ENTRY_KEYS = frozenset({"hand", "hand_cards", "went_out"})


def entry_from_dict(data: Mapping[str, object]) -> Entry:
    """An :class:`Entry` from the JSON of :func:`entry_to_dict` (missing keys: defaults).

    >>> entry_from_dict({"hand_cards": [55, 3]})
    Entry(hand=0, hand_cards=(3, 55), went_out=False)
    >>> entry_from_dict({"hand": -1})
    Traceback (most recent call last):
    ...
    scoring.ScoringError: The Hornochsen on hand are a whole number of 0 or more, not -1.
    """
    if not isinstance(data, Mapping):
        raise error("entry_type", "An entry must be a mapping of fields.")
    unknown = sorted(str(key) for key in data if key not in _ENTRY_KEYS)
    if unknown:
        raise error("entry_keys", "Unknown entry fields: {keys}.", keys=", ".join(unknown))
    hand = _hand_count(data.get("hand", 0))
    raw_cards = data.get("hand_cards")
    cards = None if raw_cards is None else tuple(sorted(_cards(raw_cards)))
    went_out = data.get("went_out", False)
    if not isinstance(went_out, bool):
        raise error("went_out_type", "'Went out' must be yes or no.")
    entry = Entry(hand=hand, hand_cards=cards, went_out=went_out)
    entry.hornochsen()
    return entry


def entry_to_dict(entry: Entry) -> dict[str, object]:
    """JSON-compatible form of an entry (``hand_cards`` as a list or ``None``).

    >>> entry_to_dict(Entry(hand=8, hand_cards=(3, 55)))
    {'hand': 8, 'hand_cards': [3, 55], 'went_out': False}
    """
    return {
        "hand": entry.hand,
        "hand_cards": None if entry.hand_cards is None else list(entry.hand_cards),
        "went_out": entry.went_out,
    }


def next_starter(scores: Mapping[str, int], seat_order: Sequence[str]) -> str:
    """Who starts the next deal: the player with the most minus points in the last one.

    Ties (the rulebook is silent) go to the first of the tied players in
    ``seat_order``, the order the players sit in (from the first seat of the
    game, not from the last starter).

    >>> next_starter({"Anna": 7, "Ben": 12, "Cem": 12}, ["Anna", "Ben", "Cem"])
    'Ben'
    >>> next_starter({"Anna": 7}, ["Anna", "Ben"])
    Traceback (most recent call last):
    ...
    scoring.ScoringError: Minus points are missing for Ben.
    """
    if isinstance(seat_order, str) or not isinstance(seat_order, Sequence) or not seat_order:
        raise error("seat_order", "The seat order must list the players.")
    if len(set(seat_order)) != len(seat_order):
        raise error("seat_twice", "A player appears twice in the seat order.")
    missing = [player for player in seat_order if player not in scores]
    if missing:
        raise error("scores_missing", "Minus points are missing for {players}.",
                    players=", ".join(missing))
    extra = sorted(player for player in scores if player not in seat_order)
    if extra:
        raise error("scores_unknown", "{players} do not sit at this table.",
                    players=", ".join(extra))
    points = {player: _count(scores[player]) for player in seat_order}
    most = max(points.values())
    return next(player for player in seat_order if points[player] == most)


def next_starter_tie(scores: Mapping[str, int], seat_order: Sequence[str]) -> tuple[str, ...]:
    """The players tied for the most minus points (seat order) when :func:`next_starter`
    broke a tie, so that the table can overrule it; empty when the starter is clear.

    >>> next_starter_tie({"Anna": 7, "Ben": 12, "Cem": 12}, ["Anna", "Ben", "Cem"])
    ('Ben', 'Cem')
    >>> next_starter_tie({"Anna": 7, "Ben": 12}, ["Anna", "Ben"])
    ()
    """
    next_starter(scores, seat_order)
    most = max(_count(scores[player]) for player in seat_order)
    tied = tuple(player for player in seat_order if _count(scores[player]) == most)
    return tied if len(tied) > 1 else ()


# ---------------------------------------------------------------------------
# Move legality (the app's check page)
# ---------------------------------------------------------------------------


def pile_distances(tops: Sequence[int], card: int) -> tuple[int, ...]:
    """The distance of ``card`` to each pile's top card, pile by pile.

    >>> pile_distances([5, 19, 78], 84)
    (79, 65, 6)
    """
    checked = _tops(tops)
    return tuple(distance(top, card) for top in checked)


def legal_piles(tops: Sequence[int], card: int) -> tuple[int, ...]:
    """Indices (0-based, in table order) of the piles ``card`` may be played on.

    >>> legal_piles([5, 19, 78], 12)
    (0,)
    >>> legal_piles([5, 19, 78], 50)
    ()
    >>> legal_piles([96, 100], 3)
    (0, 1)
    """
    return tuple(
        index for index, gap in enumerate(pile_distances(tops, card)) if gap <= MAX_DISTANCE
    )


class PlayProblem(Enum):
    """Why a play is not allowed."""

    NO_CARDS = "no_cards"
    """No card is put down."""
    UNKNOWN_PILE = "unknown_pile"
    """A pile is named that is not on the table."""
    CARD_TWICE = "card_twice"
    """The same card is put down twice."""
    CARD_ON_TABLE = "card_on_table"
    """A card put down already lies on top of a pile."""
    NOT_IN_HAND = "not_in_hand"
    """A card put down is not in the player's hand."""
    SEVERAL_CARDS = "several_cards"
    """Several cards are put down without a bull card."""
    TOO_MANY_PILES = "too_many_piles"
    """Cards go on more piles than the player has bull cards (one pile without)."""
    TOO_FAR = "too_far"
    """A card is not 1 to 10 above the top card its pile had before the play."""
    WRONG_ORDER = "wrong_order"
    """The cards on a pile are not put down in ascending order (highest on top)."""


@dataclass(frozen=True, slots=True)
class PlayCheck:
    """The verdict on a play: legal, or the first problem found.

    ``template`` and ``params`` explain the problem in English (the app
    translates the template); ``tops`` are the piles' top cards after a legal
    play, the unchanged top cards otherwise.
    """

    problem: PlayProblem | None
    template: str
    params: Mapping[str, object]
    tops: tuple[int, ...]

    @property
    def legal(self) -> bool:
        """Whether the play is allowed."""
        return self.problem is None

    @property
    def message(self) -> str:
        """The explanation in English."""
        return self.template.format(**self.params)


def _verdict(
    problem: PlayProblem | None, tops: tuple[int, ...], template: str, **params: object
) -> PlayCheck:
    return PlayCheck(problem, template, MappingProxyType(dict(params)), tops)


def check_play(
    tops: Sequence[int],
    plays: Mapping[int, Sequence[int]],
    bull_cards: int,
    *,
    hand: Iterable[int] | None = None,
) -> PlayCheck:
    """Whether putting down ``plays`` (pile index → cards in the order put down) is legal.

    ``tops`` are the piles' top cards before the play, ``bull_cards`` the bull
    cards the player holds. Without a bull card exactly one card goes on one
    pile; with k bull cards several cards may go on each of up to k piles. Every
    card must lie 1 to 10 above the top card its pile had before the play, and
    the cards of a pile are put down in ascending (wrap-around) order, highest
    on top. With ``hand`` given, every card must be in it.

    Malformed input (a card outside 1–100, a negative bull card count, the
    same top card twice) raises :class:`scoring.ScoringError`.

    >>> check_play([33], {0: [34, 40, 43]}, 1).tops
    (43,)
    >>> check_play([33], {0: [34, 40]}, 0).message
    'Without a bull card you put down exactly one card.'
    >>> check_play([96, 20], {0: [99, 3], 1: [25]}, 1).problem
    <PlayProblem.TOO_MANY_PILES: 'too_many_piles'>
    >>> check_play([96], {0: [3, 99]}, 1).message
    'Put the cards on the pile with 96 in ascending order: 99 before 3.'
    """
    held = None if hand is None else frozenset(_cards(hand))
    return _judge(_tops(tops), plays, _count(bull_cards), held)


def _judge(
    before: tuple[Card, ...], plays: Mapping[int, Sequence[int]], bulls: int,
    held: frozenset[Card] | None,
) -> PlayCheck:
    """:func:`check_play` on checked tops, bull card count and hand."""
    if not isinstance(plays, Mapping):
        raise error("plays_type", "A play names, per pile, the cards put on it.")
    on_table = frozenset(before)
    chosen: dict[int, tuple[Card, ...]] = {}
    seen: set[Card] = set()
    for pile, raw in plays.items():
        if isinstance(pile, bool) or not isinstance(pile, int) or not 0 <= pile < len(before):
            return _verdict(PlayProblem.UNKNOWN_PILE, before,
                            "There is no pile {pile} on the table.", pile=pile)
        if isinstance(raw, (str, bytes)) or not isinstance(raw, Iterable):
            raise error("cards_type", "Cards must be given as a list of card numbers.")
        cards = tuple(_card(card) for card in raw)
        for card in cards:
            if card in seen:
                return _verdict(PlayProblem.CARD_TWICE, before,
                                "Card {card} is put down twice.", card=card)
            seen.add(card)
            if card in on_table:
                return _verdict(PlayProblem.CARD_ON_TABLE, before,
                                "Card {card} already lies on the table.", card=card)
            if held is not None and card not in held:
                return _verdict(PlayProblem.NOT_IN_HAND, before,
                                "Card {card} is not in the hand.", card=card)
        if cards:
            chosen[pile] = cards
    if not chosen:
        return _verdict(PlayProblem.NO_CARDS, before, "No card is put down.")
    if bulls == 0 and len(seen) > 1:
        return _verdict(PlayProblem.SEVERAL_CARDS, before,
                        "Without a bull card you put down exactly one card.")
    if len(chosen) > max(bulls, 1):
        return _verdict(
            PlayProblem.TOO_MANY_PILES, before,
            "With {bulls} bull cards you may put cards on at most {most} piles, not {piles}.",
            bulls=bulls, most=max(bulls, 1), piles=len(chosen),
        )
    after = list(before)
    for pile, cards in chosen.items():
        top = before[pile]
        for card in cards:
            if not can_play(top, card):
                return _verdict(
                    PlayProblem.TOO_FAR, before,
                    "Card {card} does not fit on the pile with {top}: it must be 1 to 10 above.",
                    card=card, top=top,
                )
        for earlier, later in pairwise(cards):
            if distance(top, later) < distance(top, earlier):
                return _verdict(
                    PlayProblem.WRONG_ORDER, before,
                    "Put the cards on the pile with {top} in ascending order: "
                    "{first} before {then}.",
                    top=top, first=later, then=earlier,
                )
        after[pile] = cards[-1]
    return _verdict(None, tuple(after), "The play is allowed.")


def must_take(tops: Sequence[int], hand: Iterable[int]) -> bool:
    """Whether no card of ``hand`` fits on any pile, so the player must take a pile.

    >>> must_take([5, 19], [50, 80])
    True
    >>> must_take([5, 19], [50, 12])
    False
    """
    checked = _tops(tops)
    cards = _cards(hand)
    if not cards:
        raise error("hand_empty", "A player without cards has gone out: the deal is over.")
    for card in cards:
        if card in checked:
            raise error("card_on_table", "Card {card} cannot be both in the hand and on the table.",
                        card=card)
    return not any(can_play(top, card) for top in checked for card in cards)


# ---------------------------------------------------------------------------
# Bull cards ("Bullenkarten")
# ---------------------------------------------------------------------------


def _steal_from(held: Sequence[int], taker: int) -> list[int]:
    """Seats the taker may steal from: the players holding the most bull cards,
    counted over everybody (the taker included), other than the taker.

    Empty when nobody holds a bull card, and when the taker alone holds the
    most: then there is nobody to steal from.
    """
    most = max(held, default=0)
    if most == 0:
        return []
    return [seat for seat, count in enumerate(held) if seat != taker and count == most]


@dataclass(frozen=True, slots=True)
class BullCards:
    """Who holds how many of the 10 bull cards in the current deal; the rest is in the supply.

    A bull card is not spent by using it: it stays with its holder until the
    deal ends (or someone steals it). Every deal starts with all 10 in the
    supply (:meth:`start`).

    >>> state = BullCards.start(["Anna", "Ben"])
    >>> state.supply, dict(state.holders)
    (10, {'Anna': 0, 'Ben': 0})
    """

    supply: int
    holders: Mapping[str, int]
    """Bull cards per player, in seat order."""

    def __post_init__(self) -> None:
        if not isinstance(self.holders, Mapping) or not self.holders:
            raise error("bull_holders", "The bull card tracker needs the players.")
        counts = {}
        for player, count in self.holders.items():
            if not isinstance(player, str) or not player:
                raise error("player_name", "Every entry needs a player name.")
            counts[player] = _count(count)
        supply = _count(self.supply)
        if supply + sum(counts.values()) != BULL_CARDS:
            raise error(
                "bull_total",
                "There are exactly 10 bull cards, not {total}.",
                total=supply + sum(counts.values()),
            )
        object.__setattr__(self, "holders", MappingProxyType(counts))

    @classmethod
    def start(cls, players: Sequence[str]) -> BullCards:
        """All bull cards in the supply, nobody holds one (the start of every deal)."""
        if isinstance(players, str) or len(set(players)) != len(players):
            raise error("seat_twice", "A player appears twice in the seat order.")
        return cls(BULL_CARDS, {player: 0 for player in players})

    def held(self, player: str) -> int:
        """Bull cards ``player`` holds."""
        if player not in self.holders:
            raise error("unknown_player", "{player} does not play in this deal.", player=player)
        return self.holders[player]

    def reset(self) -> BullCards:
        """The tracker for the next deal: every bull card back in the supply."""
        return BullCards.start(tuple(self.holders))


def steal_candidates(state: BullCards, taker: str) -> tuple[str, ...]:
    """Players ``taker`` may take a bull card from, if one were due now (seat order).

    Only when the supply is empty: then the players holding the most bull
    cards, counted over everybody with the taker included, other than the
    taker (the taker picks one of them). When the taker alone holds the most,
    there is nobody.

    >>> state = BullCards(0, {"Anna": 4, "Ben": 4, "Cem": 2})
    >>> steal_candidates(state, "Cem"), steal_candidates(state, "Anna")
    (('Anna', 'Ben'), ('Ben',))
    >>> steal_candidates(BullCards(0, {"Anna": 6, "Ben": 4}), "Anna")
    ()
    >>> steal_candidates(BullCards.start(["Anna", "Ben"]), "Anna")
    ()
    """
    state.held(taker)
    if state.supply:
        return ()
    players = tuple(state.holders)
    seats = _steal_from(tuple(state.holders.values()), players.index(taker))
    return tuple(players[seat] for seat in seats)


class BullCardSource(Enum):
    """Where the bull card for a pile of 3 or more cards comes from."""

    SUPPLY = "supply"
    """From the supply (it still holds bull cards)."""
    PLAYER = "player"
    """The supply is empty: from the one other player holding the most (the taker may decline)."""
    CHOICE = "choice"
    """The supply is empty and several others tie for the most: the taker chooses one of
    them (or declines)."""
    TAKER_HAS_MOST = "taker_has_most"
    """The supply is empty and the taker alone holds the most: nobody to take one from."""


@dataclass(frozen=True, slots=True)
class BullCardDue:
    """What a pile of 3 or more cards earns the taker now, and why
    (see :func:`bull_card_source`)."""

    source: BullCardSource
    candidates: tuple[str, ...]
    """Whom the bull card may come from (seat order); empty for the supply and for
    :attr:`BullCardSource.TAKER_HAS_MOST`."""
    most: int
    """The most bull cards anybody holds (the taker included)."""
    taker_held: int
    """Bull cards the taker holds."""

    @property
    def taker_among_most(self) -> bool:
        """The taker holds as many as the most (alone, or tied with the candidates)."""
        return self.taker_held == self.most


def bull_card_source(state: BullCards, taker: str) -> BullCardDue:
    """Where a bull card earned by ``taker`` now comes from, with the counts that decide it.

    >>> bull_card_source(BullCards(0, {"Anna": 6, "Ben": 4}), "Anna").source.name
    'TAKER_HAS_MOST'
    >>> due = bull_card_source(BullCards(0, {"Anna": 4, "Ben": 4, "Cem": 2}), "Anna")
    >>> due.source.name, due.candidates, due.taker_among_most
    ('PLAYER', ('Ben',), True)
    >>> bull_card_source(BullCards(0, {"Anna": 4, "Ben": 4, "Cem": 2}), "Cem").source.name
    'CHOICE'
    """
    held = state.held(taker)
    most = max(state.holders.values())
    if state.supply:
        return BullCardDue(BullCardSource.SUPPLY, (), most, held)
    candidates = steal_candidates(state, taker)
    if not candidates:
        source = BullCardSource.TAKER_HAS_MOST
    elif len(candidates) == 1:
        source = BullCardSource.PLAYER
    else:
        source = BullCardSource.CHOICE
    return BullCardDue(source, candidates, most, held)


def take_pile(
    state: BullCards, player: str, pile_size: int, steal_from: str | None = None,
    *, steal: bool = True,
) -> BullCards:
    """The bull cards after ``player`` took a pile of ``pile_size`` cards.

    A pile of 3 or more cards earns a bull card from the supply. When the
    supply is empty, the player *may* take one from the player holding the
    most, counted over everybody with the taker included (see
    :func:`steal_candidates`): among several tied others the taker chooses
    (``steal_from`` must then name one of them; with a single candidate it
    may be left out); ``steal=False`` declines. A smaller pile earns nothing,
    and when the taker alone holds the most there is nothing to take.
    ``steal_from`` is ignored when no choice is to be made from an empty
    supply.

    >>> take_pile(BullCards.start(["Anna", "Ben"]), "Ben", 3).holders["Ben"]
    1
    >>> state = BullCards(0, {"Anna": 4, "Ben": 4, "Cem": 2})
    >>> dict(take_pile(state, "Cem", 5, steal_from="Ben").holders)
    {'Anna': 4, 'Ben': 3, 'Cem': 3}
    >>> take_pile(state, "Cem", 5, steal=False) == state
    True
    >>> take_pile(state, "Cem", 5)
    Traceback (most recent call last):
    ...
    scoring.ScoringError: The supply is empty: choose whom to take a bull card from (Anna, Ben).
    """
    held = state.held(player)
    size = _count(pile_size)
    if size == 0:
        raise error("pile_empty", "A pile holds at least one card.")
    if size > len(CARDS):
        raise error("pile_too_big", "A pile cannot hold {size} cards: there are only 100.",
                    size=size)
    if size < PILE_FOR_BULL_CARD:
        return state
    counts = dict(state.holders)
    if state.supply:
        counts[player] = held + 1
        return BullCards(state.supply - 1, counts)
    candidates = steal_candidates(state, player)
    if not candidates or not steal:
        return state
    if steal_from is None:
        if len(candidates) > 1:
            raise error(
                "steal_choice",
                "The supply is empty: choose whom to take a bull card from ({players}).",
                players=", ".join(candidates),
            )
        steal_from = candidates[0]
    if steal_from not in candidates:
        raise error(
            "steal_not_allowed",
            "A bull card can only be taken from the player with the most ({players}), "
            "not from {player}.",
            players=", ".join(candidates), player=steal_from,
        )
    counts[steal_from] -= 1
    counts[player] = held + 1
    return BullCards(0, counts)


# ---------------------------------------------------------------------------
# The game model
# ---------------------------------------------------------------------------
#
# Public states are frozen dataclasses; underneath, one small mutable core
# (:class:`_Deal`) holds the rules of a deal, with every hand as a bit mask
# (bit ``card - 1``). :func:`apply` copies a state into the core, makes one
# step and freezes the result again. Random games (:func:`random_game`) run
# in :func:`_play_out`, the same rules in one tight loop on a leaner copy of
# the core; the property tests hold it, move by move, to the core's own
# random policy (:meth:`_Deal.random_step`), those moves to
# :func:`legal_actions`, and whole games to the policy played on the public model.

_CARD_LIST = list(CARDS)
_KEY_SLOTS = range(len(CARDS) + 1)
"""One random sort key per card number (slot 0 unused)."""
_ALL = (1 << len(CARDS)) - 1
"""The mask of all 100 cards (bit ``card - 1``)."""
_WINDOW_BITS = (1 << MAX_DISTANCE) - 1
"""A pile's window: bit ``j`` is the card ``j + 1`` above its top card (wrapping after 100)."""
_SINGLES: tuple[tuple[int, ...], ...] = tuple(
    tuple(1 << bit for bit in range(MAX_DISTANCE) if window >> bit & 1)
    for window in range(_WINDOW_BITS + 1)
)
"""Per window, its one-card sub-windows (ascending)."""
_STEPS: tuple[tuple[int, ...], ...] = tuple(
    tuple(bit for bit in range(MAX_DISTANCE) if window >> bit & 1)
    for window in range(_WINDOW_BITS + 1)
)
"""Per window, the distances minus one of its cards, ascending."""
_TAKE_OR_SINGLE: tuple[tuple[int, ...], ...] = tuple((0, *singles) for singles in _SINGLES)
"""Per window, the ways of a pile without a bull card: 0 (take it), then each single card."""
_TAKE_OR_SUBSET: list[tuple[int, ...] | None] = [(0,), *[None] * _WINDOW_BITS]
"""Per window, all its sub-windows: 0 (with a bull card: take the pile), then every
non-empty set of its cards; filled in when first needed (see :func:`_take_or_subset`)."""
_HIGH: tuple[int, ...] = tuple(window.bit_length() for window in range(_WINDOW_BITS + 1))
"""Per window, the distance of its highest card (the new top card after playing it)."""
_WRAP: tuple[Card, ...] = tuple((number - 1) % 100 + 1 for number in range(101 + MAX_DISTANCE))
"""A card number counted on past 100, wrapped back into 1–100."""


def _take_or_subset(window: int) -> tuple[int, ...]:
    """All sub-windows of ``window``: the i-th holds the cards of ``window`` picked by
    the bits of i (its lowest card by bit 0), so the empty one comes first."""
    found = _TAKE_OR_SUBSET[window]
    if found is None:
        low = window & -window
        rest = _take_or_subset(window ^ low)
        found = _TAKE_OR_SUBSET[window] = tuple(
            chain.from_iterable(zip(rest, map(low.__or__, rest), strict=True))
        )
    return found


def _subsets(window: int) -> tuple[int, ...]:
    """The non-empty sub-windows of ``window`` (in the order of :func:`_take_or_subset`)."""
    return _take_or_subset(window)[1:]


@lru_cache(maxsize=1024)
def _plays(pile: int, top: Card, window: int, several: bool) -> tuple[PlayCards, ...]:
    """The plays of the cards of ``window`` on ``pile`` (top card ``top``): every
    non-empty set with a bull card (``several``), else single cards."""
    return tuple(map(PlayCards, repeat(pile), _played_cards(top, window, several)))


@lru_cache(maxsize=1024)
def _played_cards(top: Card, window: int, several: bool) -> tuple[tuple[Card, ...], ...]:
    """The cards of each play of :func:`_plays`, whatever the pile."""
    above = _ABOVE[top]
    return tuple(
        tuple(map(above.__getitem__, _STEPS[played]))
        for played in (_subsets(window) if several else _SINGLES[window])
    )


_ABOVE: tuple[tuple[Card, ...], ...] = tuple(
    tuple((top + step) % 100 + 1 for step in range(MAX_DISTANCE)) for top in range(101)
)
"""Per top card, the cards 1 to 10 above it (wrapping after 100)."""


def _window(hand: int, top: Card) -> int:
    """The cards of ``hand`` that fit on ``top``, as a window (bit j: card top + j + 1)."""
    return ((hand | hand << 100) >> top) & _WINDOW_BITS


_BIT: tuple[int, ...] = (0, *(1 << (card - 1) for card in CARDS))
"""Per card, its bit in a mask."""


def _mask(cards: Iterable[Card]) -> int:
    """The mask of ``cards`` (bit ``card - 1``)."""
    return reduce(or_, map(_BIT.__getitem__, cards), 0)


_BYTE_CARDS: tuple[tuple[tuple[Card, ...], ...], ...] = tuple(
    tuple(
        tuple(8 * index + step + 1 for step in range(8) if byte >> step & 1)
        for byte in range(256)
    )
    for index in range((len(CARDS) + 7) // 8)
)
"""Per byte of a mask (lowest first), per byte value, the cards it holds."""


def _unmask(mask: int) -> tuple[Card, ...]:
    """The cards of a mask, ascending (looked up a byte at a time).

    >>> _unmask(0b1011 | 1 << 99)
    (1, 2, 4, 100)
    """
    return tuple(chain.from_iterable(
        map(getitem, _BYTE_CARDS, mask.to_bytes(len(_BYTE_CARDS), "little"))
    ))


class _Deal:
    """One deal in progress, mutable; the rules of a turn live here.

    Hands are masks (bit ``card - 1``); the cards fitting on a pile are a
    10-bit window above its top card (see :func:`_window`).
    """

    __slots__ = (
        "bull", "draw", "hands", "piles", "supply", "to_move", "tops", "used", "used_count",
    )

    def __init__(
        self, hands: list[int], piles: list[list[Card]], draw: list[Card], bull: list[int],
        supply: int, to_move: int, used: int,
    ) -> None:
        self.hands = hands
        self.piles = piles
        self.tops = list(map(itemgetter(-1), piles))
        self.draw = draw
        """The draw pile, the next card to be turned up LAST (``pop()``)."""
        self.bull = bull
        self.supply = supply
        self.to_move = to_move
        self.used = used
        """Mask of the piles the player to move has put cards on this turn (bull card play)."""
        self.used_count = used.bit_count()

    @classmethod
    def dealt(cls, shuffled: Sequence[Card], players: int, starter: int) -> _Deal:
        hands = [
            _mask(shuffled[HAND_SIZE * seat:HAND_SIZE * (seat + 1)]) for seat in range(players)
        ]
        first = HAND_SIZE * players
        draw = list(shuffled[first + 1:])
        draw.reverse()
        return cls(hands, [[shuffled[first]]], draw, [0] * players, BULL_CARDS, starter, 0)

    def over(self) -> bool:
        """A player has no cards, or nobody can move (no pile left, draw pile empty)."""
        return not self.piles or 0 in self.hands

    def steal_seats(self) -> list[int]:
        """Seats the player to move may steal from if a bull card were due (empty supply):
        the players holding the most, counted over everybody, other than the mover."""
        return [] if self.supply else _steal_from(self.bull, self.to_move)

    def windows(self) -> list[int]:
        """Per pile, the cards of the player to move that may go on it now."""
        hand = self.hands[self.to_move]
        doubled = hand | hand << 100
        windows = [(doubled >> top) & _WINDOW_BITS for top in self.tops]
        used = self.used
        if used:
            for index in range(len(windows)):
                if used >> index & 1:
                    windows[index] = 0
        return windows

    def play(self, pile: int, window: int) -> None:
        """Put the cards of ``window`` (fitting cards of the player to move) on ``pile``."""
        top = self.tops[pile]
        stack = self.piles[pile]
        for step in _STEPS[window]:
            stack.append((top + step) % 100 + 1)
        self.tops[pile] = stack[-1]
        moved = window << top
        self.hands[self.to_move] &= ~(moved | moved >> 100) & _ALL
        self.used |= 1 << pile
        self.used_count += 1
        seat = self.to_move
        if (
            not self.hands[seat]
            or self.bull[seat] <= self.used_count
            or not any(self.windows())
        ):
            self.end_turn()

    def end_turn(self) -> None:
        if self.hands[self.to_move]:
            self.to_move = (self.to_move + 1) % len(self.hands)
        self.used = 0
        self.used_count = 0

    def take(self, pile: int, steal: int | None) -> None:
        """Take ``pile`` into hand; new piles; a bull card (stolen from ``steal`` if due)."""
        seat = self.to_move
        stack = self.piles.pop(pile)
        del self.tops[pile]
        self.hands[seat] |= _mask(stack)
        for _ in range(min(2, len(self.draw))):
            card = self.draw.pop()
            self.piles.append([card])
            self.tops.append(card)
        if len(stack) >= PILE_FOR_BULL_CARD:
            if self.supply:
                self.supply -= 1
                self.bull[seat] += 1
            elif steal is not None:
                self.bull[steal] -= 1
                self.bull[seat] += 1
        self.to_move = (seat + 1) % len(self.hands)

    def choices(self) -> list[list[_Move]]:
        """The random policy's first choice (see :func:`random_game`), each option
        with the moves it offers: together exactly the legal actions, each once.

        At the start of a turn: one option per pile, in table order, holding its
        takes (when taking it earns a bull card with the supply empty and there is
        someone to steal from: one per player to steal from, then one declining;
        else one) and then its plays
        (single cards without a bull card, else every non-empty set of fitting
        cards, in the order of :func:`_subsets`). During a bull card play: one
        option per pile not yet played on that some card fits, holding its plays,
        and last the option of ending the turn.
        """
        windows = self.windows()
        if self.used:
            options: list[list[_Move]] = [
                [(pile, played, None) for played in _subsets(window)]
                for pile, window in enumerate(windows) if window
            ]
            options.append([_END_TURN])
            return options
        steals = self.steal_seats()
        plays = _subsets if self.bull[self.to_move] else _SINGLES.__getitem__
        options = []
        for pile, (window, stack) in enumerate(zip(windows, self.piles, strict=True)):
            takes: list[_Move]
            if len(stack) < PILE_FOR_BULL_CARD or not steals:
                takes = [(pile, 0, None)]
            else:
                takes = [*((pile, 0, seat) for seat in steals), (pile, 0, None)]
            options.append([*takes, *((pile, played, None) for played in plays(window))])
        return options

    def move(self, chosen: _Move) -> None:
        """Make one move of :meth:`choices`."""
        pile, played, steal = chosen
        if pile < 0:
            self.end_turn()
        elif played:
            self.play(pile, played)
        else:
            self.take(pile, steal)

    def random_step(self, rng: random.Random) -> None:
        """One move of the random policy: a first random number picks an option of
        :meth:`choices` (every option equally likely), a second one a move of that
        option (every move equally likely) when it offers more than one."""
        options = self.choices()
        moves = options[int(rng.random() * len(options))]
        self.move(moves[int(rng.random() * len(moves))] if len(moves) > 1 else moves[0])

    def outline(self) -> _Outline:
        """What :func:`_play_out` returns for this deal: every card's place except the
        order within the piles, the bull cards and whose turn it is."""
        return (
            list(self.hands), list(self.tops), list(map(_mask, self.piles)), list(self.draw),
            list(self.bull), self.supply, self.to_move,
        )


_Outline: TypeAlias = tuple[list[int], list[Card], list[int], list[Card], list[int], int, int]
"""A deal without the order of the cards in each pile: hand masks, top cards, pile masks,
draw pile (next card last), bull cards per seat, supply, the seat to move."""


_Move: TypeAlias = tuple[int, int, int | None]
"""One move of the core: (pile, window of the cards put on it or 0 to take it, seat to
steal a bull card from or ``None`` for none); :data:`_END_TURN` ends a bull card play."""
_END_TURN: _Move = (-1, 0, None)

def _steal_table(bull: Sequence[int]) -> list[tuple[int, ...]]:
    """Per seat, the seats it may steal a bull card from (empty supply): the
    players holding the most, counted over everybody, other than the seat
    itself (see :func:`_steal_from`)."""
    most = max(bull)
    if not most:
        return [()] * len(bull)
    if bull.count(most) == 1:  # the common case: one leader, who steals from nobody
        leader = bull.index(most)
        table: list[tuple[int, ...]] = [(leader,)] * len(bull)
        table[leader] = ()
        return table
    leaders = tuple(seat for seat, count in enumerate(bull) if count == most)
    return [
        tuple(other for other in leaders if other != seat) if seat in leaders else leaders
        for seat in range(len(bull))
    ]


_DOUBLE_ALL = (1 << 2 * len(CARDS)) - 1
"""The mask of all 100 cards in a doubled hand (see :func:`_play_out`)."""
_DOUBLE_BIT: tuple[int, ...] = tuple(bit | bit << len(CARDS) for bit in _BIT)
"""Per card, its bits in a doubled hand."""
_FAST_PICKS: list[Sequence[tuple[int, ...]]] = []
"""Per bull cards held, per window, the ways of a pile (see :func:`_fast_picks`)."""


def _fast_picks() -> list[Sequence[tuple[int, ...]]]:
    """Per bull cards held (0–10), per window, the ways of a pile at the start of a turn:
    0 takes it, the others are the cards put down; built once, when first needed."""
    if not _FAST_PICKS:
        with_bull = tuple(map(_take_or_subset, range(_WINDOW_BITS + 1)))
        _FAST_PICKS.extend([_TAKE_OR_SINGLE, *[with_bull] * BULL_CARDS])
    return _FAST_PICKS


def _play_out(deal: _Deal, rng: random.Random) -> _Outline:
    """Random steps until the deal is over: :meth:`_Deal.random_step` in one tight loop.

    The same moves from the same random numbers (a test holds the two
    together), on a leaner copy of ``deal`` (left as it was):

    * a hand is *doubled*: bit ``card - 1`` and bit ``card + 99`` are set, so
      that the window above any top card is one shift away, even past 100;
    * a pile is a doubled mask of its cards and a top card (the order below
      the top does not matter to the game);
    * the draw pile is a list of the pairs turned up together.

    At the start of a turn a step looks at one pile only: its window picks
    the ways of the pile from a table (``_fast_picks``: 0 takes it, the
    others are the cards put down), a second random number one of them. The
    rarer case of a take that may steal a bull card (the supply empty, a pile
    of 3 or more, someone to steal from) lists the steals and the take without
    one before the plays; during a bull card play the piles still open (not
    played on this turn, some card fits) are listed, and after each play only
    those are looked at again, since cards only leave the hand until the turn
    ends.
    """
    hands = [hand | hand << 100 for hand in deal.hands]
    tops = list(deal.tops)
    masks = [mask | mask << 100 for mask in map(_mask, deal.piles)]
    coming = deal.draw[::-1]
    pairs: list[tuple[Card, ...]] = list(zip(coming[::2], coming[1::2], strict=False))
    doubled_masks = list(map(_DOUBLE_BIT.__getitem__, coming))
    pair_masks: list[tuple[int, ...]] = list(
        zip(doubled_masks[::2], doubled_masks[1::2], strict=False)
    )
    if len(coming) % 2:
        pairs.append((coming[-1],))
        pair_masks.append((doubled_masks[-1],))
    pairs.reverse()
    pair_masks.reverse()
    bull = list(deal.bull)
    supply, seat = deal.supply, deal.to_move
    players = len(hands)
    following = (*range(1, players), 0)
    steals_of = _steal_table(bull) if not supply else [()] * players
    still_open: list[int] | None = None
    """During a bull card play: the piles not played on yet that some card still fits."""
    played_on = 0
    """During a bull card play: how many piles the player has put cards on."""
    if deal.used:
        doubled = hands[seat]
        still_open = [
            pile for pile, top in enumerate(tops)
            if not deal.used >> pile & 1 and (doubled >> top) & _WINDOW_BITS
        ]
        played_on = deal.used_count
    uniform = rng.random
    bits = _WINDOW_BITS
    all_cards = _DOUBLE_ALL
    wrap = _WRAP
    high = _HIGH
    picks_for = _fast_picks()
    subsets = picks_for[1]
    big = 2 * PILE_FOR_BULL_CARD
    victim = -1
    """The seat to steal a bull card from, chosen with a take (-1: none)."""
    while tops:
        doubled = hands[seat]
        bulls = bull[seat]
        if still_open is not None:
            # A bull card play goes on: a pile some card still fits, or the end of the turn.
            choice = int(uniform() * (len(still_open) + 1)) if still_open else 0
            if choice == len(still_open):
                still_open = None
                seat = following[seat]
                continue
            pile = still_open[choice]
            top = tops[pile]
            picks = subsets[(doubled >> top) & bits]
            played = picks[1 + int(uniform() * (len(picks) - 1))] if len(picks) > 2 else picks[1]
        else:
            pile = int(uniform() * len(tops))
            top = tops[pile]
            picks = picks_for[bulls][(doubled >> top) & bits]
            steals = steals_of[seat]
            if steals and masks[pile].bit_count() >= big:
                # The supply is empty and there is someone to steal from: one take per
                # player to steal from, one take without stealing, then the plays.
                choice = int(uniform() * (len(steals) + len(picks)))
                if choice < len(steals):
                    victim = steals[choice]
                    played = 0
                else:
                    played = picks[choice - len(steals)]
            else:
                played = picks[int(uniform() * len(picks))] if len(picks) > 1 else 0
        if played:
            moved = played << top
            moved = (moved | moved << 100 | moved >> 100) & all_cards
            doubled ^= moved
            hands[seat] = doubled
            masks[pile] |= moved
            tops[pile] = wrap[top + high[played]]
            if not doubled:
                break
            if bulls > 1:
                # Cards only leave the hand during the play: the piles still open are
                # among those open before, the one just played on no longer.
                if still_open is None:
                    still_open = [
                        other for other, other_top in enumerate(tops)
                        if other != pile and (doubled >> other_top) & bits
                    ]
                    played_on = 1
                    continue
                played_on += 1
                if played_on < bulls:
                    still_open = [
                        other for other in still_open
                        if other != pile and (doubled >> tops[other]) & bits
                    ]
                    continue
                still_open = None
            seat = following[seat]
            continue
        stack = masks.pop(pile)
        del tops[pile]
        hands[seat] = doubled | stack
        if pairs:
            tops += pairs.pop()
            masks += pair_masks.pop()
        if stack.bit_count() >= big:
            if supply:
                supply -= 1
                bull[seat] += 1
                if not supply:
                    steals_of = _steal_table(bull)
            elif victim >= 0:
                bull[victim] -= 1
                bull[seat] += 1
                victim = -1
                steals_of = _steal_table(bull)
        seat = following[seat]
    draw = [card for turned in pairs for card in reversed(turned)]
    return (
        [hand & _ALL for hand in hands], tops, [mask & _ALL for mask in masks], draw, bull,
        supply, seat,
    )


@dataclass(frozen=True, slots=True)
class Table:
    """Every card of a deal in its place, the bull cards, and whose turn it is.

    Seats are indices into :attr:`GameState.players`. A deal is over when a
    hand is empty, or when no pile is left (then the draw pile is empty too
    and every card is in a hand: see :func:`start_game`).
    """

    hands: tuple[tuple[Card, ...], ...]
    """Each seat's hand, ascending."""
    piles: tuple[Pile, ...]
    """The discard piles in the order they were laid out, each bottom first."""
    draw: tuple[Card, ...]
    """The face-down draw pile, the next card to be turned up first."""
    bull_cards: tuple[int, ...]
    """Bull cards each seat holds."""
    supply: int
    """Bull cards left in the supply."""
    to_move: int
    """The seat whose turn it is (at the end of a deal: who went out, or who could not move)."""
    piles_played: tuple[int, ...] = ()
    """Piles the player to move has already put cards on this turn (a bull card play
    in progress); empty at the start of a turn."""

    def __post_init__(self) -> None:
        places = [*(card for hand in self.hands for card in hand),
                  *(card for pile in self.piles for card in pile), *self.draw]
        if set(map(type, places)) != {int} or sorted(places) != _CARD_LIST:
            self._explain(places)
        if any(not pile for pile in self.piles):
            raise error("pile_empty", "A pile holds at least one card.")
        if any(list(hand) != sorted(hand) for hand in self.hands):
            raise error("hand_unsorted", "Hand cards are kept in ascending order.")
        if len(self.bull_cards) != len(self.hands):
            raise error("bull_holders", "The bull card tracker needs the players.")
        held = sum(_count(count) for count in self.bull_cards)
        if held + _count(self.supply) != BULL_CARDS:
            raise error("bull_total", "There are exactly 10 bull cards, not {total}.",
                        total=held + self.supply)
        if not 0 <= self.to_move < len(self.hands):
            raise error("unknown_seat", "There is no seat {seat} at this table.",
                        seat=self.to_move)
        for pile in self.piles_played:
            if not 0 <= pile < len(self.piles):
                raise error("unknown_pile", "There is no pile {pile} on the table.", pile=pile)

    @staticmethod
    def _explain(places: Sequence[object]) -> None:
        """Raise the error for cards that are not each in exactly one place."""
        _cards(places)
        if len(places) != len(CARDS):
            raise error("cards_missing",
                        "Every card 1 to 100 lies somewhere in a deal; {count} are missing.",
                        count=len(CARDS) - len(places))

    @property
    def tops(self) -> tuple[Card, ...]:
        """The top card of each pile."""
        return tuple(map(itemgetter(-1), self.piles))

    @property
    def over(self) -> bool:
        """Whether the deal has ended."""
        return not self.piles or () in self.hands

    def _core(self) -> _Deal:
        return _Deal(
            list(map(_mask, self.hands)), list(map(list, self.piles)),
            list(reversed(self.draw)), list(self.bull_cards), self.supply, self.to_move,
            _mask(pile + 1 for pile in self.piles_played) if self.piles_played else 0,
        )

    @classmethod
    def _of(cls, core: _Deal, before: Table | None = None, masks: list[int] | None = None) -> Table:
        """The frozen table of ``core``.

        Hands whose mask is still ``masks[seat]`` (the masks of ``before``)
        are reused. The core only ever holds consistent deals, so the checks
        of :meth:`__post_init__` are skipped here (the property tests check
        every card's place at every step instead): they would double the cost
        of a step.
        """
        if before is None or masks is None:
            hands = tuple(_unmask(hand) for hand in core.hands)
        else:
            hands = tuple(
                old if mask == hand else _unmask(hand)
                for old, mask, hand in zip(before.hands, masks, core.hands, strict=True)
            )
        table = object.__new__(cls)
        for name, value in (
            ("hands", hands),
            ("piles", tuple(map(tuple, core.piles))),
            ("draw", tuple(reversed(core.draw))),
            ("bull_cards", tuple(core.bull)),
            ("supply", core.supply),
            ("to_move", core.to_move),
            ("piles_played",
             tuple(card - 1 for card in _unmask(core.used)) if core.used else ()),
        ):
            object.__setattr__(table, name, value)
        return table


@dataclass(frozen=True, slots=True)
class PlayCards:
    """Put ``cards`` on pile ``pile``, in this order (ascending from the top card, highest last).

    Without a bull card: exactly one card. With bull cards: several cards per
    pile, on as many piles per turn as bull cards held, one :class:`PlayCards`
    per pile; :class:`EndTurn` stops early.
    """

    pile: int
    cards: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class TakePile:
    """Take pile ``pile`` into hand.

    When it earns a bull card and the supply is empty, ``steal_from`` names the
    player who gives one up (required if several others tie for the most);
    stealing is optional: ``steal=False`` declines.
    """

    pile: int
    steal_from: str | None = None
    steal: bool = True


@dataclass(frozen=True, slots=True)
class EndTurn:
    """Stop a bull card play after at least one pile, leaving further piles alone."""


Action: TypeAlias = PlayCards | TakePile | EndTurn
"""One step of the game: each turn is one take, or one or more :class:`PlayCards`."""


class Phase(Enum):
    """Where the game stands."""

    PLAYING = "playing"
    """A deal is in progress: :func:`legal_actions` lists the moves."""
    DEAL_OVER = "deal_over"
    """A deal has ended and another follows: call :func:`start_next_deal`."""
    GAME_OVER = "game_over"
    """All deals are played: :attr:`GameState.totals` is final."""


@dataclass(frozen=True, slots=True)
class DealResult:
    """How a deal ended: what each player records, and the minus points the model counted."""

    entries: Mapping[str, Entry]
    scores: Mapping[str, int]
    went_out: str | None
    """Who played their last card; ``None`` when nobody could move any more."""


@dataclass(frozen=True, slots=True)
class GameState:
    """A whole game of 11 nimmt!: the players, the deal on the table, the finished deals."""

    players: tuple[str, ...]
    """The players in seat order (play goes round in this order)."""
    deck: Deck
    starter: int
    """The seat that began the current deal."""
    table: Table
    results: tuple[DealResult, ...] = ()
    """The finished deals, first to last (the current one included once it is over)."""

    def __post_init__(self) -> None:
        _players(self.players)
        if len(self.table.hands) != len(self.players):
            raise error("table_players", "The table has {hands} hands for {players} players.",
                        hands=len(self.table.hands), players=len(self.players))
        if not 0 <= self.starter < len(self.players):
            raise error("unknown_seat", "There is no seat {seat} at this table.",
                        seat=self.starter)
        if len(self.results) > len(self.players):
            raise error("too_many_deals", "A match of {players} players has {players} deals.",
                        players=len(self.players))

    @property
    def deal_number(self) -> int:
        """The current deal, counted from 1."""
        return len(self.results) + (0 if self.table.over else 1)

    @property
    def phase(self) -> Phase:
        if not self.table.over:
            return Phase.PLAYING
        if len(self.results) < deals(len(self.players)):
            return Phase.DEAL_OVER
        return Phase.GAME_OVER

    @property
    def totals(self) -> dict[str, int]:
        """Minus points per player over the finished deals."""
        return {
            player: sum(result.scores[player] for result in self.results)
            for player in self.players
        }

    @property
    def bull_tracker(self) -> BullCards:
        """The bull cards of the current deal, by player name."""
        return BullCards(self.table.supply, dict(zip(self.players, self.table.bull_cards,
                                                     strict=True)))


def _shuffled(shuffled: Sequence[int]) -> tuple[Card, ...]:
    order = _cards(shuffled)
    if len(order) != len(CARDS):
        raise error("deck_incomplete", "A shuffled deck holds all 100 cards, not {count}.",
                    count=len(order))
    return order


def start_game(
    players: Sequence[str],
    shuffled: Sequence[int],
    *,
    deck: Deck = _STANDARD,
    starter: str | None = None,
) -> GameState:
    """Deal the first deal from ``shuffled`` (all 100 cards in the order they are dealt).

    Seat by seat, each player gets the next 10 cards; the next card is the
    first discard pile, the rest the draw pile (in order). ``starter`` begins
    (the rulebook: the youngest player; default: the first seat).

    Decisions beyond the rulebook, and why the game always ends:

    * When fewer than two cards are left to turn up after a take, as many as
      are left are turned up (rules file, "Decisions").
    * When the last pile is taken and the draw pile is empty, every card is in
      a hand: the next player can neither play nor take, so the deal ends
      there and every player scores the Hornochsen in hand (nobody went out).
    * Termination: let D be the cards in the draw pile and P the piles; each
      take lowers 2·D + P by at least 1, plays leave it alone, so a deal has at
      most 2·(99 − 10·players) + 1 takes. Between two takes every play step
      puts at least one card down, so at most 100 play steps (and as many
      :class:`EndTurn`) follow each other. Every deal, so every game, ends.

    >>> game = start_game(["Anna", "Ben"], range(1, 101))
    >>> game.table.hands[1], game.table.tops, len(game.table.draw)
    ((11, 12, 13, 14, 15, 16, 17, 18, 19, 20), (21,), 79)
    """
    names = _players(players)
    seat = 0 if starter is None else _seat(names, starter)
    core = _Deal.dealt(_shuffled(shuffled), len(names), seat)
    return GameState(names, deck, seat, Table._of(core))


def _players(players: Sequence[str]) -> tuple[str, ...]:
    if isinstance(players, str) or not isinstance(players, Sequence):
        raise error("seat_order", "The seat order must list the players.")
    names = tuple(players)
    _INFO.check_players(len(names))
    if any(not isinstance(name, str) or not name for name in names):
        raise error("player_name", "Every entry needs a player name.")
    if len(set(names)) != len(names):
        raise error("seat_twice", "A player appears twice in the seat order.")
    return names


def _seat(players: tuple[str, ...], player: str) -> int:
    if player not in players:
        raise error("unknown_player", "{player} does not play in this deal.", player=player)
    return players.index(player)


def start_next_deal(state: GameState, shuffled: Sequence[int]) -> GameState:
    """Deal the next deal from ``shuffled``; the player with the most minus points of the
    last deal begins (ties: see :func:`next_starter`); bull cards go back to the supply.

    >>> game = start_game(["Anna", "Ben"], range(1, 101))
    >>> start_next_deal(game, range(1, 101))
    Traceback (most recent call last):
    ...
    scoring.ScoringError: The deal is still being played.
    """
    if state.phase is Phase.PLAYING:
        raise error("deal_running", "The deal is still being played.")
    if state.phase is Phase.GAME_OVER:
        raise error("game_over", "The match is over: all {deals} deals are played.",
                    deals=len(state.results))
    seat = _seat(state.players, next_starter(state.results[-1].scores, state.players))
    core = _Deal.dealt(_shuffled(shuffled), len(state.players), seat)
    return GameState(state.players, state.deck, seat, Table._of(core), state.results)


def legal_actions(state: GameState) -> tuple[Action, ...]:
    """Every action the player to move may take now (none once the deal is over).

    Plays first (pile by pile; with bull cards every non-empty set of fitting
    cards), then takes (one per pile; for a pile that earns a bull card with
    the supply empty and someone to steal from, one per player to steal from
    and one declining), then :class:`EndTurn` during a bull card play.

    >>> order = [*range(25, 45), 21, *range(1, 21), *range(22, 25), *range(45, 101)]
    >>> game = start_game(["Anna", "Ben"], order)
    >>> game.table.hands[0], game.table.tops
    ((25, 26, 27, 28, 29, 30, 31, 32, 33, 34), (21,))
    >>> for action in legal_actions(game):
    ...     print(action)
    PlayCards(pile=0, cards=(25,))
    PlayCards(pile=0, cards=(26,))
    PlayCards(pile=0, cards=(27,))
    PlayCards(pile=0, cards=(28,))
    PlayCards(pile=0, cards=(29,))
    PlayCards(pile=0, cards=(30,))
    PlayCards(pile=0, cards=(31,))
    TakePile(pile=0, steal_from=None, steal=True)
    """
    table = state.table
    if table.over:
        return ()
    seat = table.to_move
    hand = _mask(table.hands[seat])
    doubled = hand | hand << 100
    several = table.bull_cards[seat] > 0
    played = table.piles_played
    actions: list[Action] = []
    for index, pile in enumerate(table.piles):
        top = pile[-1]
        window = (doubled >> top) & _WINDOW_BITS
        if window and index not in played:
            actions.extend(_plays(index, top, window, several))
    if table.piles_played:
        actions.append(EndTurn())
        return tuple(actions)
    steals = [] if table.supply else [
        state.players[other] for other in _steal_from(table.bull_cards, seat)
    ]
    if not steals:
        actions.extend(_takes(len(table.piles)))
        return tuple(actions)
    for index, pile in enumerate(table.piles):
        if len(pile) >= PILE_FOR_BULL_CARD:
            actions.extend(TakePile(index, other) for other in steals)
            actions.append(TakePile(index, steal=False))
        else:
            actions.append(TakePile(index))
    return tuple(actions)


@lru_cache(maxsize=128)
def _takes(piles: int) -> tuple[TakePile, ...]:
    """Taking any one of ``piles`` piles, with no bull card to steal."""
    return tuple(TakePile(index) for index in range(piles))


def apply(state: GameState, action: Action) -> GameState:
    """The game after the player to move takes ``action`` (checked against the rules).

    >>> order = [*range(25, 45), 21, *range(1, 21), *range(22, 25), *range(45, 101)]
    >>> game = apply(start_game(["Anna", "Ben"], order), PlayCards(0, (30,)))
    >>> game.table.tops, game.table.to_move
    ((30,), 1)
    >>> apply(game, PlayCards(0, (41,)))
    Traceback (most recent call last):
    ...
    scoring.ScoringError: Card 41 does not fit on the pile with 30: it must be 1 to 10 above.
    """
    table = state.table
    if table.over:
        raise error("deal_over", "The deal is over: nobody is to move.")
    core = table._core()
    masks = list(core.hands)
    seat = table.to_move
    if isinstance(action, PlayCards):
        pile = action.pile
        if isinstance(pile, int) and pile in table.piles_played:
            raise error("pile_used", "Cards already went on pile {pile} this turn.", pile=pile)
        bulls = table.bull_cards[seat]
        if table.piles_played and len(table.piles_played) >= bulls:
            raise error(
                "bull_cards_used",
                "With {bulls} bull cards you may put cards on at most {most} piles, not {piles}.",
                bulls=bulls, most=max(bulls, 1), piles=len(table.piles_played) + 1,
            )
        verdict = _judge(table.tops, {pile: action.cards}, table.bull_cards[seat],
                         frozenset(table.hands[seat]))
        if verdict.problem is not None:
            raise ScoringError(verdict.message, code=verdict.problem.value,
                               template=verdict.template, **verdict.params)
        core.play(pile, _window(_mask(action.cards), table.tops[pile]))
    elif isinstance(action, TakePile):
        if table.piles_played:
            raise error("take_after_play", "You already put cards down this turn: no pile to take.")
        pile = action.pile
        if isinstance(pile, bool) or not isinstance(pile, int) or not 0 <= pile < len(table.piles):
            raise error("unknown_pile", "There is no pile {pile} on the table.", pile=pile)
        if not isinstance(action.steal, bool):
            raise error("steal_type", "Say whether a bull card is taken from another player.")
        if not action.steal and action.steal_from is not None:
            raise error("steal_declined",
                        "A declined steal names nobody to take a bull card from.")
        steal: int | None = None
        if len(table.piles[pile]) >= PILE_FOR_BULL_CARD and not table.supply:
            tracker = take_pile(state.bull_tracker, state.players[seat], len(table.piles[pile]),
                                action.steal_from, steal=action.steal)
            losers = [
                other for other, player in enumerate(state.players)
                if tracker.holders[player] < table.bull_cards[other]
            ]
            steal = losers[0] if losers else None
        core.take(pile, steal)
    elif isinstance(action, EndTurn):
        if not table.piles_played:
            raise error("end_without_play", "Play a card or take a pile before ending the turn.")
        core.end_turn()
    else:
        raise error("action_type", "Unknown action {action!r}.", action=action)
    after = Table._of(core, table, masks)
    results = state.results
    if after.over:
        results = (*results, _result(state.players, state.deck, after))
    # The players, deck and starter were checked when ``state`` was built, the
    # table is the core's own (see Table._of): no second round of checks.
    following = object.__new__(GameState)
    for name, value in (("players", state.players), ("deck", state.deck),
                        ("starter", state.starter), ("table", after), ("results", results)):
        object.__setattr__(following, name, value)
    return following


def _result(players: tuple[str, ...], deck: Deck, table: Table) -> DealResult:
    """The end of a deal: Hornochsen in every hand, and what each player records."""
    values = deck.values
    scores = {
        player: sum(values[card] for card in hand)
        for player, hand in zip(players, table.hands, strict=True)
    }
    out = next((player for player, hand in zip(players, table.hands, strict=True) if not hand),
               None)
    entries = {
        player: Entry(hand=scores[player], hand_cards=hand, went_out=not hand)
        for player, hand in zip(players, table.hands, strict=True)
    }
    return DealResult(MappingProxyType(entries), MappingProxyType(scores), out)


def _shuffle(uniform: Callable[[], float]) -> list[Card]:
    """The 100 cards in a random order: sorted by one random key per card number
    (``len(CARDS) + 1`` keys, slot 0 unused), as :func:`random_game` deals them."""
    keys = [uniform() for _ in _KEY_SLOTS]
    return sorted(CARDS, key=keys.__getitem__)


def random_game(
    players: int, rng: random.Random, *, deck: Deck = _STANDARD
) -> SimulatedGame:
    """A complete game of random legal moves, played through the rules of the game model.

    The random policy (not uniform over all legal actions: that would mean
    counting every pile's plays at every step) picks in two stages:

    * at the start of a turn, first a pile, every pile on the table equally
      likely (each offers at least a take), then one of the legal actions on
      that pile, all equally likely: taking it (when it earns a bull card with
      the supply empty and someone to steal from: once per player to steal
      from and once without stealing) or
      putting cards on it (a single card without a bull card; with one, any
      non-empty set of its fitting cards);
    * during a bull card play, first one of the piles not yet played on that
      some hand card still fits, or ending the turn, all equally likely, then
      one of the plays on that pile, all equally likely (with no such pile
      left, the turn is over without a choice).

    Every legal action can happen, but piles are taken more often than a
    uniform pick would take them, so fewer deals end with a player going out.
    Each stage takes ``int(rng.random() * n)``
    of its ``n`` options; the second stage draws only when there are at least
    two. Each deal is shuffled with one ``rng.random()`` key per card (and one
    spare). The moves are made in a lean loop (:func:`_play_out`) that the
    property tests hold, move by move, to the same policy played on the
    public model (:func:`legal_actions`, :func:`apply`); returns each deal's
    entries and the model's own totals.

    >>> game = random_game(3, random.Random(7))
    >>> len(game.deals), sorted(game.totals) == ["P1", "P2", "P3"]
    (3, True)
    """
    names = player_names(players)
    count = deals(players)
    on_card = deck.values.__getitem__
    totals = dict.fromkeys(names, 0)
    uniform = rng.random
    recorded: list[Mapping[str, Entry]] = []
    starter = 0
    for _ in range(count):
        core = _Deal.dealt(_shuffle(uniform), players, starter)
        hands = _play_out(core, rng)[0]
        entries: dict[str, Entry] = {}
        most = -1
        for seat, (player, hand) in enumerate(zip(names, hands, strict=True)):
            cards = _unmask(hand)
            score = sum(map(on_card, cards))
            entries[player] = Entry(hand=score, hand_cards=cards, went_out=not hand)
            totals[player] += score
            if score > most:
                most, starter = score, seat
        recorded.append(entries)
    return SimulatedGame(names, tuple(recorded), totals)

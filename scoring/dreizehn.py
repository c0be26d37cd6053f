"""13 / Dreizehn (Amigo, Reiner Knizia): keep each target at 13 or below.

Players put one card per turn on one of three targets (yellow, green, blue).
A coloured card goes only on the target of its colour, a red 4 ("fiese Vier")
on any target. Whoever pushes a target's total above 13 takes the cards that
were there; the card just played stays as the target's only card. At the end
of a deal, the player with strictly the most cards of a colour is spared
those; every other coloured card costs 1 minus point, every red 4 costs 2.

Colour keys: ``"yellow"``, ``"green"``, ``"blue"`` (:data:`COLOURS`) and
``"red"`` (:data:`RED`) for the red 4s.

>>> may_place("red", "green"), may_place("yellow", "green")
(True, False)
>>> place([5, 7], 2)
((2,), (5, 7))
>>> deal_scores({"Anna": {"yellow": 4, "red": 1}, "Ben": {"yellow": 2}, "Cem": {}})
{'Anna': 2, 'Ben': 2, 'Cem': 0}
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import Enum
from functools import cache
from operator import attrgetter
from types import MappingProxyType
from typing import TypeAlias

from scoring import GAMES, error
from scoring.common import Breakdown, ScorePart, SimulatedGame, player_names

__all__ = [
    "CARD_COLOURS",
    "COLOURED_VALUES",
    "COLOURS",
    "DECK_SIZE",
    "HAND_SIZE",
    "LIMIT",
    "MAX_STEPS",
    "PER_COLOUR",
    "RED",
    "RED_COUNT",
    "RED_PENALTY",
    "RED_VALUE",
    "SYNTHETIC_VALUE_COUNTS",
    "TARGETS",
    "Action",
    "Card",
    "Colour",
    "Entry",
    "Match",
    "PlaceCard",
    "Play",
    "State",
    "Target",
    "Variant",
    "Verdict",
    "apply",
    "build_deck",
    "check_play",
    "check_target",
    "deal_count",
    "deal_entries",
    "deal_scores",
    "dealer",
    "deals",
    "entry_from_dict",
    "entry_to_dict",
    "explain_deal",
    "final_scores",
    "legal_actions",
    "may_place",
    "may_place_variant",
    "new_game",
    "place",
    "random_game",
    "score_deal",
    "shuffled_decks",
    "start_player",
    "validate_deal",
]

SLUG = "dreizehn"


Colour: TypeAlias = str
"""A colour key: one of :data:`CARD_COLOURS`."""

COLOURS: tuple[str, ...] = ("yellow", "green", "blue")
"""The three colours of the number cards and of the targets."""

RED = "red"
"""The colour key of the red 4s ("fiese Vieren")."""

CARD_COLOURS: tuple[str, ...] = (*COLOURS, RED)
"""Every colour a card may have."""

PER_COLOUR = 14
"""Number cards per colour (yellow, green, blue)."""

RED_COUNT = 8
"""Red 4s in the box."""

RED_VALUE = 4
"""The value of a red 4."""

COLOURED_VALUES: tuple[int, ...] = (1, 2, 5, 7)
"""The values the yellow, green and blue cards show (how many of each is not known)."""

LIMIT = 13
"""A target whose total exceeds this is taken."""

RED_PENALTY = 2
"""Minus points per red 4, always."""

HAND_SIZE = 5
"""Hand cards at the start of a deal and after every draw."""


# ------------------------------------------------------------------ checking input


def _check_colour(value: object, *, allow_red: bool) -> str:
    """A card's colour (a target's colour when ``allow_red`` is false)."""
    if isinstance(value, str) and value in (CARD_COLOURS if allow_red else COLOURS):
        return value
    if allow_red:
        raise error(
            "card_colour",
            "There is no card colour {colour!r}: choose one of {choices}.",
            colour=value,
            choices=", ".join(CARD_COLOURS),
        )
    raise error(
        "target_colour",
        "There is no target colour {colour!r}: choose one of {choices}.",
        colour=value,
        choices=", ".join(COLOURS),
    )


def _check_value(value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or (
        value not in COLOURED_VALUES and value != RED_VALUE
    ):
        raise error(
            "card_value",
            "There is no card with value {value} in 13: cards show 1, 2, 4 (red), 5 or 7.",
            value=value,
        )
    return value


def _check_target_values(values: Iterable[object]) -> tuple[int, ...]:
    if isinstance(values, (str, bytes)) or not isinstance(values, Iterable):
        raise error("target_type", "A target must be given as the values of its cards.")
    target = tuple(_check_value(value) for value in values)
    if len(target) > 1 and sum(target) > LIMIT:
        raise error(
            "target_over",
            "A target cannot hold cards totalling {total}: above 13 it would have been taken.",
            total=sum(target),
        )
    return target


# --------------------------------------------------------------------- the contract


def may_place(card_colour: str, target_colour: str) -> bool:
    """Whether a card of ``card_colour`` may go on the target of ``target_colour``.

    A coloured card goes only on the target of its colour; a red 4 on any.

    >>> may_place("blue", "blue"), may_place("blue", "yellow"), may_place("red", "yellow")
    (True, False, True)
    >>> may_place("blue", "red")
    Traceback (most recent call last):
    ...
    scoring.ScoringError: There is no target colour 'red': choose one of yellow, green, blue.
    """
    card_colour = _check_colour(card_colour, allow_red=True)
    target_colour = _check_colour(target_colour, allow_red=False)
    return card_colour in (RED, target_colour)


def place(target: Sequence[int], card: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Play a card of value ``card`` on a target holding ``target``.

    Returns ``(new_target, taken)``: when the new total exceeds 13 the player
    takes the cards that were there and the played card stays alone;
    a total of exactly 13 is safe.

    >>> place([5, 5, 1], 2)
    ((5, 5, 1, 2), ())
    >>> place([5, 5, 2], 2)
    ((2,), (5, 5, 2))
    >>> place([5, 5, 2], 3)
    Traceback (most recent call last):
    ...
    scoring.ScoringError: There is no card with value 3 in 13: cards show 1, 2, 4 (red), 5 or 7.
    """
    values = _check_target_values(target)
    card = _check_value(card)
    if sum(values) + card > LIMIT:
        return (card,), values
    return (*values, card), ()


def _count(player: str, colour: str, value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise error(
            "entry_type",
            "{player}: the number of {colour} cards must be a whole number, not {value!r}.",
            player=player,
            colour=colour,
            value=value,
        )
    if value < 0:
        raise error(
            "entry_negative",
            "{player}: the number of {colour} cards cannot be negative ({value}).",
            player=player,
            colour=colour,
            value=value,
        )
    return value


def _check_taken(taken: Mapping[str, Mapping[str, int]]) -> dict[str, dict[str, int]]:
    """Per player, a count for every colour key; checks types and the box totals."""
    if not isinstance(taken, Mapping):
        raise error("entries_type", "The taken cards must map each player to their counts.")
    counts: dict[str, dict[str, int]] = {}
    for player, per_colour in taken.items():
        if not isinstance(player, str) or not player.strip():
            raise error("player_name", "Every player needs a name, not {player!r}.", player=player)
        if not isinstance(per_colour, Mapping):
            raise error(
                "entry_type", "{player}: the taken cards must be counted per colour.",
                player=player,
            )
        for key in per_colour:
            if key not in CARD_COLOURS:
                raise error(
                    "colour",
                    "{player}: there is no colour {colour!r}: choose one of {choices}.",
                    player=player,
                    colour=key,
                    choices=", ".join(CARD_COLOURS),
                )
        counts[player] = {
            colour: _count(player, colour, per_colour.get(colour, 0)) for colour in CARD_COLOURS
        }
    taken_in_all = 0
    for colour in CARD_COLOURS:
        total = sum(per_colour[colour] for per_colour in counts.values())
        taken_in_all += total
        if colour == RED and total > RED_COUNT:
            raise error(
                "red_exceeded",
                "{total} red 4s taken in this deal, but there are only 8.",
                total=total,
            )
        if colour != RED and total > PER_COLOUR:
            raise error(
                "colour_exceeded",
                "{total} {colour} cards taken in this deal, but there are only 14.",
                total=total,
                colour=colour,
            )
    if counts and taken_in_all >= DECK_SIZE:
        raise error(
            "deck_taken",
            "All {total} cards are taken in this deal, but the card played last always "
            "stays on its target.",
            total=DECK_SIZE,
        )
    return counts


def deal_scores(taken: Mapping[str, Mapping[str, int]]) -> dict[str, int]:
    """Each player's minus points for one deal, from the cards they took.

    ``taken`` maps a player to their count per colour key (missing = 0).
    Strictly the most cards of a colour score nothing for that colour; on a
    tie for most nobody is spared; every other coloured card costs 1, every
    red 4 costs 2.

    >>> deal_scores({"Anna": {"blue": 5, "green": 3}, "Ben": {"blue": 5, "red": 2}, "Cem": {}})
    {'Anna': 5, 'Ben': 9, 'Cem': 0}
    """
    counts = _check_taken(taken)
    spared: dict[str, str | None] = {}
    for colour in COLOURS:
        ordered = sorted(counts.items(), key=lambda item: -item[1][colour])
        most = ordered[0][1][colour] if ordered else 0
        leaders = [player for player, per_colour in ordered if per_colour[colour] == most]
        spared[colour] = leaders[0] if len(leaders) == 1 and most > 0 else None
    return {
        player: sum(
            per_colour[colour] for colour in COLOURS if spared[colour] != player
        )
        + RED_PENALTY * per_colour[RED]
        for player, per_colour in counts.items()
    }


def deals(players: int) -> int:
    """Deals in a match: every player deals once, twice with exactly three players.

    >>> deals(3), deals(4), deals(6)
    (6, 4, 6)
    """
    GAMES[SLUG].check_players(players)
    return 2 * players if players == 3 else players


def dealer(players: int, first_dealer: int, deal_index: int) -> int:
    """Seat index of the dealer of deal ``deal_index`` (from 0).

    Seats are numbered clockwise; the deal passes clockwise from
    ``first_dealer``.

    >>> [dealer(3, 1, i) for i in range(deals(3))]
    [1, 2, 0, 1, 2, 0]
    """
    count = deals(players)
    if isinstance(first_dealer, bool) or not isinstance(first_dealer, int) or not (
        0 <= first_dealer < players
    ):
        raise error(
            "seat",
            "There is no seat {seat} at a table of {players}.",
            seat=first_dealer,
            players=players,
        )
    if isinstance(deal_index, bool) or not isinstance(deal_index, int) or not (
        0 <= deal_index < count
    ):
        raise error(
            "deal_index",
            "A match of 13 with {players} players has deals 0 to {last}, not {deal}.",
            players=players,
            last=count - 1,
            deal=deal_index,
        )
    return (first_dealer + deal_index) % players


def start_player(players: int, first_dealer: int, deal_index: int) -> int:
    """Seat index of the player who starts deal ``deal_index``: left of the dealer.

    >>> start_player(4, 3, 0), start_player(4, 3, 1)
    (0, 1)
    """
    return (dealer(players, first_dealer, deal_index) + 1) % players


# ----------------------------------------------------- variant and the check page


class Variant(Enum):
    """Which rule gives the targets their colours."""

    FIXED_COLOURS = "fixed"
    """The rulebook: the three targets are yellow, green and blue."""

    COLOUR_BY_FIRST_CARD = "first-card"
    """Variant: a target has no colour until the first coloured card played on it
    fixes it for the deal; each colour may be on only one target."""


@dataclass(frozen=True, slots=True)
class Card:
    """One card of 13: a colour key and a value.

    >>> Card("red", 4), Card("green", 7)
    (Card(colour='red', value=4), Card(colour='green', value=7))
    >>> Card("red", 5)
    Traceback (most recent call last):
    ...
    scoring.ScoringError: A red card is always a 4, not 5.
    """

    colour: str
    value: int
    _kind: int = field(init=False, repr=False, compare=False)
    """0–11 for the coloured cards (colour-major, value-minor), 12 for a red 4."""

    def __post_init__(self) -> None:
        _check_colour(self.colour, allow_red=True)
        if self.colour == RED:
            if isinstance(self.value, bool) or self.value != RED_VALUE:
                raise error("red_value", "A red card is always a 4, not {value}.",
                            value=self.value)
            kind = len(COLOURS) * len(COLOURED_VALUES)
        elif (
            isinstance(self.value, bool)
            or not isinstance(self.value, int)
            or self.value not in COLOURED_VALUES
        ):
            raise error(
                "colour_value",
                "A {colour} card shows 1, 2, 5 or 7, not {value}.",
                colour=self.colour,
                value=self.value,
            )
        else:
            kind = COLOURS.index(self.colour) * len(COLOURED_VALUES) + COLOURED_VALUES.index(
                self.value
            )
        object.__setattr__(self, "_kind", kind)

    def __str__(self) -> str:
        return f"{self.colour} {self.value}"


def may_place_variant(
    card_colour: str,
    target_colour: str | None,
    *,
    variant: Variant = Variant.FIXED_COLOURS,
    colours_elsewhere: Iterable[str] = (),
) -> bool:
    """Whether a card may go on a target, under either variant.

    ``target_colour`` is the target's colour, or ``None`` while it has none
    (only in the colour-by-first-card variant); ``colours_elsewhere`` are the
    colours already fixed on the other targets. A red 4 goes anywhere and
    never fixes a colour.

    >>> v = Variant.COLOUR_BY_FIRST_CARD
    >>> may_place_variant("blue", None, variant=v, colours_elsewhere=["yellow"])
    True
    >>> may_place_variant("blue", None, variant=v, colours_elsewhere=["blue"])
    False
    >>> may_place_variant("blue", "green", variant=v)
    False
    """
    card_colour = _check_colour(card_colour, allow_red=True)
    variant = _check_variant(variant)
    elsewhere = _check_elsewhere(colours_elsewhere, variant)
    if target_colour is None:
        if variant is Variant.FIXED_COLOURS:
            raise error(
                "target_colourless",
                "Every target has its colour unless you play the colour-by-first-card variant.",
            )
        return card_colour == RED or card_colour not in elsewhere
    target_colour = _check_colour(target_colour, allow_red=False)
    if target_colour in elsewhere:
        raise error(
            "colour_twice",
            "The colour {colour} cannot be on two targets.",
            colour=target_colour,
        )
    return card_colour in (RED, target_colour)


def _check_variant(variant: object) -> Variant:
    if not isinstance(variant, Variant):
        raise error("variant", "Unknown variant {variant!r}.", variant=variant)
    return variant


def _check_elsewhere(colours: Iterable[str], variant: Variant) -> frozenset[str]:
    if isinstance(colours, (str, bytes)) or not isinstance(colours, Iterable):
        raise error("colours_type", "The other targets' colours must be a list of colours.")
    listed = [_check_colour(colour, allow_red=False) for colour in colours]
    if len(set(listed)) != len(listed):
        raise error("colour_twice", "A colour cannot be on two targets.")
    if len(listed) > 2:
        raise error("targets_count", "There are only three targets.")
    if variant is Variant.FIXED_COLOURS and listed:
        # With fixed colours the other targets have the other two colours anyway.
        return frozenset()
    return frozenset(listed)


class Verdict(Enum):
    """Whether a card may be played on a target, and why not."""

    ALLOWED = "allowed"
    """The card may go there."""

    WRONG_COLOUR = "wrong_colour"
    """A coloured card only goes on the target of its colour."""

    COLOUR_ELSEWHERE = "colour_elsewhere"
    """Variant: the card's colour is already fixed on another target."""


@dataclass(frozen=True, slots=True)
class Play:
    """The outcome of playing one card on one target, for the check page.

    When the card is not allowed, ``colour``, ``cards`` and ``total`` describe
    the target unchanged and ``taken`` is empty.
    """

    verdict: Verdict
    colour: str | None
    """The target's colour after the play (``None``: still none, variant only)."""
    cards: tuple[Card, ...]
    """The cards on the target after the play."""
    total: int
    """Their total."""
    taken: tuple[Card, ...]
    """The cards the player takes (empty unless the total went above 13)."""

    @property
    def allowed(self) -> bool:
        return self.verdict is Verdict.ALLOWED


def check_target(
    target_colour: str | None,
    cards: Sequence[Card],
    *,
    variant: Variant = Variant.FIXED_COLOURS,
) -> int:
    """The total of a target's ``cards``, if the target can lie like this on the table.

    Every card is a red 4 or of the target's colour (a target without a colour,
    in the variant only, holds red 4s only); two or more cards never total more
    than 13, because the card that goes over stays alone.

    >>> check_target("yellow", [Card("yellow", 7), Card("red", 4)])
    11
    >>> from scoring import ScoringError
    >>> try:
    ...     check_target("yellow", [Card("yellow", 7)] * 2)
    ... except ScoringError as refused:
    ...     print(refused.code, refused.params)
    target_over {'total': 14}
    >>> try:
    ...     check_target("green", [], variant=Variant.COLOUR_BY_FIRST_CARD)
    ... except ScoringError as refused:
    ...     print(refused.code)
    target_empty_coloured
    """
    variant = _check_variant(variant)
    if isinstance(cards, (str, bytes)) or not isinstance(cards, Iterable):
        raise error("target_type", "A target must be given as the cards on it.")
    on_target = tuple(cards)
    for placed in on_target:
        if not isinstance(placed, Card):
            raise error("not_a_card", "{value!r} is not a card of 13.", value=placed)
    if target_colour is None and variant is Variant.FIXED_COLOURS:
        raise error(
            "target_colourless",
            "Every target has its colour unless you play the colour-by-first-card variant.",
        )
    if target_colour is not None:
        _check_colour(target_colour, allow_red=False)
        if variant is Variant.COLOUR_BY_FIRST_CARD and not on_target:
            # The card that went over stays, so a target that has a colour is never empty.
            raise error(
                "target_empty_coloured",
                "In the variant an empty target has no colour yet: the first coloured card "
                "played on it gives it one.",
            )
    for placed in on_target:
        if placed.colour == RED or placed.colour == target_colour:
            continue
        if target_colour is None:
            raise error(
                "target_mixed",
                "A {card_colour} card cannot lie on a target that has no colour yet.",
                card_colour=placed.colour,
            )
        raise error(
            "target_mixed",
            "A {card_colour} card cannot lie on a target of colour {target}.",
            card_colour=placed.colour,
            target=target_colour,
        )
    total = sum(placed.value for placed in on_target)
    if len(on_target) > 1 and total > LIMIT:
        raise error(
            "target_over",
            "A target cannot hold cards totalling {total}: above 13 it would have been taken.",
            total=total,
        )
    return total


def check_play(
    target_colour: str | None,
    cards: Sequence[Card],
    card: Card,
    *,
    variant: Variant = Variant.FIXED_COLOURS,
    colours_elsewhere: Iterable[str] = (),
) -> Play:
    """May ``card`` go on a target with ``target_colour`` and ``cards``; what happens?

    >>> play = check_play("yellow", [Card("yellow", 5), Card("red", 4), Card("yellow", 1),
    ...                              Card("yellow", 2)], Card("yellow", 2))
    >>> play.allowed, play.total, [str(c) for c in play.taken]
    (True, 2, ['yellow 5', 'red 4', 'yellow 1', 'yellow 2'])
    >>> check_play("green", [], Card("blue", 7)).verdict
    <Verdict.WRONG_COLOUR: 'wrong_colour'>
    """
    variant = _check_variant(variant)
    if not isinstance(card, Card):
        raise error("not_a_card", "{value!r} is not a card of 13.", value=card)
    total = check_target(target_colour, cards, variant=variant)
    on_target = tuple(cards)
    elsewhere = _check_elsewhere(colours_elsewhere, variant)
    if not may_place_variant(
        card.colour, target_colour, variant=variant, colours_elsewhere=elsewhere
    ):
        verdict = (
            Verdict.COLOUR_ELSEWHERE
            if target_colour is None and card.colour in elsewhere
            else Verdict.WRONG_COLOUR
        )
        return Play(verdict, target_colour, on_target, total, ())
    colour = target_colour if target_colour is not None or card.colour == RED else card.colour
    if total + card.value > LIMIT:
        return Play(Verdict.ALLOWED, colour, (card,), card.value, on_target)
    return Play(Verdict.ALLOWED, colour, (*on_target, card), total + card.value, ())


# ------------------------------------------------------------ the recording interface


@dataclass(frozen=True, slots=True)
class Entry:
    """What one player took in one deal: cards per colour and red 4s."""

    yellow: int = 0
    green: int = 0
    blue: int = 0
    red: int = 0

    def counts(self) -> dict[str, int]:
        """The counts per colour key.

        >>> Entry(yellow=2, red=1).counts()
        {'yellow': 2, 'green': 0, 'blue': 0, 'red': 1}
        """
        return {"yellow": self.yellow, "green": self.green, "blue": self.blue, "red": self.red}


def deal_count(players: int) -> int:
    """Deals in a match: :func:`deals`.

    >>> deal_count(3), deal_count(5)
    (6, 5)
    """
    return deals(players)


def _entries_counts(entries: Mapping[str, Entry]) -> dict[str, dict[str, int]]:
    if not isinstance(entries, Mapping):
        raise error("entries_type", "The entries must map each player to their entry.")
    GAMES[SLUG].check_players(len(entries))
    taken: dict[str, dict[str, int]] = {}
    for player, entry in entries.items():
        if not isinstance(entry, Entry):
            raise error(
                "entry_type", "{player}: {entry!r} is not an entry of 13.", player=player,
                entry=entry,
            )
        taken[player] = entry.counts()
    return taken


def validate_deal(entries: Mapping[str, Entry]) -> None:
    """Raise :class:`scoring.ScoringError` unless one deal's entries can be true.

    3–6 players, counts non-negative, at most 14 cards of each colour and 8
    red 4s across all players, and at least one card of the deck untaken: the
    card played last always stays on its target, and cards on targets are not
    scored.

    >>> validate_deal({"Anna": Entry(yellow=9), "Ben": Entry(yellow=6), "Cem": Entry()})
    Traceback (most recent call last):
    ...
    scoring.ScoringError: 15 yellow cards taken in this deal, but there are only 14.
    >>> validate_deal({"Anna": Entry(yellow=14, green=14), "Ben": Entry(blue=14),
    ...                "Cem": Entry(red=8)})
    Traceback (most recent call last):
    ...
    scoring.ScoringError: All 50 cards are taken in this deal, but the card played last \
always stays on its target.
    """
    _check_taken(_entries_counts(entries))


def score_deal(entries: Mapping[str, Entry]) -> dict[str, int]:
    """Each player's minus points for one deal (after validation): :func:`deal_scores`.

    >>> score_deal({"Anna": Entry(yellow=3, red=1), "Ben": Entry(yellow=1, blue=2),
    ...             "Cem": Entry(blue=2)})
    {'Anna': 2, 'Ben': 3, 'Cem': 2}
    """
    return deal_scores(_entries_counts(entries))


def explain_deal(entries: Mapping[str, Entry]) -> Breakdown:
    """Validates, then each player's minus points per colour taken: a colour's
    cards count 1 each unless the player has strictly the most of it (then
    ``most``, 0 points; a tie for the most spares nobody, ``tied``); red 4s
    count 2 each. Colours the player took none of are left out.

    >>> parts = explain_deal({"Anna": Entry(blue=5, green=3), "Ben": Entry(blue=5, red=2),
    ...                       "Cem": Entry(green=1)})
    >>> [(p.kind, p.colour, p.count, p.points, p.tied) for p in parts["Anna"]]
    [('most', 'green', 3, 0, False), ('colour', 'blue', 5, 5, True)]
    >>> [(p.kind, p.count, p.points) for p in parts["Ben"]]
    [('colour', 5, 5), ('red', 2, 4)]
    """
    counts = _check_taken(_entries_counts(entries))
    breakdown: Breakdown = {}
    for player, own in counts.items():
        parts: list[ScorePart] = []
        for colour in COLOURS:
            n = own[colour]
            if not n:
                continue
            most = max(other[colour] for other in counts.values())
            holders = sum(1 for other in counts.values() if other[colour] == most)
            if n == most and holders == 1:
                parts.append(ScorePart("most", n, 0, colour=colour))
            else:
                parts.append(ScorePart("colour", n, n, colour=colour, tied=n == most))
        if own[RED]:
            parts.append(ScorePart("red", own[RED], RED_PENALTY * own[RED], colour=RED))
        breakdown[player] = tuple(parts)
    return breakdown


def entry_from_dict(data: Mapping[str, object]) -> Entry:
    """An entry from its JSON form; missing colours mean 0.

    >>> entry_from_dict({"yellow": 3, "red": 1})
    Entry(yellow=3, green=0, blue=0, red=1)
    >>> entry_from_dict({"purple": 1})
    Traceback (most recent call last):
    ...
    scoring.ScoringError: An entry of 13 has no field purple.
    """
    if not isinstance(data, Mapping):
        raise error("entry_type", "An entry of 13 must be given as fields and values.")
    unknown = sorted(str(key) for key in data if key not in CARD_COLOURS)
    if unknown:
        raise error(
            "entry_unknown_field", "An entry of 13 has no field {fields}.",
            fields=", ".join(unknown),
        )
    counts: dict[str, int] = {}
    for colour in CARD_COLOURS:
        value = data.get(colour, 0)
        if isinstance(value, bool) or not isinstance(value, int):
            raise error(
                "entry_type",
                "The number of {colour} cards must be a whole number, not {value!r}.",
                colour=colour,
                value=value,
            )
        if value < 0:
            raise error(
                "entry_negative",
                "The number of {colour} cards cannot be negative ({value}).",
                colour=colour,
                value=value,
            )
        counts[colour] = value
    return Entry(**counts)


def entry_to_dict(entry: Entry) -> dict[str, object]:
    """The JSON-compatible form of an entry.

    >>> entry_to_dict(Entry(green=2, red=1))
    {'yellow': 0, 'green': 2, 'blue': 0, 'red': 1}
    """
    return dict(entry.counts())


# ------------------------------------------------------------------- the game model
#
# A match is deals(players) deals. Each deal uses the 50 cards of the deck in a
# shuffled order fixed when the match starts (so that applying a move stays
# pure); during a deal every card is in exactly one place: a hand, the draw
# pile, a target, or the cards a player has taken. Readings the model follows:
# - The cards are dealt one at a time, starting left of the dealer.
# - A red 4 never fixes a target's colour in the colour-by-first-card variant;
#   a colour fixed on a target stays for the rest of the deal, even after the
#   target has been taken.
# - The player after the current one (clockwise) moves next; a player whose
#   hand is empty is skipped (with 50 cards this does not happen before the
#   deal ends).

SYNTHETIC_VALUE_COUNTS: Mapping[int, int] = MappingProxyType({1: 4, 2: 4, 5: 3, 7: 3})
"""A stand-in for the unknown count per value of each colour (sums to 14)."""

DECK_SIZE = len(COLOURS) * PER_COLOUR + RED_COUNT
"""Cards in the box: 50."""

TARGETS = 3
"""Targets on the table."""

_RED_KIND = len(COLOURS) * len(COLOURED_VALUES)
_CARDS: tuple[Card, ...] = (
    *(Card(colour, value) for colour in COLOURS for value in COLOURED_VALUES),
    Card(RED, RED_VALUE),
)
"""One shared instance per kind of card, indexed by ``Card._kind``."""


def build_deck(
    value_counts: Mapping[int, int] | Mapping[str, Mapping[int, int]] = SYNTHETIC_VALUE_COUNTS,
) -> tuple[Card, ...]:
    """The 50 cards of 13 from a count per value.

    ``value_counts`` maps each value (1, 2, 5, 7) to how many cards of each
    colour show it, or maps a colour key to such a mapping when the colours
    differ. Each colour must have 14 cards; the 8 red 4s are added.

    >>> deck = build_deck({1: 2, 2: 4, 5: 4, 7: 4})
    >>> len(deck), sum(card.colour == "red" for card in deck), sum(c.value for c in deck[:14])
    (50, 8, 58)
    >>> build_deck({1: 4, 2: 4, 5: 4, 7: 4})
    Traceback (most recent call last):
    ...
    scoring.ScoringError: The yellow cards add up to 16, but every colour has 14.
    """
    if not isinstance(value_counts, Mapping):
        raise error("deck_type", "The deck must be given as a count per card value.")
    given: dict[str, object] = {}
    if value_counts and all(isinstance(key, str) for key in value_counts):
        for key in value_counts:
            if key not in COLOURS:
                raise error(
                    "deck_colour",
                    "The deck has no colour {colour!r}: its colours are {choices}.",
                    colour=key,
                    choices=", ".join(COLOURS),
                )
        for colour in COLOURS:
            if colour not in value_counts:
                raise error(
                    "deck_colour_missing", "The deck needs a count per value for {colour}.",
                    colour=colour,
                )
            given[colour] = value_counts[colour]  # type: ignore[index]
    else:
        given = dict.fromkeys(COLOURS, value_counts)
    cards: list[Card] = []
    for colour, counts in given.items():
        if not isinstance(counts, Mapping):
            raise error(
                "deck_type", "The deck needs a count per value for {colour}.", colour=colour
            )
        checked: dict[int, int] = {}
        for value, count in counts.items():
            if isinstance(value, bool) or value not in COLOURED_VALUES:
                raise error(
                    "colour_value", "A {colour} card shows 1, 2, 5 or 7, not {value}.",
                    colour=colour, value=value,
                )
            if isinstance(count, bool) or not isinstance(count, int) or count < 0:
                raise error(
                    "deck_count", "The count of {colour} {value}s must be a whole number "
                    "from 0, not {count!r}.", colour=colour, value=value, count=count,
                )
            checked[value] = count
        total = sum(checked.values())
        if total != PER_COLOUR:
            raise error(
                "deck_colour_total",
                "The {colour} cards add up to {total}, but every colour has 14.",
                colour=colour,
                total=total,
            )
        for value in COLOURED_VALUES:
            cards.extend([_CARDS[Card(colour, value)._kind]] * checked.get(value, 0))
    cards.extend([_CARDS[_RED_KIND]] * RED_COUNT)
    return tuple(cards)


def _check_deck(deck: object) -> tuple[Card, ...]:
    """The deck as shared card instances; 14 cards per colour and 8 red 4s."""
    if isinstance(deck, (str, bytes)) or not isinstance(deck, Iterable):
        raise error("deck_type", "A deck must be given as a list of cards.")
    cards: list[Card] = []
    per_colour = [0] * len(CARD_COLOURS)
    for card in deck:
        if not isinstance(card, Card):
            raise error("not_a_card", "{value!r} is not a card of 13.", value=card)
        cards.append(_CARDS[card._kind])
        per_colour[card._kind // len(COLOURED_VALUES)] += 1
    for colour, count in zip(CARD_COLOURS, per_colour, strict=True):
        expected = RED_COUNT if colour == RED else PER_COLOUR
        if count != expected:
            raise error(
                "deck_colour_count",
                "A deck of 13 has {expected} {colour} cards, not {count}.",
                expected=expected,
                colour=colour,
                count=count,
            )
    return tuple(cards)


@dataclass(frozen=True, slots=True)
class Target:
    """A target ("Zielscheibe"): its colour (``None``: not fixed yet) and its cards."""

    colour: str | None
    cards: tuple[Card, ...] = ()

    @property
    def total(self) -> int:
        """The sum of the values on the target."""
        return sum(card.value for card in self.cards)


@dataclass(frozen=True, slots=True)
class PlaceCard:
    """Put ``card`` from the hand on target ``target`` (0, 1 or 2)."""

    card: Card
    target: int


Action: TypeAlias = PlaceCard
"""The only kind of move in 13."""

_PLACE: tuple[tuple[PlaceCard, ...], ...] = tuple(
    tuple(PlaceCard(card, index) for index in range(TARGETS)) for card in _CARDS
)


@dataclass(frozen=True, slots=True)
class Match:
    """What stays the same through a match of 13."""

    players: tuple[str, ...]
    variant: Variant
    first_dealer: int
    decks: tuple[tuple[Card, ...], ...]
    """The shuffled deck of every deal, top card first."""


@dataclass(frozen=True, slots=True)
class State:
    """A moment of a match of 13.

    ``deal`` is the index of the current deal (from 0); ``pile`` the draw
    pile, top card first; ``taken`` holds, per seat, the cards taken in this
    deal; ``results`` what every player recorded for each finished deal (per
    seat, in seat order), ``totals`` the minus points so far per seat. When
    ``over`` is true, the places show the end of the last deal.
    """

    match: Match
    deal: int
    hands: tuple[tuple[Card, ...], ...]
    pile: tuple[Card, ...]
    targets: tuple[Target, ...]
    taken: tuple[tuple[Card, ...], ...]
    current: int
    results: tuple[tuple[Entry, ...], ...] = ()
    totals: tuple[int, ...] = ()
    over: bool = False

    @property
    def players(self) -> tuple[str, ...]:
        return self.match.players

    @property
    def dealer(self) -> int:
        """Seat index of the current deal's dealer."""
        return dealer(len(self.match.players), self.match.first_dealer, self.deal)

    def cards(self) -> tuple[Card, ...]:
        """Every card of the current deal, from every place."""
        everything: list[Card] = []
        for hand in self.hands:
            everything.extend(hand)
        everything.extend(self.pile)
        for target in self.targets:
            everything.extend(target.cards)
        for stack in self.taken:
            everything.extend(stack)
        return tuple(everything)


_value_of = attrgetter("value")
_kind_of = attrgetter("_kind")


def shuffled_decks(
    deck: Sequence[Card], players: int, rng: random.Random
) -> tuple[tuple[Card, ...], ...]:
    """One independently shuffled copy of ``deck`` for every deal of a match."""
    count = deals(players)
    cards = list(_check_deck(deck))
    decks: list[tuple[Card, ...]] = []
    for _ in range(count):
        rng.shuffle(cards)
        decks.append(tuple(cards))
    return tuple(decks)


def new_game(
    players: Sequence[str],
    decks: Sequence[Sequence[Card]],
    *,
    first_dealer: int = 0,
    variant: Variant = Variant.FIXED_COLOURS,
) -> State:
    """Start a match: ``decks`` holds the shuffled deck of every deal, top card first.

    >>> rng = random.Random(7)
    >>> state = new_game(["Anna", "Ben", "Cem"], shuffled_decks(build_deck(), 3, rng))
    >>> [len(hand) for hand in state.hands], len(state.pile), state.dealer, state.current
    ([5, 5, 5], 35, 0, 1)
    """
    if isinstance(players, str) or not isinstance(players, Sequence):
        raise error("players_type", "The players must be given as a list of names.")
    names = tuple(players)
    count = deals(len(names))
    for name in names:
        if not isinstance(name, str) or not name.strip():
            raise error("player_name", "Every player needs a name, not {player!r}.", player=name)
    if len(set(names)) != len(names):
        raise error("player_twice", "Every player must have a different name.")
    variant = _check_variant(variant)
    dealer(len(names), first_dealer, 0)  # checks the seat
    if isinstance(decks, (str, bytes)) or not isinstance(decks, Sequence):
        raise error("decks_type", "Give one shuffled deck per deal.")
    if len(decks) != count:
        raise error(
            "decks_count",
            "A match of 13 with {players} players has {deals} deals, so it needs {deals} "
            "shuffled decks, not {count}.",
            players=len(names),
            deals=count,
            count=len(decks),
        )
    checked = tuple(_check_deck(deck) for deck in decks)
    kinds = sorted(map(_kind_of, checked[0]))
    if any(sorted(map(_kind_of, deck)) != kinds for deck in checked[1:]):
        raise error("decks_differ", "Every deal must use the same cards.")
    match = Match(names, variant, first_dealer, checked)
    return _state(match, 0, _Table.deal(match, 0), (), (0,) * len(names))


# The rules of a move live in one place, ``_Table``: a lean, mutable picture of
# one deal (cards as kinds 0–12, the pile top card last). The public functions
# copy a frozen State into a fresh table, apply the rules and freeze the result,
# so they stay pure; ``random_game`` runs the same table directly, which is
# what lets the benchmark play hundreds of matches per second.

_VALUES: tuple[int, ...] = tuple(card.value for card in _CARDS)
_COLOUR_INDEX: tuple[int, ...] = tuple(CARD_COLOURS.index(card.colour) for card in _CARDS)
_NO_COLOUR = -1


@cache
def _move_table(colours: tuple[int, ...]) -> tuple[tuple[tuple[int, int], ...], ...]:
    """Per kind of card, its moves ``(kind, target)`` when the targets have ``colours``."""
    table: list[tuple[tuple[int, int], ...]] = []
    for kind in range(len(_CARDS)):
        colour = _COLOUR_INDEX[kind]
        if kind == _RED_KIND:
            table.append(tuple((kind, index) for index in range(TARGETS)))
        elif colour in colours:
            table.append(((kind, colours.index(colour)),))
        else:
            table.append(
                tuple((kind, index) for index, fixed in enumerate(colours) if fixed == _NO_COLOUR)
            )
    return tuple(table)


class _Table:
    """One deal in progress, mutable; the single implementation of a move."""

    __slots__ = ("cards", "colours", "current", "hands", "pile", "table", "taken", "totals")

    def __init__(
        self,
        hands: list[list[int]],
        pile: list[int],
        cards: list[list[int]],
        colours: list[int],
        taken: list[list[int]],
        current: int,
    ) -> None:
        self.hands = hands
        self.pile = pile
        self.cards = cards
        self.totals = [sum(_VALUES[kind] for kind in target) for target in cards]
        self.colours = colours
        self.table = _move_table(tuple(colours))
        self.taken = taken
        self.current = current

    @classmethod
    def deal(cls, match: Match, deal: int) -> _Table:
        """The table right after dealing deal ``deal``: 5 cards each, one at a time,
        starting left of the dealer."""
        count = len(match.players)
        deck = [card._kind for card in match.decks[deal]]
        start = start_player(count, match.first_dealer, deal)
        dealt = HAND_SIZE * count
        hands = [deck[(seat - start) % count : dealt : count] for seat in range(count)]
        pile = deck[dealt:]
        pile.reverse()
        fixed = match.variant is Variant.FIXED_COLOURS
        colours = [0, 1, 2] if fixed else [_NO_COLOUR] * TARGETS
        return cls(hands, pile, [[] for _ in range(TARGETS)], colours,
                   [[] for _ in range(count)], start)

    @classmethod
    def of(cls, state: State) -> _Table:
        """A fresh table showing ``state``."""
        return cls(
            [[card._kind for card in hand] for hand in state.hands],
            [card._kind for card in reversed(state.pile)],
            [[card._kind for card in target.cards] for target in state.targets],
            [
                _NO_COLOUR if target.colour is None else COLOURS.index(target.colour)
                for target in state.targets
            ],
            [[card._kind for card in stack] for stack in state.taken],
            state.current,
        )

    def moves(self) -> list[tuple[int, int]]:
        """The legal moves ``(kind, target)``: per distinct hand card in hand order."""
        table = self.table
        seen = 0
        moves: list[tuple[int, int]] = []
        for kind in self.hands[self.current]:
            if not seen >> kind & 1:
                seen |= 1 << kind
                moves += table[kind]
        return moves

    def move(self, kind: int, target: int) -> bool:
        """Play a (legal) card on a target, take, draw, pass on; true when the deal is over."""
        seat = self.current
        hand = self.hands[seat]
        hand.remove(kind)
        if kind != _RED_KIND and self.colours[target] == _NO_COLOUR:
            self.colours[target] = _COLOUR_INDEX[kind]
            self.table = _move_table(tuple(self.colours))
        value = _VALUES[kind]
        if self.totals[target] + value > LIMIT:
            self.taken[seat] += self.cards[target]
            self.cards[target] = [kind]
            self.totals[target] = value
        else:
            self.cards[target].append(kind)
            self.totals[target] += value
        if self.pile:
            hand.append(self.pile.pop())
        hands = self.hands
        count = len(hands)
        following = seat + 1 if seat + 1 < count else 0
        while not hands[following]:
            if following == seat:
                return True
            following = following + 1 if following + 1 < count else 0
        self.current = following
        return False

    def counts(self) -> list[list[int]]:
        """Per seat, the cards taken per colour (yellow, green, blue, red)."""
        counts: list[list[int]] = []
        for stack in self.taken:
            per_colour = [0] * len(CARD_COLOURS)
            for kind in stack:
                per_colour[_COLOUR_INDEX[kind]] += 1
            counts.append(per_colour)
        return counts


def _minus_points(counts: list[list[int]]) -> list[int]:
    """Per seat, the deal's minus points from the taken cards per colour.

    The model's own scoring, kept apart from :func:`deal_scores` (which scores
    the recorded entries) so that the property tests compare two computations.
    """
    points = [RED_PENALTY * per_colour[-1] for per_colour in counts]
    for colour in range(len(COLOURS)):
        column = [per_colour[colour] for per_colour in counts]
        most = max(column)
        spared = column.index(most) if column.count(most) == 1 else -1
        for seat, taken in enumerate(column):
            if seat != spared:
                points[seat] += taken
    return points


def _state(
    match: Match,
    deal: int,
    table: _Table,
    results: tuple[tuple[Entry, ...], ...],
    totals: tuple[int, ...],
    *,
    over: bool = False,
) -> State:
    """Freeze a table into a State."""
    return State(
        match=match,
        deal=deal,
        hands=tuple(tuple(_CARDS[kind] for kind in hand) for hand in table.hands),
        pile=tuple(_CARDS[kind] for kind in reversed(table.pile)),
        targets=tuple(
            Target(
                None if colour == _NO_COLOUR else COLOURS[colour],
                tuple(_CARDS[kind] for kind in cards),
            )
            for colour, cards in zip(table.colours, table.cards, strict=True)
        ),
        taken=tuple(tuple(_CARDS[kind] for kind in stack) for stack in table.taken),
        current=table.current,
        results=results,
        totals=totals,
        over=over,
    )


def _check_state(state: object) -> None:
    if not isinstance(state, State):
        raise error("state_type", "{state!r} is not a game state.", state=state)


def legal_actions(state: State) -> tuple[PlaceCard, ...]:
    """Every move the current player may make: per distinct hand card (in hand
    order), each target it may go on. Empty when the match is over.

    >>> state = new_game(["Anna", "Ben", "Cem"], shuffled_decks(build_deck(), 3, random.Random(2)))
    >>> all(a.card.colour in ("red", state.targets[a.target].colour)
    ...     for a in legal_actions(state))
    True
    """
    _check_state(state)
    if state.over:
        return ()
    return tuple(_PLACE[kind][target] for kind, target in _Table.of(state).moves())


def apply(state: State, action: PlaceCard) -> State:
    """The state after ``action``; raises :class:`scoring.ScoringError` if it is not legal.

    When the move ends the deal, the deal is scored and the next one dealt
    (or the match is over).

    >>> state = new_game(["Anna", "Ben", "Cem"], shuffled_decks(build_deck(), 3, random.Random(2)))
    >>> apply(state, PlaceCard(Card("yellow", 1), 5))
    Traceback (most recent call last):
    ...
    scoring.ScoringError: There is no target 5: the targets are 0, 1 and 2.
    """
    _check_state(state)
    if state.over:
        raise error("game_over", "The match is over.")
    if not isinstance(action, PlaceCard) or not isinstance(action.card, Card):
        raise error("action_type", "{action!r} is not a move in 13.", action=action)
    card = action.card
    index = action.target
    if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < TARGETS:
        raise error(
            "no_target", "There is no target {target}: the targets are 0, 1 and 2.",
            target=index,
        )
    if card not in state.hands[state.current]:
        raise error("card_not_in_hand", "The card {card} is not in the hand.", card=card)
    targets = state.targets
    colour = targets[index].colour
    if card.colour != RED:
        if colour is None and any(other.colour == card.colour for other in targets):
            raise error(
                "colour_elsewhere",
                "The {colour} cards already have their target.",
                colour=card.colour,
            )
        if colour is not None and colour != card.colour:
            raise error(
                "wrong_colour",
                "A {card_colour} card cannot go on the {target} target.",
                card_colour=card.colour,
                target=colour,
            )
    table = _Table.of(state)
    if not table.move(card._kind, index):
        return _state(state.match, state.deal, table, state.results, state.totals)
    counts = table.counts()
    results = (*state.results, tuple(Entry(*per_colour) for per_colour in counts))
    totals = tuple(map(sum, zip(state.totals, _minus_points(counts), strict=True)))
    if state.deal + 1 < len(state.match.decks):
        following = state.deal + 1
        return _state(state.match, following, _Table.deal(state.match, following), results,
                      totals)
    return _state(state.match, state.deal, table, results, totals, over=True)


def deal_entries(state: State) -> tuple[dict[str, Entry], ...]:
    """What every player recorded for each finished deal, by player name."""
    return tuple(
        dict(zip(state.match.players, entries, strict=True)) for entries in state.results
    )


def final_scores(state: State) -> dict[str, int]:
    """Each player's minus points over the finished deals."""
    return dict(zip(state.match.players, state.totals, strict=True))


MAX_STEPS = 6 * DECK_SIZE
"""No match takes more moves: one card per move, at most 6 deals of 50 cards
(6 players, or 3 players twice round)."""


@cache
def _synthetic_deck() -> tuple[Card, ...]:
    return build_deck(SYNTHETIC_VALUE_COUNTS)


def random_game(
    players: int, rng: random.Random, *, variant: Variant = Variant.FIXED_COLOURS
) -> SimulatedGame:
    """Play a complete random legal match (uniform among the legal moves).

    It runs the model's own move rules on a private table, making the same
    choices as ``apply(state, legal_actions(state)[i])`` would with the same
    random numbers (the property tests replay it through the public model).

    >>> from scoring.common import match_totals
    >>> game = random_game(3, random.Random(1))
    >>> len(game.deals), dict(game.totals) == match_totals("dreizehn", game.deals)
    (6, True)
    """
    names = player_names(players)
    decks = shuffled_decks(_synthetic_deck(), players, rng)
    # The decks come straight from shuffled_decks: what new_game would check holds.
    match = Match(names, _check_variant(variant), rng.randrange(players), decks)
    results: list[tuple[Entry, ...]] = []
    totals = [0] * players
    steps = 0
    for deal in range(len(match.decks)):
        table = _Table.deal(match, deal)
        moves = table.moves
        move = table.move
        while True:
            choices = moves()
            if move(*choices[int(rng.random() * len(choices))]):
                break
            steps += 1
            if steps > MAX_STEPS:
                raise error("endless", "The simulated match did not end.")
        counts = table.counts()
        results.append(tuple(Entry(*per_colour) for per_colour in counts))
        for seat, points in enumerate(_minus_points(counts)):
            totals[seat] += points
    return SimulatedGame(
        players=names,
        deals=tuple(
            MappingProxyType(dict(zip(names, entries, strict=True))) for entries in results
        ),
        totals=MappingProxyType(dict(zip(names, totals, strict=True))),
    )

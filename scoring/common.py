"""What every game module offers beyond its own contract.

Each game module (``scoring.<game>``) exposes the same recording interface so
that the app, the benchmark and the property tests can treat the five games
alike (game differences are per-game modules, never ``if game == ...``):

``Entry``
    frozen dataclass: what one player took in one deal, as recorded at the
    table.
``deal_count(players) -> int``
    how many deals a complete match has.
``validate_deal(entries) -> None``
    cross-player validation of one deal's entries (``{player: Entry}``);
    raises :class:`scoring.ScoringError`.
``score_deal(entries) -> dict[str, int]``
    validates, then returns each player's score for that deal (points for
    games where more is better, minus points as non-negative numbers where
    fewer is better).
``entry_from_dict(data) -> Entry`` / ``entry_to_dict(entry) -> dict``
    JSON-compatible round trip of an entry; bad data raises ScoringError.
``random_game(players, rng) -> SimulatedGame``
    a complete random legal game, played through the game model from the
    deal to the end.
``explain_deal(entries) -> dict[str, tuple[ScorePart, ...]]``
    validates like ``score_deal``, then each player's score of the deal as
    the terms it is made of (their ``points`` add up to the score).

Optional, for a game whose rules depend on the match's options:
``with_options(options) -> GameRules`` (module level) gives the rules bound to
them (:func:`rules_for` asks it), and a ``deals_needed(players, *, recorded,
totals)`` on those rules says when a match that ends by its totals is over
(:func:`deals_needed`).
"""

from __future__ import annotations

import importlib
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, TypeAlias, cast

from scoring import GAMES, error


@dataclass(frozen=True, slots=True)
class SimulatedGame:
    """A complete game played through a game model.

    ``deals`` holds, per deal, what each player would record at the table;
    ``totals`` the final scores the game model computed itself.
    """

    players: tuple[str, ...]
    deals: tuple[Mapping[str, Any], ...]
    totals: Mapping[str, int]


PartKind: TypeAlias = str
"""What a term of a deal score counts: a name the game chooses (open, not a closed list).

A game may use the shared kinds below, whose texts the app has, or name its own; the
app's folder of the game then brings the words for them (``GameApp.part_texts``).
"""

SHARED_PART_KINDS: frozenset[PartKind] = frozenset({
    "hand", "x_stack", "went_out", "open", "face_down", "final_bonus", "interim_bonus",
    "colour", "most", "red", "collected",
})
"""The kinds the five first games use, with texts in ``companion/breakdown.py``:

``hand`` / ``x_stack``: Hornochsen in hand / in the X-stack (X nimmt!, 11 nimmt!);
``went_out``: the player went out and scores nothing (11 nimmt!);
``open`` / ``face_down``: a colour's open cards and its face-down triples
(3 sind einer zuviel!); ``final_bonus``: open colours at the end;
``interim_bonus``: the Zwischenwertung card; ``colour`` / ``most``: a colour's
cards, counted or spared for the strict majority (13); ``red``: red 4s (13);
``collected``: collected cards (Freaky). A kind only one later game uses is that game's
own (with its words in its ``GameApp.part_texts``).
"""


@dataclass(frozen=True, slots=True)
class CardValue:
    """A number card and the Hornochsen printed on it."""

    card: int
    hornochsen: int


@dataclass(frozen=True, slots=True)
class ScorePart:
    """One term of a player's score in one deal.

    The parts of a player add up to their :func:`score_deal` score.

    >>> ScorePart("x_stack", count=9, points=18)
    ScorePart(kind='x_stack', count=9, points=18, colour='', cards=(), tied=False)
    """

    kind: PartKind
    count: int
    """What was counted: Hornochsen, cards, open colours or the bonus card's value."""
    points: int
    """What this term adds to the deal's score (minus points where fewer is better)."""
    colour: str = ""
    """The colour key, for terms per colour."""
    cards: tuple[CardValue, ...] = ()
    """The card numbers behind a Hornochsen count, where they were recorded."""
    tied: bool = False
    """13: the player tied for the most cards of the colour, so nobody is spared."""


Breakdown: TypeAlias = dict[str, tuple[ScorePart, ...]]
"""Per player, the parts of their deal score."""


class GameRules(Protocol):
    """The recording interface every game module implements."""

    def deal_count(self, players: int) -> int: ...

    def validate_deal(self, entries: Mapping[str, Any]) -> None: ...

    def score_deal(self, entries: Mapping[str, Any]) -> dict[str, int]: ...

    def entry_from_dict(self, data: Mapping[str, object]) -> Any: ...

    def entry_to_dict(self, entry: Any) -> dict[str, object]: ...

    def random_game(self, players: int, rng: random.Random) -> SimulatedGame: ...

    def explain_deal(self, entries: Mapping[str, Any]) -> Breakdown: ...


def rules_for(slug: str, options: Mapping[str, object] | None = None) -> GameRules:
    """The module of a game, by slug; bound to a match's ``options`` where the game's
    rules depend on them (its module has ``with_options``, which gets the options and
    returns the rules bound to them; ``tests/scoring/test_common.py`` shows one).

    >>> rules_for("elf-nimmt").deal_count(4)
    4
    >>> rules_for("elf-nimmt", {"deals": 3}).deal_count(4)  # no ``with_options``: the module
    4
    >>> rules_for("skat")
    Traceback (most recent call last):
    ...
    scoring.ScoringError: Unknown game 'skat'.
    """
    info = GAMES.get(slug)
    if info is None:
        raise error("unknown_game", "Unknown game {game!r}.", game=slug)
    module = importlib.import_module(info.module)
    bind = getattr(module, "with_options", None)
    if options is not None and bind is not None:
        return cast(GameRules, bind(options))
    return cast(GameRules, module)


def deals_needed(
    slug: str, players: int, *, recorded: int, totals: Callable[[], Mapping[str, int]],
    options: Mapping[str, object] | None = None,
) -> int:
    """How many deals the match has, with ``recorded`` deals on its sheet so far.

    A game with a fixed number of deals answers its ``deal_count``. A game whose match
    ends by its totals (its rules have ``deals_needed``, e.g. a match to a target total)
    answers ``recorded`` once the match is over, else one more; ``totals`` (the players'
    totals now) is called only for such a game (``tests/scoring/test_common.py``).

    >>> deals_needed("x-nimmt", 3, recorded=1, totals=dict)
    2
    """
    rules = rules_for(slug, options or {})
    own = getattr(rules, "deals_needed", None)
    if own is None:
        return rules.deal_count(players)
    return int(own(players, recorded=recorded, totals=totals()))


def match_totals(
    slug: str, deals: Sequence[Mapping[str, Any]], options: Mapping[str, object] | None = None,
) -> dict[str, int]:
    """Sum of :func:`score_deal` over the deals of a match, per player.

    Every player who appears in any deal gets a total.
    """
    rules = rules_for(slug, options)
    totals: dict[str, int] = {}
    for entries in deals:
        for player, score in rules.score_deal(entries).items():
            totals[player] = totals.get(player, 0) + score
    return totals


def player_names(players: int) -> tuple[str, ...]:
    """Seat names used by the simulators: ``P1`` … ``Pn``.

    >>> player_names(3)
    ('P1', 'P2', 'P3')
    """
    return tuple(f"P{i}" for i in range(1, players + 1))


def revealed_cards(
    plays: object, *, on_table: set[int], card: Callable[[object], int],
    check_players: Callable[[int], None],
) -> dict[int, str]:
    """The cards of a round revealed at once (6 nimmt!, X nimmt!), each to its player:
    ``plays`` maps every player to one card, read by the game's ``card``; no card lies in
    a row already or is revealed twice.

    >>> def card(value: object) -> int:
    ...     return int(value)  # type: ignore[call-overload]
    >>> revealed_cards({"Anna": 7, "Ben": 3}, on_table={5}, card=card,
    ...                check_players=lambda count: None)
    {7: 'Anna', 3: 'Ben'}
    >>> revealed_cards({"Anna": 7, "Ben": 7}, on_table=set(), card=card,
    ...                check_players=lambda count: None)
    Traceback (most recent call last):
    ...
    scoring.ScoringError: Card 7 was revealed by Anna and by Ben.
    """
    if not isinstance(plays, Mapping):
        raise error("plays_type", "The revealed cards must map each player to a card.")
    check_players(len(plays))
    owner: dict[int, str] = {}
    for player, value in plays.items():
        if not isinstance(player, str) or not player:
            raise error("player_name", "Every player needs a name.")
        played = card(value)
        if played in on_table:
            raise error("card_on_table", "Card {card} already lies in a row.", card=played)
        if played in owner:
            raise error(
                "card_played_twice", "Card {card} was revealed by {first} and by {second}.",
                card=played, first=owner[played], second=player,
            )
        owner[played] = player
    return owner

"""Skill ratings from the finished matches, with the openskill library.

Every finished match (imported ones too; abandoned and running ones never) is one
observation: its seats' places, ties sharing a place. Each player has a rating per
game and one across all games (``Rating.game`` ``""``), a normal distribution of
their skill: ``mu`` (the estimate) and ``sigma`` (the uncertainty). What the pages
show is openskill's ``ordinal()``, ``mu - 3 * sigma``: a conservative value that
starts at 0 for everybody and only climbs as the evidence grows.

The model is openskill's Bradley–Terry "full pairing" (every two players of a match
compared, a tie as a draw), not its Plackett–Luce: openskill 6.2's Plackett–Luce
treats players who tie with others as partly beating each other, so in a match with
ranks (1, 1, 3, 4) the third gains as much as the two winners, and with five players
more (openskill.py issues #155, #176, #201; ``test_ratings.py`` checks our model
keeps tied winners ahead). Draws are common in these games, so that matters here.

The ratings are stored, not computed on read (``Rating``: each player's current
rating; ``RatingStep``: what each match did, before and after), and always equal a
recomputation from the history in the order played (night's date, the match's
start, the match id):

- a change at some night (a match finished, reopened or deleted there, the night
  moved) drops the steps from that night on, restores each player's rating from the
  ``*_before`` of their first dropped step, and replays the matches from there;
- finishing a match on the latest night, the usual case, thus replays that night
  only (a few queries); a change deep in the past replays the rest of the history.

Floats go to the database and back unchanged (IEEE doubles on SQLite and
PostgreSQL), so a replay from stored values gives the same numbers, bit for bit, as
one from the start (``tests/companion/test_ratings.py`` compares them after random
histories).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, MutableMapping
from dataclasses import dataclass
from typing import Any

from django.db import transaction

from companion.models import ALL_GAMES, GameNight, Group, Match, Rating, RatingStep, SeatResult
from companion.selectors.ratings import (
    MODEL,
    PROVISIONAL_MATCHES,
    PROVISIONAL_SIGMA,
    START,
    is_provisional,
    ordinal,
)
from companion.services.batches import let_others_write

REPLAY_BATCH = 1000
"""Rows written at once."""

State = tuple[float, float, int]
"""A player's rating in one game (or all games): mu, sigma, matches rated."""


@dataclass(frozen=True, slots=True)
class Played:
    """A finished match as the ratings read it."""

    match_id: int
    game: str
    date: dt.date
    started_at: dt.datetime
    players: tuple[int, ...]
    """The players' ids in seat order."""
    places: tuple[int, ...]
    """Their places (1 is best; tied players share a place)."""


@dataclass(frozen=True, slots=True)
class Step:
    """What one match did to one player's ratings (see :class:`~companion.models.RatingStep`)."""

    match_id: int
    player_id: int
    game: str
    date: dt.date
    started_at: dt.datetime
    game_before: State
    game_after: State
    all_before: State
    all_after: State


def replay(played: Iterable[Played], states: MutableMapping[tuple[int, str], State]) -> list[Step]:
    """Rate ``played`` (in the order played) on top of ``states``, keyed by (player id,
    game or ``""``) and updated in place; returns a step per player and match.

    >>> t = dt.datetime(2026, 3, 5, 19, tzinfo=dt.UTC)
    >>> states = {}
    >>> steps = replay([Played(1, "x-nimmt", t.date(), t, (7, 8), (1, 2))], states)
    >>> [round(ordinal(*states[7, scope][:2]), 2) for scope in ("x-nimmt", "")]
    [3.44, 3.44]
    >>> steps[1].game_after[2], round(ordinal(*steps[1].all_after[:2]), 2)
    (1, -1.83)
    """
    # openskill's rating objects as rate() returned them, reused for the player's next
    # match: creating one draws a random id from the system, which is slow.
    objects: dict[tuple[int, str], Any] = {}

    def rate(players: tuple[int, ...], places: tuple[int, ...], scope: str
             ) -> list[tuple[State, State]]:
        keys = [(player, scope) for player in players]
        before = [states.get(key, START) for key in keys]
        teams = []
        for key, (mu, sigma, _n) in zip(keys, before, strict=True):
            rating = objects.get(key)
            teams.append([rating if rating is not None else MODEL.rating(mu=mu, sigma=sigma)])
        changes = []
        for key, old, (rating,) in zip(keys, before, MODEL.rate(teams, ranks=list(places)),
                                       strict=True):
            new = (rating.mu, rating.sigma, old[2] + 1)
            states[key] = new
            objects[key] = rating
            changes.append((old, new))
        return changes

    steps = []
    for match in played:
        in_game = rate(match.players, match.places, match.game)
        in_all = rate(match.players, match.places, ALL_GAMES)
        for player, (game_before, game_after), (all_before, all_after) in zip(
            match.players, in_game, in_all, strict=True
        ):
            steps.append(Step(match.match_id, player, match.game, match.date, match.started_at,
                              game_before, game_after, all_before, all_after))
    return steps


def played_since(group_id: int, since: dt.date | None) -> list[Played]:
    """The group's finished matches from the night ``since`` on (None: all), in the order
    played (one query over their results)."""
    results = SeatResult.objects.filter(group_id=group_id)
    if since is not None:
        results = results.filter(date__gte=since)
    played: list[Played] = []
    current: list[object] = []
    players: list[int] = []
    places: list[int | None] = []

    def close() -> None:
        match_id, game, date, started_at = current
        # A seat without a place (never so for a match finished through the services)
        # shares the last place rather than stopping the ratings.
        last = len(players)
        played.append(Played(match_id, game, date, started_at,  # type: ignore[arg-type]
                             tuple(players), tuple(last if p is None else p for p in places)))

    for match_id, game, date, started_at, player_id, place in results.order_by(
        "date", "started_at", "match_id", "number"
    ).values_list("match_id", "game", "date", "started_at", "player_id", "place"):
        if not current or current[0] != match_id:
            if current:
                close()
            current = [match_id, game, date, started_at]
            players, places = [], []
        players.append(player_id)
        places.append(place)
    if current:
        close()
    return played


def _lock_group(group_id: int) -> None:
    # Two changes in one group replay one after the other (PostgreSQL; SQLite writes one
    # at a time anyway), each from the steps the other left.
    list(Group.objects.select_for_update().filter(pk=group_id).values_list("pk"))


def _insert_steps(group_id: int, steps: list[Step]) -> None:
    """Write ``steps`` as :class:`RatingStep` rows, :data:`REPLAY_BATCH` at a time (SQLite
    takes at most 999 parameters a statement, so Django writes 62 rows of 16 a statement
    there).

    The ORM's price (``bench/ratings.py``, 5,000 matches, 19,502 steps, CPU): about 1.1 s
    more than one hand-built ``INSERT`` with ``executemany`` (rebuild 1.86 s instead of
    0.72 s). Of the write's 1.3 s, 0.17 s build the model instances; the rest is the
    compiler preparing each of the 312,032 values through its field (``pre_save``,
    ``get_db_prep_save``, two ``hasattr`` checks for expressions), which no batch size,
    ``ignore_conflicts`` (no ``RETURNING``) or positional construction changes by more
    than the noise.
    """
    RatingStep.objects.bulk_create(
        (RatingStep(
            group_id=group_id, match_id=step.match_id, player_id=step.player_id,
            game=step.game, date=step.date, started_at=step.started_at,
            game_mu_before=step.game_before[0], game_sigma_before=step.game_before[1],
            game_mu=step.game_after[0], game_sigma=step.game_after[1],
            game_matches=step.game_after[2],
            all_mu_before=step.all_before[0], all_sigma_before=step.all_before[1],
            all_mu=step.all_after[0], all_sigma=step.all_after[1],
            all_matches=step.all_after[2],
        ) for step in steps),
        batch_size=REPLAY_BATCH,
    )


def _replay_from(group_id: int, since: dt.date | None) -> int:
    """Drop the group's steps from the night ``since`` on (None: all) and rate its
    matches from there again; returns the number of steps written."""
    steps = RatingStep.objects.filter(group_id=group_id)
    if since is not None:
        steps = steps.filter(date__gte=since)
    restored: dict[tuple[int, str], State] = {}
    for player, game, game_mu, game_sigma, game_n, all_mu, all_sigma, all_n in steps.order_by(
        "date", "started_at", "match_id"
    ).values_list("player_id", "game", "game_mu_before", "game_sigma_before", "game_matches",
                  "all_mu_before", "all_sigma_before", "all_matches"):
        restored.setdefault((player, game), (game_mu, game_sigma, game_n - 1))
        restored.setdefault((player, ALL_GAMES), (all_mu, all_sigma, all_n - 1))
    steps.delete()
    played = played_since(group_id, since)
    players = {player for player, _scope in restored}
    players.update(player for match in played for player in match.players)
    states: dict[tuple[int, str], State] = {}
    if since is not None:
        for player, game, mu, sigma, matches in Rating.objects.filter(
            player__in=players
        ).values_list("player_id", "game", "mu", "sigma", "matches"):
            states[player, game] = (mu, sigma, matches)
        states.update(restored)
        Rating.objects.filter(player__in=players).delete()
    else:
        Rating.objects.filter(group_id=group_id).delete()
    written = replay(played, states)
    _insert_steps(group_id, written)
    Rating.objects.bulk_create(
        (Rating(group_id=group_id, player_id=player, game=game, mu=mu, sigma=sigma,
                matches=matches)
         for (player, game), (mu, sigma, matches) in sorted(states.items()) if matches),
        batch_size=REPLAY_BATCH,
    )
    return len(written)


def ratings_rebuild(*, group_id: int) -> int:
    """The group's ratings computed afresh from all its finished matches; returns the
    number of rating steps written (one per player and match)."""
    with transaction.atomic():
        _lock_group(group_id)
        return _replay_from(group_id, None)


def ratings_rebuild_hidden(*, group_id: int) -> int:
    """:func:`ratings_rebuild` for a new group that nobody sees yet (an import writes it):
    the matches rated outside any transaction, the steps written a batch per transaction,
    so that the database's write lock is never held for long. Returns the steps written."""
    states: dict[tuple[int, str], State] = {}
    steps = replay(played_since(group_id, None), states)
    # 2,000 steps per transaction: 10,000 held the write lock 0.5 s on a quiet machine
    # (bench/imports.py --shape night --scale 0.3).
    for start in range(0, len(steps), REPLAY_BATCH * 2):
        with transaction.atomic():
            _insert_steps(group_id, steps[start:start + REPLAY_BATCH * 2])
        let_others_write()
    with transaction.atomic():
        Rating.objects.bulk_create(
            (Rating(group_id=group_id, player_id=player, game=game, mu=mu, sigma=sigma,
                    matches=matches)
             for (player, game), (mu, sigma, matches) in sorted(states.items()) if matches),
            batch_size=REPLAY_BATCH,
        )
    return len(steps)


def ratings_replay_since(*, group_id: int, since: dt.date) -> None:
    """After finished matches from the night ``since`` on were added to the group (a batch
    of a BG Stats import, the oldest first): the ratings from that night on, afresh. Runs
    inside the caller's transaction."""
    with transaction.atomic():
        _lock_group(group_id)
        _replay_from(group_id, since)


def ratings_match_changed(*, match: Match) -> None:
    """After ``match`` was finished, reopened or is about to be deleted (its results
    already written or dropped): the ratings from its night on, afresh. Runs inside
    the caller's transaction."""
    date = GameNight.objects.filter(pk=match.game_night_id).values_list("date", flat=True)
    with transaction.atomic():
        _lock_group(match.group_id)
        _replay_from(match.group_id, date.get())


def ratings_night_moved(*, night: GameNight) -> None:
    """After ``night``'s date changed (its matches' results carry the new date): the
    ratings from the earlier of its old and new date on, afresh."""
    old = RatingStep.objects.filter(match__game_night=night).order_by("date").values_list(
        "date", flat=True
    ).first()
    since = night.date if old is None else min(old, night.date)
    with transaction.atomic():
        _lock_group(night.group_id)
        _replay_from(night.group_id, since)


__all__ = [
    "MODEL",
    "PROVISIONAL_MATCHES",
    "PROVISIONAL_SIGMA",
    "Played",
    "Step",
    "is_provisional",
    "ordinal",
    "played_since",
    "ratings_match_changed",
    "ratings_night_moved",
    "ratings_rebuild",
    "ratings_rebuild_hidden",
    "ratings_replay_since",
    "replay",
]

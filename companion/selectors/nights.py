"""The evening's tally: what a game night's finished matches add up to.

:func:`night_summary` reads a night in four queries, however many matches it had: its
matches, their results (``SeatResult``: final scores, places, winners and the per-deal
figures summed by the engine), their deal scores, and the roster's colours. Running
and abandoned matches are counted, not tallied. ``companion.night_card`` turns the
summary into text and an image to share.

Definitions:

- *best and worst deal*, per game (points of different games do not compare): the
  single deal score that was best (the lowest where fewer points win) and worst;
- *biggest comeback*: of the night's winners, the one who trailed the leader by the
  most points after some deal and still won (on a tie, the earlier match and deal);
  points of the winner's game;
- *Hornochsen taken*: per player, the Hornochsen of the games whose cards carry them, as
  the engine counts them from the recorded entries (the tally a game reports under
  ``companion.selectors.stats.HORNOCHSEN``), None for a player who played no such game
  with deals that night.

Matches imported with final scores only count in the matches, wins and places; the
deal figures skip them (``without_deals``).
"""

from __future__ import annotations

import datetime as dt
import hashlib
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass

from django.contrib.humanize.templatetags.humanize import ordinal
from django.core.paginator import Page, Paginator
from django.db.models import F
from django.utils.formats import number_format
from django.utils.translation import ngettext

from companion.colours import player_colours
from companion.kept import computed_once
from companion.models import DealScore, GameNight, Match, Player, Seat, SeatResult
from companion.selectors.ratings import RatingChange, night_rating_changes
from companion.selectors.stats import HORNOCHSEN
from scoring import GAMES

LISTED_PLACES = 20
"""The places listed per player (the night's page, text and picture); the rest counted."""


def and_more(count: int) -> str:
    """"and 1,990 more" (the language's digit grouping): what a capped list leaves out."""
    return ngettext("and %(count)s more", "and %(count)s more", count) % {
        "count": number_format(count, force_grouping=True)}


def places_text(places: Sequence[int]) -> str:
    """``places`` as the tally writes them, at most :data:`LISTED_PLACES` of them."""
    listed = ", ".join(ordinal(place) for place in places[:LISTED_PLACES])
    if len(places) > LISTED_PLACES:
        return f"{listed} {and_more(len(places) - LISTED_PLACES)}"
    return listed


@dataclass(frozen=True, slots=True)
class NightPlayer:
    player_id: int
    name: str
    colour: str
    matches: int
    wins: int
    places: tuple[int, ...]
    """The player's places in the order played."""
    hornochsen: int | None

    @property
    def average_place(self) -> float:
        return sum(self.places) / len(self.places)

    @property
    def places_text(self) -> str:
        """The places as ordinals of the active language ("1., 1., 3." in German, "1st,
        1st, 3rd" in English), the first :data:`LISTED_PLACES` of them and "and 1,990
        more" after a long night."""
        return places_text(self.places)


@dataclass(frozen=True, slots=True)
class DealFeat:
    """One player's score in one deal."""

    player_id: int
    name: str
    colour: str
    score: int
    match_id: int
    deal: int


@dataclass(frozen=True, slots=True)
class NightGame:
    game: str
    title: str
    matches: int
    best_deal: DealFeat | None
    worst_deal: DealFeat | None


@dataclass(frozen=True, slots=True)
class Comeback:
    """A winner who trailed the leader by ``deficit`` points after deal ``deal``."""

    player_id: int
    name: str
    colour: str
    game: str
    title: str
    match_id: int
    deal: int
    deficit: int


@dataclass(frozen=True, slots=True)
class NightSummary:
    night_id: int
    date: dt.date
    place: str
    matches: int
    """Finished matches (the tally's)."""
    running: int
    abandoned: int
    without_deals: int
    """Finished matches imported with final scores only (not in the deal figures)."""
    games: tuple[NightGame, ...]
    """In the registry's order."""
    players: tuple[NightPlayer, ...]
    """Most wins first, then the better average place, then by name."""
    comeback: Comeback | None

    @property
    def hornochsen(self) -> bool:
        """Whether anybody's Hornochsen were counted."""
        return any(player.hornochsen is not None for player in self.players)


def _better(game: str) -> tuple[int, int]:
    """(best, worst) as signs: the best deal score is the lowest where fewer points win."""
    return (1, -1) if GAMES[game].lower_is_better else (-1, 1)


def night_summary(night: GameNight) -> NightSummary:
    """The tally of ``night`` (four queries)."""
    matches = list(
        Match.objects.filter(game_night=night).order_by("created_at", "id")
        .values_list("pk", "game", "status")
    )
    finished = {pk: game for pk, game, status in matches if status == Match.Status.FINISHED}
    order = {pk: index for index, pk in enumerate(finished)}
    colours = player_colours(Player.objects.filter(group_id=night.group_id)
                             .values_list("pk", "colour"))
    results = sorted(
        SeatResult.objects.filter(match__in=finished).values_list(
            "match_id", "player_id", "player__name", "place", "is_winner", "deals", "tally"),
        key=lambda row: order[row[0]],
    )
    names: dict[int, str] = {}
    played: dict[int, list[int]] = defaultdict(list)
    wins: dict[int, int] = defaultdict(int)
    bulls: dict[int, int] = {}
    winners: dict[int, list[int]] = defaultdict(list)
    without_deals = set()
    for match_id, player_id, name, place, is_winner, deals, tally in results:
        names[player_id] = name
        played[player_id].append(place)
        wins[player_id] += int(is_winner)
        if is_winner:
            winners[match_id].append(player_id)
        if not deals:
            without_deals.add(match_id)
        if HORNOCHSEN in tally:
            bulls[player_id] = bulls.get(player_id, 0) + tally[HORNOCHSEN]
    players = sorted(
        (NightPlayer(pk, names[pk], colours[pk], len(places), wins[pk], tuple(places),
                     bulls.get(pk)) for pk, places in played.items()),
        key=lambda p: (-p.wins, p.average_place, p.name.casefold(), p.player_id),
    )

    scores: dict[int, dict[int, dict[int, int]]] = defaultdict(lambda: defaultdict(dict))
    for match_id, number, player_id, score in DealScore.objects.filter(
        deal__match__in=finished
    ).values_list("deal__match_id", "deal__number", "player_id", "score"):
        scores[match_id][number][player_id] = score

    def feat(player_id: int, score: int, match_id: int, deal: int) -> DealFeat:
        return DealFeat(player_id, names[player_id], colours[player_id], score, match_id, deal)

    extremes: dict[str, list[tuple[tuple[int, int, int, str], DealFeat] | None]] = {}
    comeback: tuple[tuple[int, int, int], Comeback] | None = None
    for match_id, game in finished.items():
        best_sign, worst_sign = _better(game)
        slots = extremes.setdefault(game, [None, None])
        running: dict[int, int] = defaultdict(int)
        lower = GAMES[game].lower_is_better
        for number in sorted(scores[match_id]):
            for player_id, score in sorted(scores[match_id][number].items()):
                running[player_id] += score
                for slot, sign in ((0, best_sign), (1, worst_sign)):
                    # Earlier matches and deals first on a tie, then the name.
                    key = (sign * score, order[match_id], number, names[player_id].casefold())
                    current = slots[slot]
                    if current is None or key < current[0]:
                        slots[slot] = (key, feat(player_id, score, match_id, number))
            leader = min(running.values()) if lower else max(running.values())
            for winner in winners[match_id]:
                behind = running[winner] - leader if lower else leader - running[winner]
                rank = (-behind, order[match_id], number)
                if behind > 0 and (comeback is None or rank < comeback[0]):
                    comeback = (rank, Comeback(winner, names[winner], colours[winner], game,
                                              GAMES[game].title, match_id, number, behind))
    counts: dict[str, int] = defaultdict(int)
    for game in finished.values():
        counts[game] += 1
    games = tuple(
        NightGame(
            slug, info.title, counts[slug],
            *(None if slot is None else slot[1] for slot in extremes.get(slug, (None, None))),
        )
        for slug, info in GAMES.items() if counts[slug]
    )
    statuses = [status for _pk, _game, status in matches]
    return NightSummary(
        night_id=night.pk, date=night.date, place=night.place, matches=len(finished),
        running=statuses.count(Match.Status.OPEN),
        abandoned=statuses.count(Match.Status.ABANDONED), without_deals=len(without_deals),
        games=games, players=tuple(players),
        comeback=None if comeback is None else comeback[1],
    )


SUMMARY_WAIT = 5.0
"""Seconds a request waits for the tally that another request is reading."""


def kept_night_summary(night: GameNight) -> NightSummary:
    """:func:`night_summary`, read once per change of the night (its :func:`night_version`)
    and kept in the cache; never read twice at once (``companion.kept``). While another
    request reads it, the tally kept for an earlier version of the night, else it is read
    here after all (rare: the first look at a night that takes longer than
    :data:`SUMMARY_WAIT` to read, by two at once)."""
    summary, _current = computed_once(
        f"night-summary:{night_version(night, 'tally').tag}",
        lock=f"night-summary-reading:{night.pk}", latest=f"night-summary-latest:{night.pk}",
        compute=lambda: night_summary(night), wait=SUMMARY_WAIT,
    )
    return summary if summary is not None else night_summary(night)


# --- The night's matches, with what each did to the ratings ---------------------------------


@dataclass(frozen=True, slots=True)
class NightSeat:
    player_id: int
    name: str
    colour: str
    total: int
    place: int | None
    is_winner: bool
    rating: RatingChange | None
    """What the match did to the player's ratings (None unless the match is finished)."""


@dataclass(frozen=True, slots=True)
class NightMatch:
    pk: int
    game: str
    title: str
    status: str
    imported: bool
    """Imported with final scores only (``Match.source`` not the sheet)."""
    seats: tuple[NightSeat, ...]
    """Best first once finished (place, then seat order); in seat order while running."""

    @property
    def running(self) -> bool:
        return self.status == Match.Status.OPEN

    @property
    def abandoned(self) -> bool:
        return self.status == Match.Status.ABANDONED

    @property
    def finished(self) -> bool:
        return self.status == Match.Status.FINISHED


MATCHES_PER_PAGE = 50
"""Matches per page of the night's page (an imported night may have thousands)."""


def night_matches(night: GameNight, page: int | str | None = 1) -> Page[NightMatch]:
    """A page of the night's matches (:data:`MATCHES_PER_PAGE`) in the order they were
    started, each with its seats, their colours and rating changes (five queries however
    many matches)."""
    found = Paginator(
        Match.objects.filter(game_night=night).order_by("created_at", "id")
        .values_list("pk", "game", "status", "source"),
        MATCHES_PER_PAGE,
    ).get_page(page)
    matches = list(found.object_list)
    shown = [pk for pk, *_rest in matches]
    colours = player_colours(Player.objects.filter(group_id=night.group_id)
                             .values_list("pk", "colour"))
    changes = night_rating_changes(night, shown)
    seats: dict[int, list[NightSeat]] = defaultdict(list)
    for match_id, player_id, name, total, place, is_winner in (
        Seat.objects.filter(match__game_night=night, match_id__in=shown)
        .order_by("match_id", F("place").asc(nulls_last=True), "number")
        .values_list("match_id", "player_id", "player__name", "total", "place", "is_winner")
    ):
        seats[match_id].append(NightSeat(player_id, name, colours[player_id], total, place,
                                         is_winner, changes.get(match_id, {}).get(player_id)))
    found.object_list = [
        NightMatch(pk, game, GAMES[game].title, status, source != Match.Source.SHEET,
                   tuple(seats[pk]))
        for pk, game, status, source in matches
    ]
    return found  # type: ignore[return-value]


# --- What the image card shows, as a version (its ETag) -------------------------------------

CARD_VERSION = "2"
"""Bumped when the card's drawing changes, so that browsers fetch it again."""


@dataclass(frozen=True, slots=True)
class NightVersion:
    tag: str
    """Changes whenever the tally could (the night, its matches, the roster's names and
    colours), in ``language``."""
    modified: dt.datetime | None
    """The latest start, finish or deal change of the night's matches."""


def night_version(night: GameNight, language: str) -> NightVersion:
    """What the night's summary is made of, as a short tag and a time (three queries,
    none of which reads the deals' entries): the image card's ETag and Last-Modified."""
    digest = hashlib.sha256(
        f"{CARD_VERSION}|{language}|{night.pk}|{night.date}|{night.place}".encode()
    )
    modified = night.created_at
    for pk, status, revision, created, finished in (
        Match.objects.filter(game_night=night).order_by("pk")
        .values_list("pk", "status", "revision", "created_at", "finished_at")
    ):
        digest.update(f"|m{pk}:{status}:{revision}:{finished}".encode())
        modified = max(modified, created, finished or created)
    for pk, name, colour in Player.objects.filter(group_id=night.group_id).order_by(
        "pk"
    ).values_list("pk", "name", "colour"):
        digest.update(f"|p{pk}:{name}:{colour}".encode())
    return NightVersion(digest.hexdigest()[:32], modified)


__all__ = ["LISTED_PLACES", "Comeback", "DealFeat", "NightGame", "NightMatch", "NightPlayer",
           "NightSeat", "NightSummary", "NightVersion", "and_more", "kept_night_summary",
           "night_matches", "night_summary", "night_version", "places_text"]

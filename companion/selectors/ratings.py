"""The rating model (openskill's Bradley–Terry, the shown value, provisional ratings) and
the reads of the skill ratings (kept by ``companion.services.ratings``): a group's
leaderboard per game or across games, what one match did to its players' ratings, and
one player's ratings. Each is one or two queries however long the history.

A rating is shown as its openskill ordinal (``mu - 3 * sigma``, 0 for a newcomer),
rounded to one decimal by the pages; a change is the difference of two ordinals.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from django.db.models import OuterRef, Subquery
from django.utils.formats import number_format
from django.utils.translation import gettext_lazy as _
from openskill.models import BradleyTerryFull

from companion.colours import player_colours
from companion.models import ALL_GAMES, GameNight, Group, Match, Player, Rating, RatingStep
from scoring import GAMES

MODEL = BradleyTerryFull()
"""openskill's defaults: mu 25, sigma 25/3, beta 25/6, tau 25/300 (a little uncertainty
added before every match, so that ratings keep moving)."""

START = (MODEL.mu, MODEL.sigma, 0)
"""A player's rating before their first match: (mu, sigma, matches)."""

PROVISIONAL_MATCHES = 5
PROVISIONAL_SIGMA = 6.0
"""A rating is provisional below 5 matches or while sigma is above 6 (after five matches
of three or four players it is about 5.6; after five two-player matches still above 6)."""

def ordinal(mu: float, sigma: float) -> float:
    """The value shown for a rating: openskill's ``ordinal()`` (mu − 3 sigma).

    >>> ordinal(*START[:2])
    0.0
    """
    return float(MODEL.rating(mu=mu, sigma=sigma).ordinal())


def is_provisional(sigma: float, matches: int) -> bool:
    """Whether a rating rests on too little to be compared with the others yet.

    >>> is_provisional(5.5, 6), is_provisional(5.5, 4), is_provisional(6.5, 9)
    (False, True, True)
    """
    return matches < PROVISIONAL_MATCHES or sigma > PROVISIONAL_SIGMA


def shown(value: float) -> str:
    """A rating as the pages show it: one decimal in the active language's format."""
    return number_format(round(value, 1), 1).replace("-", "\u2212")


def signed(change: float | None) -> str:
    """A change of a rating as the pages show it: with its sign, "±0" when it rounds to
    nothing, "" for none."""
    if change is None:
        return ""
    rounded = round(change, 1)
    if not rounded:
        return "\u00b10"
    return ("+" if rounded > 0 else "") + shown(rounded)


@dataclass(frozen=True, slots=True)
class RatingLine:
    """A player on a leaderboard."""

    place: int | None
    """1 is best, equal values share a place; None while the rating is provisional."""
    player_id: int
    name: str
    colour: str
    value: float
    """The rating shown: openskill's ordinal."""
    mu: float
    sigma: float
    matches: int
    provisional: bool
    change: float | None
    """What the player's latest match did to ``value`` (None before any match)."""

    @property
    def value_display(self) -> str:
        return shown(self.value)

    @property
    def change_display(self) -> str:
        return signed(self.change)


@dataclass(frozen=True, slots=True)
class Leaderboard:
    game: str
    """A game's slug, or "" for all games."""
    lines: tuple[RatingLine, ...]
    """Rated players first (best first), then the provisional ones (best first)."""

    @property
    def title(self) -> str:
        return GAMES[self.game].title if self.game else str(_("All games"))

    @property
    def rated(self) -> tuple[RatingLine, ...]:
        return tuple(line for line in self.lines if not line.provisional)

    @property
    def provisional(self) -> tuple[RatingLine, ...]:
        return tuple(line for line in self.lines if line.provisional)


def _last_step(field: str, game: str) -> Subquery:
    steps = RatingStep.objects.filter(player=OuterRef("player"))
    if game != ALL_GAMES:
        steps = steps.filter(game=game)
    prefix = "all" if game == ALL_GAMES else "game"
    return Subquery(
        steps.order_by("-date", "-started_at", "-match_id").values(f"{prefix}_{field}")[:1]
    )


def leaderboard(group: Group, game: str | None = None) -> Leaderboard:
    """The group's ratings in ``game`` (None: across all games), two queries."""
    scope = game or ALL_GAMES
    colours = player_colours(Player.objects.filter(group=group).values_list("pk", "colour"))
    rows = (
        Rating.objects.filter(group=group, game=scope)
        .annotate(mu_before=_last_step("mu_before", scope),
                  sigma_before=_last_step("sigma_before", scope))
        .values_list("player_id", "player__name", "mu", "sigma", "matches", "mu_before",
                     "sigma_before")
    )
    lines = []
    for player_id, name, mu, sigma, matches, mu_before, sigma_before in rows:
        value = ordinal(mu, sigma)
        change = None if mu_before is None else value - ordinal(mu_before, sigma_before)
        lines.append((player_id, name, value, mu, sigma, matches, change))
    lines.sort(key=lambda line: (-line[2], line[1].casefold(), line[0]))
    rated: list[RatingLine] = []
    provisional: list[RatingLine] = []
    for player_id, name, value, mu, sigma, matches, change in lines:
        if is_provisional(sigma, matches):
            provisional.append(RatingLine(None, player_id, name, colours[player_id], value, mu,
                                          sigma, matches, True, change))
            continue
        place = len(rated) + 1
        if rated and round(rated[-1].value, 1) == round(value, 1):
            place = rated[-1].place or place
        rated.append(RatingLine(place, player_id, name, colours[player_id], value, mu, sigma,
                                matches, False, change))
    return Leaderboard(scope, tuple(rated + provisional))


@dataclass(frozen=True, slots=True)
class RatingChange:
    """What one match did to one player's ratings (differences of ordinals)."""

    game: float
    """In the match's game."""
    all: float
    """Across all games."""
    game_value: float
    """The rating in the match's game after the match."""
    all_value: float

    @property
    def game_display(self) -> str:
        return signed(self.game)

    @property
    def all_display(self) -> str:
        return signed(self.all)


STEP_VALUES = ("game_mu_before", "game_sigma_before", "game_mu", "game_sigma",
               "all_mu_before", "all_sigma_before", "all_mu", "all_sigma")


def _change(values: tuple[float, ...]) -> RatingChange:
    game_before, game_after, all_before, all_after = (
        ordinal(values[i], values[i + 1]) for i in (0, 2, 4, 6)
    )
    return RatingChange(game_after - game_before, all_after - all_before, game_after, all_after)


def match_rating_changes(match: Match) -> dict[int, RatingChange]:
    """Per player id, what ``match`` did to their ratings (one query; empty unless the
    match is finished)."""
    return {
        player_id: _change(tuple(values))
        for player_id, *values in RatingStep.objects.filter(match=match).values_list(
            "player_id", *STEP_VALUES)
    }


def night_rating_changes(
    night: GameNight, matches: Iterable[int] | None = None,
) -> dict[int, dict[int, RatingChange]]:
    """Per match id of ``night`` (of ``matches`` only, if given) and player id, what the
    match did to the player's ratings (one query however many matches; a match that is
    not finished is missing)."""
    changes: dict[int, dict[int, RatingChange]] = {}
    steps = RatingStep.objects.filter(match__game_night=night)
    if matches is not None:
        steps = steps.filter(match_id__in=list(matches))
    for match_id, player_id, *values in steps.values_list("match_id", "player_id",
                                                          *STEP_VALUES):
        changes.setdefault(match_id, {})[player_id] = _change(tuple(values))
    return changes


@dataclass(frozen=True, slots=True)
class PlayerRatingLine:
    game: str
    """A game's slug, or "" for all games."""
    value: float
    matches: int
    provisional: bool
    change: float | None = None
    """What the player's latest match (in this game, or in any) did to ``value``."""

    @property
    def title(self) -> str:
        return GAMES[self.game].title if self.game else str(_("All games"))

    @property
    def value_display(self) -> str:
        return shown(self.value)

    @property
    def change_display(self) -> str:
        return signed(self.change)


def _latest_before(prefix: str, *, same_game: bool) -> dict[str, Subquery]:
    """The ``*_before`` values of the rated player's latest step (in the rating's game,
    or in any game), as annotations of a :class:`Rating` query."""
    steps = RatingStep.objects.filter(player=OuterRef("player"))
    if same_game:
        steps = steps.filter(game=OuterRef("game"))
    latest = steps.order_by("-date", "-started_at", "-match_id")
    return {
        f"{prefix}_{field}": Subquery(latest.values(f"{prefix}_{field}_before")[:1])
        for field in ("mu", "sigma")
    }


def player_ratings(player: Player) -> list[PlayerRatingLine]:
    """The player's ratings: the games in the registry's order, then all games (one query),
    each with what the player's latest match in it did."""
    order = {slug: index for index, slug in enumerate([*GAMES, ALL_GAMES])}
    lines = []
    for game, mu, sigma, matches, game_mu, game_sigma, all_mu, all_sigma in (
        Rating.objects.filter(player=player)
        .annotate(**_latest_before("game", same_game=True), **_latest_before("all",
                                                                             same_game=False))
        .values_list("game", "mu", "sigma", "matches", "game_mu", "game_sigma", "all_mu",
                     "all_sigma")
    ):
        value = ordinal(mu, sigma)
        before = (all_mu, all_sigma) if game == ALL_GAMES else (game_mu, game_sigma)
        change = None if before[0] is None else value - ordinal(*before)
        lines.append(PlayerRatingLine(game, value, matches, is_provisional(sigma, matches),
                                      change))
    return sorted(lines, key=lambda line: order[line.game])


__all__ = [
    "Leaderboard",
    "PlayerRatingLine",
    "RatingChange",
    "RatingLine",
    "leaderboard",
    "match_rating_changes",
    "night_rating_changes",
    "player_ratings",
    "shown",
    "signed",
]

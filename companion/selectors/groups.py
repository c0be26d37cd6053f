"""Reads of the groups area, each a fixed number of queries however much a group has played."""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib.auth.base_user import AbstractBaseUser
from django.db.models import Count, Prefetch, QuerySet
from django.db.models.functions import Lower
from django.utils.translation import gettext as _

from companion.models import (
    GameNight,
    Group,
    GroupChange,
    Invite,
    Match,
    Membership,
    Player,
    Seat,
)
from scoring import ScoringError
from scoring.common import rules_for

RECENT_NIGHTS = 5


def groups_for_user(user: AbstractBaseUser) -> QuerySet[Group]:
    """The user's groups by name, with ``member_count`` and ``player_count``."""
    return (
        Group.objects.filter(memberships__user=user)
        .annotate(
            member_count=Count("memberships", distinct=True),
            player_count=Count("players", distinct=True),
        )
        .order_by(Lower("name"), "id")
    )


def _matches_with_seats() -> QuerySet[Match]:
    """Matches oldest first, each with ``seat_list`` (seat order) and ``winner_seats``."""
    return Match.objects.order_by("created_at", "id").prefetch_related(
        Prefetch("seats", queryset=Seat.objects.select_related("player"), to_attr="seat_list"),
        Prefetch(
            "seats",
            queryset=Seat.objects.filter(is_winner=True).select_related("player"),
            to_attr="winner_seats",
        ),
    )


@dataclass(frozen=True, slots=True)
class RunningMatch:
    """A running match for "Weiterspielen": its game, players, progress and leaders."""

    match: Match
    seats: list[Seat]
    deals_recorded: int
    deals_needed: int | None
    """None when the seats do not make a valid table for the game (nothing to count)."""
    leaders: list[Seat]
    """The players on place 1 (several on a tie); empty before the first deal."""

    @property
    def current_deal(self) -> int:
        """The deal being played (the last one once all are recorded)."""
        if self.deals_needed is None:
            return self.deals_recorded + 1
        return min(self.deals_recorded + 1, self.deals_needed)

    @property
    def complete(self) -> bool:
        return self.deals_needed is not None and self.deals_recorded >= self.deals_needed

    @property
    def leader_names(self) -> list[str]:
        return [seat.player.name for seat in self.leaders]


def _running(matches: QuerySet[Match]) -> list[RunningMatch]:
    """The running matches of ``matches``, newest first (two queries, however many)."""
    found = (
        matches.filter(status=Match.Status.OPEN)
        .select_related("group", "game_night")
        .annotate(deal_count=Count("deals"))
        .prefetch_related(
            Prefetch("seats", queryset=Seat.objects.select_related("player"), to_attr="seat_list")
        )
        .order_by("-created_at", "-id")
    )
    running = []
    for match in found:
        seats = sorted(match.seat_list, key=lambda seat: seat.number)
        try:
            needed: int | None = rules_for(match.game).deal_count(len(seats))
        except ScoringError:
            needed = None
        deals = int(match.deal_count)
        leaders = sorted(
            (seat for seat in seats if seat.place == 1),
            key=lambda seat: (seat.player.name.casefold(), seat.number),
        ) if deals else []
        running.append(RunningMatch(match, seats, deals, needed, leaders))
    return running


def running_matches(group: Group) -> list[RunningMatch]:
    """The group's running matches, newest first, with their seats, progress and leaders."""
    return _running(Match.objects.filter(group=group))


def running_matches_for_user(user: AbstractBaseUser) -> list[RunningMatch]:
    """The running matches of all the user's groups, newest first (for the start page)."""
    return _running(Match.objects.filter(group__memberships__user=user))


def night_matches(night: GameNight) -> list[Match]:
    """The night's matches in the order they were started, with seats and winners."""
    return list(_matches_with_seats().filter(game_night=night))


def roster(group: Group) -> list[Player]:
    """The group's players by name (ignoring case), with the linked account and ``seat_count``."""
    return list(
        Player.objects.filter(group=group)
        .select_related("user")
        .annotate(seat_count=Count("seats"))
        .order_by(Lower("name"), "id")
    )


def members(group: Group) -> list[Membership]:
    """The group's members, owner first, then by user name.

    Each membership's user carries ``group_players``: the players linked to it in this group.
    """
    return list(
        Membership.objects.filter(group=group)
        .select_related("user")
        .prefetch_related(
            Prefetch(
                "user__players",
                queryset=Player.objects.filter(group=group).order_by(Lower("name"), "id"),
                to_attr="group_players",
            )
        )
        .order_by("-role", "user__username")
    )


def active_invites(group: Group) -> list[Invite]:
    return list(
        Invite.objects.filter(group=group, revoked_at__isnull=True)
        .select_related("created_by")
        .order_by("-created_at", "-id")
    )


@dataclass(frozen=True, slots=True)
class LogLine:
    """One line of the group's log, in the user's language."""

    change: GroupChange
    who: str
    text: str


LOG_LINES = 30
"""How many of the newest group changes the settings page shows."""


def _log_text(change: GroupChange) -> str:
    detail = change.detail if isinstance(change.detail, dict) else {}

    def say(key: str) -> str:
        return str(detail.get(key) or "")

    kind = change.kind
    if kind == GroupChange.Kind.RENAME:
        return _("renamed the group from “%(from)s” to “%(to)s”") % {
            "from": say("from"), "to": say("to")}
    if kind == GroupChange.Kind.JOIN:
        if detail.get("player"):
            return _("joined the group as %(player)s") % {"player": say("player")}
        return _("joined the group")
    if kind == GroupChange.Kind.LEAVE:
        return _("left the group")
    if kind == GroupChange.Kind.REMOVE:
        return _("removed %(user)s from the group") % {"user": say("user")}
    if kind == GroupChange.Kind.LINK:
        return _("linked the player %(player)s to the account %(user)s") % {
            "player": say("player"), "user": say("user")}
    if kind == GroupChange.Kind.UNLINK:
        return _("unlinked the player %(player)s from the account %(user)s") % {
            "player": say("player"), "user": say("user")}
    if kind == GroupChange.Kind.PLAYER_RENAME:
        return _("renamed the player “%(from)s” to “%(to)s”") % {
            "from": say("from"), "to": say("to")}
    actions = {"create": _("created an invite link"), "renew": _("renewed an invite link"),
               "revoke": _("revoked an invite link")}
    return str(actions.get(say("action"), change.get_kind_display()))


def roster_names(group_id: int) -> dict[int, str]:
    """The roster name of each member who plays on the group's roster, by user id: the
    match's log shows a member by that name (their user name only where they have none)."""
    return dict(
        Player.objects.filter(group_id=group_id, user__isnull=False)
        .order_by("-id").values_list("user_id", "name")
    )


def group_log(group: Group, limit: int = LOG_LINES) -> list[LogLine]:
    """The newest changes of the group (renames, joins, removals, links), newest first."""
    changes = (
        GroupChange.objects.filter(group=group).select_related("created_by")
        .order_by("-created_at", "-id")[:limit]
    )
    # By account name: this log is about accounts (joins, links to players, removals).
    return [
        LogLine(
            change=change,
            who=change.created_by.get_username() if change.created_by else _("A former member"),
            text=_log_text(change),
        )
        for change in changes
    ]

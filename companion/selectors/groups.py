"""Reads of the groups area, each a fixed number of queries however much a group has played."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from django.contrib.auth.base_user import AbstractBaseUser
from django.core.paginator import Page, Paginator
from django.db.models import Count, OuterRef, Prefetch, QuerySet, Subquery
from django.db.models.functions import Coalesce, Lower
from django.utils.translation import gettext as _

from companion.models import (
    Group,
    GroupChange,
    Invite,
    Match,
    Membership,
    Player,
    Seat,
)
from scoring import ScoringError
from scoring.common import deals_needed, rules_for

RECENT_NIGHTS = 3
"""How many game nights (the newest) the group home shows."""
NIGHT_MATCHES_SHOWN = 5
"""How many of a night's matches (the newest) the group home shows under it."""
RUNNING_SHOWN = 5
"""How many running matches (the newest) the start page and the group home show."""
RUNNING_PER_PAGE = 20
"""Running matches per page of the full list (and per "Show more")."""

T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class Shortlist(Generic[T]):
    """The first few of a list for a page that must not grow with it: ``more`` says
    whether there are others (a "Show more" link leads to all of them, page by page)."""

    items: list[T]
    more: bool


GROUPS_SHOWN = 10
"""How many of the user's groups (by name) the start page and the account page show."""
GROUPS_PER_PAGE = 30
"""Groups per page of the list of the user's groups (and per "Show more")."""


def _count(rows: QuerySet[Any]) -> Subquery:
    """The number of ``rows`` (each filtered by the outer group) as a subquery."""
    return Subquery(rows.order_by().values("group_id").annotate(n=Count("pk")).values("n"))


def groups_for_user(user: AbstractBaseUser) -> QuerySet[Group]:
    """The user's groups by name, with ``member_count`` and ``player_count``.

    Each counted by a subquery of its own: counting both through joins read every
    member with every player of each group (members × players rows)."""
    return (
        Group.objects.filter(memberships__user=user)
        .annotate(
            member_count=Coalesce(_count(Membership.objects.filter(group=OuterRef("pk"))), 0),
            player_count=Coalesce(_count(Player.objects.filter(group=OuterRef("pk"))), 0),
        )
        .order_by(Lower("name"), "id")
    )


def groups_shortlist(user: AbstractBaseUser, *, limit: int = GROUPS_SHOWN) -> Shortlist[Group]:
    """The user's first groups by name; ``more`` when there are others (the list of all
    groups shows them, a page at a time)."""
    found = list(groups_for_user(user)[: limit + 1])
    return Shortlist(found[:limit], more=len(found) > limit)


def groups_page(user: AbstractBaseUser, page: int | str | None) -> Page[Group]:
    """One page of the user's groups by name (an invalid page number gives the nearest)."""
    return Paginator(groups_for_user(user), GROUPS_PER_PAGE).get_page(page)


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
    open_ended: bool = False
    """The match ends by its totals (to a target): its progress names no "of N"."""

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


def _running(matches: QuerySet[Match]) -> QuerySet[Match]:
    """The running ones of ``matches``, newest first, with what "Weiterspielen" shows
    (two queries for any slice: the matches with their deal count, their seats)."""
    return (
        matches.filter(status=Match.Status.OPEN)
        .select_related("group", "game_night")
        .annotate(deal_count=Count("deals"))
        .prefetch_related(
            Prefetch("seats", queryset=Seat.objects.select_related("player"), to_attr="seat_list")
        )
        .order_by("-created_at", "-id")
    )


def _running_rows(found: Iterable[Match]) -> list[RunningMatch]:
    running = []
    for match in found:
        seats = sorted(match.seat_list, key=lambda seat: seat.number)
        try:
            needed: int | None = deals_needed(
                match.game, len(seats), recorded=int(match.deal_count), options=match.options,
                totals=lambda seats=seats: {str(seat.player_id): seat.total for seat in seats})
        except ScoringError:
            needed = None
        deals = int(match.deal_count)
        leaders = sorted(
            (seat for seat in seats if seat.place == 1),
            key=lambda seat: (seat.player.name.casefold(), seat.number),
        ) if deals else []
        try:
            open_ended = rules_for(match.game, match.options).deal_count(len(seats)) is None
        except ScoringError:
            open_ended = False
        running.append(RunningMatch(match, seats, deals, needed, leaders, open_ended))
    return running


def _shortlist(matches: QuerySet[Match], limit: int) -> Shortlist[RunningMatch]:
    # The newest ones are picked first (a subquery), so the deals are counted for those
    # only; one more than shown tells whether there are others, without counting them.
    newest = (matches.filter(status=Match.Status.OPEN).order_by("-created_at", "-id")
              .values("pk")[: limit + 1])
    found = _running_rows(_running(Match.objects.filter(pk__in=newest)))
    return Shortlist(found[:limit], more=len(found) > limit)


def _page(matches: QuerySet[Match], page: int | str | None) -> Page[RunningMatch]:
    found = Paginator(_running(matches), RUNNING_PER_PAGE).get_page(page)
    found.object_list = _running_rows(found.object_list)
    return found  # type: ignore[return-value]


def running_matches(group: Group, *, limit: int = RUNNING_SHOWN) -> Shortlist[RunningMatch]:
    """The group's newest running matches, with their seats, progress and leaders."""
    return _shortlist(Match.objects.filter(group=group), limit)


def running_matches_for_user(
    user: AbstractBaseUser, *, limit: int = RUNNING_SHOWN
) -> Shortlist[RunningMatch]:
    """The newest running matches of all the user's groups (for the start page)."""
    return _shortlist(Match.objects.filter(group__memberships__user=user), limit)


def running_page(group: Group, page: int | str | None) -> Page[RunningMatch]:
    """One page of all the group's running matches, newest first (an invalid page number
    gives the nearest page)."""
    return _page(Match.objects.filter(group=group), page)


def running_page_for_user(user: AbstractBaseUser, page: int | str | None) -> Page[RunningMatch]:
    """One page of the running matches of all the user's groups, newest first."""
    return _page(Match.objects.filter(group__memberships__user=user), page)


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


LOG_SHOWN = 10
"""How many of the newest group changes the settings page shows."""
LOG_PER_PAGE = 30
"""Group changes per page of the full log (and per "Show more")."""


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


def _log_lines(changes: Iterable[GroupChange]) -> list[LogLine]:
    # By account name: this log is about accounts (joins, links to players, removals).
    return [
        LogLine(
            change=change,
            who=change.created_by.get_username() if change.created_by else _("A former member"),
            text=_log_text(change),
        )
        for change in changes
    ]


def _changes(group: Group) -> QuerySet[GroupChange]:
    return (GroupChange.objects.filter(group=group).select_related("created_by")
            .order_by("-created_at", "-id"))


def group_log(group: Group, limit: int = LOG_SHOWN) -> Shortlist[LogLine]:
    """The newest changes of the group (renames, joins, removals, links), newest first."""
    lines = _log_lines(_changes(group)[: limit + 1])
    return Shortlist(lines[:limit], more=len(lines) > limit)


def group_log_page(group: Group, page: int | str | None) -> Page[LogLine]:
    """One page of all the group's changes, newest first."""
    found = Paginator(_changes(group), LOG_PER_PAGE).get_page(page)
    found.object_list = _log_lines(found.object_list)
    return found  # type: ignore[return-value]

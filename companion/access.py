"""Permission lookups: every object is reached through the user's groups, or through a
table pass for exactly one match or game night.

A non-member gets 404 for any object of another group (never a hint that it
exists); views are wrapped in ``@login_required`` so a logged-out visitor is
sent to log in. The views a table pass opens (the sheet, its deals, the live board,
a game night's page) are wrapped in :func:`viewer_required` instead and look their
object up with the ``get_*_for_viewer`` helpers below: a member as before, else a
guest whose session holds a pass for exactly that match or night (404 for anything
else, 403 for a read-only pass asked to write, the "pass ended" page for a revoked
or expired one, or one whose maker is no longer in the group).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import wraps
from typing import Any, NamedTuple

from django.contrib.auth.base_user import AbstractBaseUser
from django.contrib.auth.models import AnonymousUser
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.db.models import Q
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.utils import timezone
from django.utils.translation import gettext as _

from companion.models import GameNight, Group, Match, Membership, Player, Seat, TablePass
from companion.services.passes import PassState, maker_in_group, pass_state
from companion.services.sheet import Guest

PASSES_KEY = "table_passes"
"""The session's table passes: ``{"<pass id>": "<the name the guest gave>"}``."""
MAX_PASSES = 8
"""Passes one browser keeps at most (the oldest is forgotten first)."""


@dataclass(frozen=True, slots=True)
class Viewer:
    """Who looks at a match or night: a member (``table_pass`` None) or a guest with a pass."""

    user: Any = None
    table_pass: TablePass | None = None
    guest_name: str = ""

    @property
    def is_guest(self) -> bool:
        return self.table_pass is not None

    @property
    def read_only(self) -> bool:
        """A guest whose pass is for following only."""
        return self.table_pass is not None and not self.table_pass.may_write

    @property
    def actor(self) -> Any:
        """What the services record as the one who made a change."""
        return Guest(self.guest_name) if self.table_pass is not None else self.user

    def kind(self, match: Match) -> str:
        """What tells this viewer's sheet of ``match`` apart from other viewers' (in its
        ETag, and the key of a sheet rendered for every watcher of that kind:
        companion/shared_renders.py): see :func:`member_kind`, :func:`guest_kind`."""
        if self.table_pass is None:
            return member_kind(may_delete=getattr(self.user, "pk", None) in (
                match.group.owner_id, match.created_by_id))
        return guest_kind(writes=self.table_pass.may_write,
                          night_pass=self.table_pass.game_night_id is not None)


# The kinds of viewer, as far as a sheet shows them; nothing else of the viewer is in a
# sheet's ``#sheet``.

def member_kind(*, may_delete: bool) -> str:
    """A member who may delete the match (the group's owner, its starter: ``d``) or not
    (``m``)."""
    return "d" if may_delete else "m"


def guest_kind(*, writes: bool, night_pass: bool) -> str:
    """A guest (``g``) whose pass writes or only follows (``w``, ``r``), for the night or
    the match (``n``, ``m``)."""
    return f"g{'w' if writes else 'r'}{'n' if night_pass else 'm'}"


def kind_reads_only(kind: str) -> bool:
    """A kind of viewer (:meth:`Viewer.kind`) that only follows (:attr:`Viewer.read_only`)."""
    return kind.startswith("gr")


class TablePassEnded(Exception):
    """The session's pass for this match or night was revoked or has expired."""

    def __init__(self, table_pass: TablePass, state: PassState) -> None:
        super().__init__(state)
        self.table_pass = table_pass
        self.state = state


def session_passes(request: HttpRequest) -> dict[int, str]:
    """The table passes this browser joined: pass id → the name the guest gave."""
    session = getattr(request, "session", None)
    raw = session.get(PASSES_KEY) if session is not None else None
    if not isinstance(raw, dict):
        return {}
    return {int(pk): str(name) for pk, name in raw.items() if str(pk).isdigit()}


def session_pass_add(request: HttpRequest, table_pass: TablePass, name: str) -> None:
    passes = {str(pk): value for pk, value in session_passes(request).items()}
    passes.pop(str(table_pass.pk), None)
    passes[str(table_pass.pk)] = name
    request.session[PASSES_KEY] = dict(list(passes.items())[-MAX_PASSES:])


def session_pass_remove(request: HttpRequest, pass_id: int) -> None:
    passes = {str(pk): value for pk, value in session_passes(request).items()}
    if passes.pop(str(pass_id), None) is not None:
        request.session[PASSES_KEY] = passes


def viewer_of(request: HttpRequest) -> Viewer:
    """The viewer a ``get_*_for_viewer`` lookup found for this request (a member when none
    ran: the member-only views)."""
    viewer = getattr(request, "viewer", None)
    return viewer if isinstance(viewer, Viewer) else Viewer(user=request.user)


def acting(request: HttpRequest) -> Any:
    """The ``user`` a service records for this request: the member, or the pass's guest."""
    return viewer_of(request).actor


def viewer_required(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """``@login_required`` for members, except that a visitor whose session holds a table
    pass reaches the view, whose ``get_*_for_viewer`` lookup decides. A revoked or
    expired pass gets the "pass ended" page (410); htmx reloads the page to show it."""

    @wraps(view)
    def wrapped(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        if not request.user.is_authenticated and not session_passes(request):
            return redirect_to_login(request.get_full_path())
        try:
            return view(request, *args, **kwargs)
        except TablePassEnded as ended:
            return pass_ended_response(request, ended.table_pass, ended.state)

    return wrapped


def pass_ended_response(
    request: HttpRequest, table_pass: TablePass | None, state: str
) -> HttpResponse:
    """The clear page for a pass that no longer works (or a link that never did)."""
    status = 404 if table_pass is None else 410
    if request.htmx and table_pass is not None:
        # A poll or a save of a phone on the sheet: the page reloads and shows why.
        response = HttpResponse(status=status)
        response["HX-Refresh"] = "true"
        return response
    return render(request, "companion/passes/ended.html",
                  {"table_pass": table_pass, "state": state}, status=status)


def _guest_pass(
    request: HttpRequest, *, group_id: int, write: bool, match: Match | None = None,
    night_id: int | None = None,
) -> Viewer:
    """The viewer for the session's pass that covers ``match`` (its own pass or its
    night's) or the night ``night_id``; 404 without one."""
    passes = session_passes(request)
    if not passes:
        raise Http404
    covers = (Q(match=match) | Q(game_night_id=match.game_night_id)) if match is not None \
        else Q(game_night__pk=night_id)
    found = list(TablePass.objects.filter(covers, pk__in=list(passes), group__pk=group_id)
                 .annotate(maker_in_group=maker_in_group()))
    if not found:
        raise Http404
    # Several passes may cover it (the match's and its night's): a working one, writing first.
    found.sort(key=lambda p: (pass_state(p) != "active", not p.may_write, -p.pk))
    table_pass = found[0]
    state = pass_state(table_pass)
    if state != "active":
        raise TablePassEnded(table_pass, state)
    if write and not table_pass.may_write:
        raise PermissionDenied(_("This table pass is for following the match only."))
    viewer = Viewer(table_pass=table_pass, guest_name=passes[table_pass.pk])
    request.viewer = viewer  # type: ignore[attr-defined]
    return viewer


def get_match_for_viewer(
    request: HttpRequest, group_id: int, match_id: int, *, write: bool = False
) -> Match:
    """The match with its group and night, for a member of its group (one query, as
    :func:`get_match_for_user`) or a guest with a pass for it (``write``: a pass that
    may enter deals); sets ``request.viewer``. 404 for everyone else."""
    user = request.user
    if user.is_authenticated:
        match = (
            Match.objects.select_related("group", "game_night")
            .filter(group__memberships__user=user, group__pk=group_id, pk=match_id).first()
        )
        if match is not None:
            request.viewer = Viewer(user=user)  # type: ignore[attr-defined]
            return match
    if not session_passes(request):
        raise Http404
    match = get_object_or_404(
        Match.objects.select_related("group", "game_night"), group__pk=group_id, pk=match_id
    )
    _guest_pass(request, group_id=group_id, write=write, match=match)
    return match


class Polled(NamedTuple):
    """What a sheet's poll needs to know of the match before its view runs."""

    revision: int
    kind: str
    """The kind of viewer (:meth:`Viewer.kind`)."""
    game: str
    until: Any = None
    """When the viewer's table pass ends (a datetime), None for a member."""


def poll_revision(request: HttpRequest, group_id: int, match_id: int) -> Polled | None:
    """For the sheet's 304 poll: the match's revision, the kind of viewer (see
    :meth:`Viewer.kind`) and the game, if the request may see the match (one query for a
    member); None otherwise (the view then answers as usual: 404, or the "pass ended"
    page)."""
    user = request.user
    if user.is_authenticated:
        found_match = (
            Match.objects.filter(pk=match_id, group__pk=group_id, group__memberships__user=user)
            .values_list("revision", "group__owner_id", "created_by_id", "game").first()
        )
        if found_match is not None:
            revision, owner_id, starter_id, game = found_match
            return Polled(revision, member_kind(may_delete=user.pk in (owner_id, starter_id)),
                          game)
    passes = session_passes(request)
    if not passes:
        return None
    # The pass the view would pick: working ones only, writing first, the newest.
    found = (
        TablePass.objects.filter(
            Q(match__pk=match_id) | Q(game_night__matches__pk=match_id),
            maker_in_group(), pk__in=list(passes), group__pk=group_id,
            revoked_at__isnull=True, expires_at__gt=timezone.now(),
        )
        .order_by("-may_write", "-pk")
        .values_list("may_write", "game_night_id", "expires_at").first()
    )
    if found is None:
        return None
    match = (
        Match.objects.filter(pk=match_id, group__pk=group_id)
        .values_list("revision", "game").first()
    )
    if match is None:
        return None
    return Polled(match[0], guest_kind(writes=found[0], night_pass=found[1] is not None),
                  match[1], found[2])


def get_seats_for_viewer(
    request: HttpRequest, group_id: int, match_id: int, *, write: bool = False
) -> list[Seat]:
    """:func:`get_seats_for_user` for a member, else the seats of a match a guest's pass
    covers (see :func:`get_match_for_viewer`)."""
    if request.user.is_authenticated:
        try:
            seats = get_seats_for_user(request.user, group_id, match_id)
        except Http404:
            pass
        else:
            request.viewer = Viewer(user=request.user)  # type: ignore[attr-defined]
            return seats
    match = get_match_for_viewer(request, group_id, match_id, write=write)
    seats = list(match.seats.select_related("player").order_by("number"))
    for seat in seats:
        seat.match = match
    if not seats:
        raise Http404
    return seats


def get_game_night_for_viewer(request: HttpRequest, group_id: int, night_id: int) -> GameNight:
    """The game night for a member of its group, or a guest with a pass for that night."""
    user = request.user
    if user.is_authenticated:
        night = (
            GameNight.objects.select_related("group")
            .filter(group__memberships__user=user, group__pk=group_id, pk=night_id).first()
        )
        if night is not None:
            request.viewer = Viewer(user=user)  # type: ignore[attr-defined]
            return night
    _guest_pass(request, group_id=group_id, write=False, night_id=night_id)
    return get_object_or_404(GameNight.objects.select_related("group"),
                             group__pk=group_id, pk=night_id)


def get_group_for_user(user: AbstractBaseUser | AnonymousUser, group_id: int) -> Group:
    """The group, if ``user`` is a member; 404 otherwise."""
    if not user.is_authenticated:
        raise Http404
    return get_object_or_404(Group.objects.filter(memberships__user=user), pk=group_id)


def get_membership(user: AbstractBaseUser | AnonymousUser, group: Group) -> Membership:
    if not user.is_authenticated:
        raise Http404
    return get_object_or_404(Membership, group=group, user=user)


def get_player_for_user(
    user: AbstractBaseUser | AnonymousUser, group_id: int, player_id: int
) -> Player:
    group = get_group_for_user(user, group_id)
    return get_object_or_404(Player, group=group, pk=player_id)


def get_game_night_for_user(
    user: AbstractBaseUser | AnonymousUser, group_id: int, night_id: int
) -> GameNight:
    group = get_group_for_user(user, group_id)
    return get_object_or_404(GameNight.objects.select_related("group"), group=group, pk=night_id)


def get_match_for_user(
    user: AbstractBaseUser | AnonymousUser, group_id: int, match_id: int
) -> Match:
    """The match with its group and night, if ``user`` is a member of its group; 404
    otherwise (one query)."""
    if not user.is_authenticated:
        raise Http404
    return get_object_or_404(
        Match.objects.select_related("group", "game_night").filter(
            group__memberships__user=user, group__pk=group_id
        ),
        pk=match_id,
    )


def get_seats_for_user(
    user: AbstractBaseUser | AnonymousUser, group_id: int, match_id: int
) -> list[Seat]:
    """The match's seats in seat order with their players, all sharing the match (with its
    group and night), if ``user`` is a member of its group; 404 otherwise. One query for
    what a deal save reads before it writes (a match always has seats)."""
    if not user.is_authenticated:
        raise Http404
    seats = list(
        Seat.objects.select_related("player", "match__group", "match__game_night")
        .filter(match__pk=match_id, match__group__pk=group_id,
                match__group__memberships__user=user)
        .order_by("number")
    )
    if not seats:
        raise Http404
    for seat in seats[1:]:
        seat.match = seats[0].match
    return seats

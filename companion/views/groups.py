"""Views of the groups area: groups, members, invites, the roster and game nights.

Thin: check membership (``companion.access``), parse a form, call a service in
``companion.services.groups``, render. With htmx a change answers with the
page's partial; without JavaScript it redirects back to the page (POST/redirect/GET).
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Any

from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import User
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import IntegrityError, transaction
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.cache import patch_cache_control
from django.utils.http import quote_etag
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import (
    condition,
    require_http_methods,
    require_POST,
    require_safe,
)

from companion import idempotency
from companion.access import (
    get_game_night_for_user,
    get_game_night_for_viewer,
    get_group_for_user,
    get_player_for_user,
    viewer_of,
    viewer_required,
)
from companion.colours import PALETTE, colour_name, player_colours
from companion.forms.accounts import SignupForm
from companion.forms.groups import (
    GameNightForm,
    GroupCreateForm,
    GroupRenameForm,
    JoinForm,
    PlayerColourForm,
    PlayerForm,
    PlayerLinkForm,
)
from companion.models import ChangeReceipt, GameNight, Group, Invite, Membership, Player
from companion.night_card import kept_night_png, night_text
from companion.selectors import groups as selectors
from companion.selectors.history import group_history
from companion.selectors.nights import (
    NightVersion,
    kept_night_summary,
    night_matches,
    night_version,
)
from companion.services import groups as services
from companion.sharing import share_url


def _get_owned_group(request: HttpRequest, group_id: int) -> Group:
    """The group if the user owns it; 404 for outsiders, 403 for other members."""
    group = get_group_for_user(request.user, group_id)
    if group.owner_id != request.user.pk:
        raise PermissionDenied(_("Only the owner of the group can do this."))
    return group


# Groups ------------------------------------------------------------------------------


@login_required
def group_list(request: HttpRequest) -> HttpResponse:
    """All the user's groups by name, a page at a time ("Show more" adds the next)."""
    template = "companion/groups/list.html"
    return render(request, f"{template}#page" if request.htmx else template, {
        "page_obj": selectors.groups_page(request.user, request.GET.get("page")),
    })


def _to_group(request: HttpRequest, receipt: ChangeReceipt, **kwargs: Any) -> HttpResponse:
    """A new group (or game night) sent again: the group it made."""
    return redirect("group_home", group_id=receipt.group_id)


@login_required
@idempotency.answers_repeats("group", _to_group)
def group_create(request: HttpRequest) -> HttpResponse:
    form = GroupCreateForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            with idempotency.once(request, action="group") as sent:
                group = sent.group = services.group_create(
                    owner=request.user,
                    name=form.cleaned_data["name"],
                    player_names=form.cleaned_data["players"],
                )
        except ValidationError as error:
            form.add_error(None, error)
        else:
            messages.success(request, _("Your group “%(name)s” is ready.") % {"name": group.name})
            return redirect("group_home", group_id=group.pk)
    return render(request, "companion/groups/create.html", {"form": form})


@login_required
def group_home(request: HttpRequest, group_id: int) -> HttpResponse:
    """The group's start page: running matches, "Neue Partie", recent game nights."""
    group = get_group_for_user(request.user, group_id)
    # Each list shows its newest few, so the page costs the same however much is running.
    return render(
        request,
        "companion/groups/home.html",
        {
            "group": group,
            "running": selectors.running_matches(group),
            "nights": group_history(
                group, matches_per_night=selectors.NIGHT_MATCHES_SHOWN
            )[: selectors.RECENT_NIGHTS],
        },
    )


@login_required
def group_running(request: HttpRequest, group_id: int) -> HttpResponse:
    """All the group's running matches, a page at a time ("Show more" adds the next)."""
    group = get_group_for_user(request.user, group_id)
    template = "companion/groups/running.html"
    return render(request, f"{template}#page" if request.htmx else template, {
        "group": group, "page_obj": selectors.running_page(group, request.GET.get("page")),
    })


def _settings_context(request: HttpRequest, group: Group, **extra: object) -> dict[str, object]:
    is_owner = group.owner_id == request.user.pk
    invites = selectors.active_invites(group) if is_owner else []
    return {
        "group": group,
        "is_owner": is_owner,
        "members": selectors.members(group),
        "invites": [
            (invite, share_url(request, reverse("group_join", args=[invite.token])))
            for invite in invites
        ],
        "rename_form": GroupRenameForm(initial={"name": group.name}),
        "log": selectors.group_log(group),
        "now": timezone.now(),
        **extra,
    }


@login_required
def group_changes(request: HttpRequest, group_id: int) -> HttpResponse:
    """The group's whole log, a page at a time ("Show more" adds the next)."""
    group = get_group_for_user(request.user, group_id)
    template = "companion/groups/changes.html"
    return render(request, f"{template}#page" if request.htmx else template, {
        "group": group, "page_obj": selectors.group_log_page(group, request.GET.get("page")),
    })


@login_required
def group_settings(request: HttpRequest, group_id: int) -> HttpResponse:
    """Name (the owner renames), members, and the owner's invite links."""
    if request.method != "POST":
        group = get_group_for_user(request.user, group_id)
        return render(request, "companion/groups/settings.html", _settings_context(request, group))
    group = _get_owned_group(request, group_id)
    form = GroupRenameForm(request.POST)
    if form.is_valid():
        try:
            services.group_rename(group=group, name=form.cleaned_data["name"], by=request.user)
        except ValidationError as error:
            form.add_error("name", error)
    template = "companion/groups/settings.html"
    if form.errors:
        context = _settings_context(request, group, rename_form=form)
        return render(request, f"{template}#rename" if request.htmx else template, context)
    if request.htmx:
        return render(request, f"{template}#rename",
                      _settings_context(request, group, renamed=True))
    messages.success(request, _("The group is now called “%(name)s”.") % {"name": group.name})
    return redirect("group_settings", group_id=group.pk)


def _invites_changed(request: HttpRequest, group: Group, message: str, *, refused: bool = False
                     ) -> HttpResponse:
    """The invites part of the settings page over htmx (with ``message`` when the change
    was ``refused``); otherwise the page with ``message``."""
    if request.htmx:
        return render(request, "companion/groups/settings.html#invites",
                      _settings_context(request, group,
                                        invite_error=message if refused else ""))
    (messages.error if refused else messages.success)(request, message)
    return redirect("group_settings", group_id=group.pk)


def _invites_again(request: HttpRequest, receipt: ChangeReceipt, *, group_id: int
                   ) -> HttpResponse:
    group = _get_owned_group(request, group_id)
    return _invites_changed(request, group, _("The invite link was made already."))


@login_required
@require_POST
@idempotency.answers_repeats("invite", _invites_again)
def invite_create(request: HttpRequest, group_id: int) -> HttpResponse:
    group = _get_owned_group(request, group_id)
    try:
        with idempotency.once(request, action="invite", group=group):
            services.invite_create(group=group, created_by=request.user)
    except ValidationError as error:
        return _invites_changed(request, group, " ".join(error.messages), refused=True)
    return _invites_changed(
        request, group, _("A new invite link is ready: send it to your friends.")
    )


@login_required
@require_POST
def invite_revoke(request: HttpRequest, group_id: int, invite_id: int) -> HttpResponse:
    group = _get_owned_group(request, group_id)
    invite = get_object_or_404(Invite, group=group, pk=invite_id)
    services.invite_revoke(invite=invite, by=request.user)
    return _invites_changed(
        request, group, _("The invite link has been revoked: it no longer works.")
    )


@login_required
@require_POST
def invite_renew(request: HttpRequest, group_id: int, invite_id: int) -> HttpResponse:
    """Let an invite link work another 14 days (also one whose time is up)."""
    group = _get_owned_group(request, group_id)
    invite = get_object_or_404(Invite, group=group, pk=invite_id, revoked_at__isnull=True)
    services.invite_renew(invite=invite, by=request.user)
    return _invites_changed(request, group, _("The invite link works for another 14 days."))


@login_required
@require_POST
def member_remove(request: HttpRequest, group_id: int, membership_id: int) -> HttpResponse:
    """The owner removes a member; the member's players and their history stay."""
    group = _get_owned_group(request, group_id)
    membership = get_object_or_404(
        Membership.objects.select_related("user", "group"), group=group, pk=membership_id
    )
    try:
        services.member_remove(membership=membership, by=request.user)
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))
    else:
        messages.success(request, _("%(name)s is no longer a member of the group.")
                         % {"name": membership.user.get_username()})
    return redirect("group_settings", group_id=group.pk)


@login_required
@require_POST
def group_leave(request: HttpRequest, group_id: int) -> HttpResponse:
    """A member leaves the group; their players and their history stay on the roster."""
    group = get_group_for_user(request.user, group_id)
    try:
        services.group_leave(group=group, user=request.user)
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))
        return redirect("group_settings", group_id=group.pk)
    messages.success(request, _("You have left “%(name)s”.") % {"name": group.name})
    return redirect("group_list")


def group_join(request: HttpRequest, token: str) -> HttpResponse:
    """Confirm and join a group through an invite link; a logged-out visitor sees which
    group invites and who, and signs up and joins in one step (or logs in first)."""
    invite = (
        Invite.objects.select_related("group", "created_by")
        .filter(token=token, revoked_at__isnull=True)
        .first()
    )
    if invite is None:
        return render(request, "companion/groups/join_invalid.html", status=404)
    if services.invite_expired(invite):
        return render(request, "companion/groups/join_invalid.html",
                      {"expired": invite.expires_at}, status=410)
    group = invite.group
    if not request.user.is_authenticated:
        return _join_with_signup(request, invite)
    if Membership.objects.filter(group=group, user=request.user).exists():
        messages.info(request, _("You are already a member of “%(name)s”.") % {"name": group.name})
        return redirect("group_home", group_id=group.pk)
    form = JoinForm(request.POST or None, group=group, user=request.user)
    if request.method == "POST" and form.is_valid():
        try:
            services.group_join(invite=invite, user=request.user,
                                player=form.cleaned_data["player"])
        except ValidationError as error:
            form.add_error("player", error)
        else:
            messages.success(request, _("Welcome to “%(name)s”!") % {"name": group.name})
            return redirect("group_home", group_id=group.pk)
    return render(request, "companion/groups/join.html",
                  {"invite": invite, "group": group, "form": form})


def _join_with_signup(request: HttpRequest, invite: Invite) -> HttpResponse:
    """The invite for a visitor without a session: a new account and the membership, in one
    transaction (a refused join keeps no account behind)."""
    group = invite.group
    signup = SignupForm(request.POST or None)
    form = JoinForm(request.POST or None, group=group, user=None)
    if request.method == "POST" and all([signup.is_valid(), form.is_valid()]):
        try:
            with transaction.atomic():
                user = signup.save()
                services.group_join(invite=invite, user=user, player=form.cleaned_data["player"])
        except IntegrityError:
            # Someone took the name between the form's check and the insert.
            signup.add_error("username",
                             User._meta.get_field("username").error_messages["unique"])
        except ValidationError as error:
            form.add_error("player", error)
        else:
            login(request, user, backend="django.contrib.auth.backends.ModelBackend")
            messages.success(request, _("Welcome to “%(name)s”!") % {"name": group.name})
            return redirect("group_home", group_id=group.pk)
    return render(request, "companion/groups/join.html",
                  {"invite": invite, "group": group, "form": form, "signup": signup})


# Roster ------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class RosterRow:
    """A player on the roster page, with the name typed last and its error, if any."""

    player: Player
    name_value: str
    error: str = ""
    open: bool = False
    colour: str = ""
    """The colour the sheet shows: the chosen one or the default palette's."""
    colour_value: str = ""
    """What the colour field shows: the colour typed last when it was refused."""
    colour_error: str = ""

    @property
    def colour_name(self) -> str:
        return colour_name(self.colour)


def _roster_response(
    request: HttpRequest,
    group: Group,
    *,
    add_form: PlayerForm | None = None,
    failed: Player | None = None,
    failed_name: str = "",
    error: str = "",
    failed_colour: str | None = None,
    colour_error: str = "",
) -> HttpResponse:
    """The roster page (its ``roster`` partial for htmx); ``failed`` is the player whose
    edit was refused, shown open with ``failed_name`` and ``error`` (or the refused
    ``failed_colour`` and ``colour_error``)."""
    players = selectors.roster(group)
    colours = player_colours((p.pk, p.colour) for p in players)
    rows = [
        RosterRow(player=p, name_value=failed_name, error=error, open=True,
                  colour=colours[p.pk],
                  colour_value=colours[p.pk] if failed_colour is None else failed_colour,
                  colour_error=colour_error)
        if failed is not None and p.pk == failed.pk
        else RosterRow(player=p, name_value=p.name, colour=colours[p.pk],
                       colour_value=colours[p.pk])
        for p in players
    ]
    context = {
        "group": group,
        "rows": rows,
        "palette": PALETTE,
        "is_owner": group.owner_id == request.user.pk,
        "add_form": add_form or PlayerForm(),
    }
    template = "companion/groups/roster.html"
    return render(request, f"{template}#roster" if request.htmx else template, context)


def _roster_again(request: HttpRequest, receipt: ChangeReceipt, *, group_id: int
                  ) -> HttpResponse:
    """A new player sent again: the roster, with the player on it."""
    group = get_group_for_user(request.user, group_id)
    if not request.htmx:
        return redirect("roster", group_id=group.pk)
    return _roster_response(request, group)


@login_required
@idempotency.answers_repeats("player", _roster_again)
def roster(request: HttpRequest, group_id: int) -> HttpResponse:
    """The group's players; any member adds players (POST here), renames and links them."""
    group = get_group_for_user(request.user, group_id)
    if request.method != "POST":
        return _roster_response(request, group)
    form = PlayerForm(request.POST)
    if form.is_valid():
        try:
            with idempotency.once(request, action="player", group=group):
                player = services.player_add(group=group, name=form.cleaned_data["name"])
        except ValidationError as error:
            form.add_error("name", error)
        else:
            if not request.htmx:
                messages.success(request, _("%(name)s is on the roster.") % {"name": player.name})
                return redirect("roster", group_id=group.pk)
            form = PlayerForm()
    return _roster_response(request, group, add_form=form)


@login_required
@require_POST
def player_rename(request: HttpRequest, group_id: int, player_id: int) -> HttpResponse:
    player = get_player_for_user(request.user, group_id, player_id)
    group = player.group
    form = PlayerForm(request.POST)
    if form.is_valid():
        try:
            services.player_rename(player=player, name=form.cleaned_data["name"],
                                   by=request.user)
        except ValidationError as error:
            form.add_error("name", error)
    if form.errors:
        failed_name = request.POST.get("name", "")
        error = " ".join(form.errors["name"])
        return _roster_response(request, group, failed=player, failed_name=failed_name,
                                error=error)
    if request.htmx:
        return _roster_response(request, group)
    return redirect("roster", group_id=group.pk)


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def player_link(request: HttpRequest, group_id: int, player_id: int) -> HttpResponse:
    """Link the player to a member's account (POST); GET shows the form (its ``link``
    partial for the roster's row, which loads it when opened)."""
    player = get_player_for_user(request.user, group_id, player_id)
    group = player.group
    if request.method != "POST":
        is_owner = group.owner_id == request.user.pk
        if not (is_owner or player.user_id in (None, request.user.pk)):
            raise PermissionDenied(_("Only the owner of the group can do this."))
        template = "companion/groups/player_link.html"
        return render(request, f"{template}#link" if request.htmx else template, {
            "group": group, "player": player, "is_owner": is_owner,
            # A member links only their own account: the others are not listed to them.
            "members": selectors.members(group) if is_owner else list(
                Membership.objects.filter(group=group, user=request.user)
                .select_related("user")),
        })
    form = PlayerLinkForm(request.POST, group=group)
    if not form.is_valid():
        return _roster_response(request, group, failed=player, failed_name=player.name,
                                error=" ".join(form.errors.get("user", [])))
    try:
        services.player_link(player=player, user=form.cleaned_data["user"], by=request.user)
    except ValidationError as error:
        return _roster_response(request, group, failed=player, failed_name=player.name,
                                error=" ".join(error.messages))
    if request.htmx:
        return _roster_response(request, group)
    return redirect("roster", group_id=group.pk)


@login_required
@require_POST
def player_colour(request: HttpRequest, group_id: int, player_id: int) -> HttpResponse:
    """Choose the player's colour for the sheet, table mode and charts ("" = default)."""
    player = get_player_for_user(request.user, group_id, player_id)
    group = player.group
    form = PlayerColourForm(request.POST)
    if not form.is_valid():
        return _roster_response(
            request, group, failed=player, failed_name=player.name,
            failed_colour=request.POST.get("colour", "")[:40],
            colour_error=" ".join(form.errors.get("colour", [])),
        )
    services.player_recolour(player=player, colour=form.cleaned_data["colour"])
    if request.htmx:
        return _roster_response(request, group)
    return redirect("roster", group_id=group.pk)


# Game nights -------------------------------------------------------------------------


@login_required
@idempotency.answers_repeats("night", _to_group)
def night_new(request: HttpRequest, group_id: int) -> HttpResponse:
    group = get_group_for_user(request.user, group_id)
    form = GameNightForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            with idempotency.once(request, action="night", group=group):
                night = services.game_night_create(group=group, **form.cleaned_data)
        except ValidationError as error:
            form.add_error(None, error)
        else:
            return redirect("night_detail", group_id=group.pk, night_id=night.pk)
    return render(request, "companion/groups/night_form.html", {"group": group, "form": form})


@viewer_required
def night_detail(request: HttpRequest, group_id: int, night_id: int) -> HttpResponse:
    """The night: its tally (with the text and image card to share) and its matches, each
    with what it did to the players' ratings; also for a guest with a table pass for this
    night."""
    night = get_game_night_for_viewer(request, group_id, night_id)
    summary = kept_night_summary(night)
    page = night_matches(night, request.GET.get("page"))
    return render(request, "companion/groups/night_detail.html", {
        "group": night.group,
        "night": night,
        "summary": summary,
        "share_text": night_text(summary),
        "matches": page.object_list,
        "page_obj": page,
        "viewer": viewer_of(request),
    })


def _card_version(request: HttpRequest, group_id: int, night_id: int
                  ) -> tuple[GameNight, NightVersion]:
    """The night and its card's version, for ``condition`` and the view: looked up once
    per request (the ETag, the Last-Modified and the view all ask)."""
    found: tuple[GameNight, NightVersion] | None = getattr(request, "night_card", None)
    if found is None:
        night = get_game_night_for_user(request.user, group_id, night_id)
        found = (night, night_version(night, get_language()))
        setattr(request, "night_card", found)  # noqa: B010 (HttpRequest declares no such field)
    return found


def _card_etag(request: HttpRequest, group_id: int, night_id: int) -> str:
    # The user too, as the sheet's ETag: what one member's browser keeps is theirs.
    return quote_etag(f"{_card_version(request, group_id, night_id)[1].tag}.{request.user.pk}")


def _card_modified(request: HttpRequest, group_id: int, night_id: int) -> dt.datetime | None:
    return _card_version(request, group_id, night_id)[1].modified


@login_required
@require_safe
@condition(etag_func=_card_etag, last_modified_func=_card_modified)
def night_card(request: HttpRequest, group_id: int, night_id: int) -> HttpResponse:
    """The night's tally as a PNG image card (what chat apps show inline)."""
    night, version = _card_version(request, group_id, night_id)
    # The same picture for every member who asks in this language: drawn once per version,
    # by one request at a time (the others wait briefly, then get the night's last one).
    png, current = kept_night_png(night, version.tag)
    if png is None:
        busy = HttpResponse(_("The picture is being drawn: try again in a moment."),
                            status=503, content_type="text/plain; charset=utf-8")
        busy["Retry-After"] = "2"
        patch_cache_control(busy, no_store=True)
        return busy
    response = HttpResponse(png, content_type="image/png")
    response["Content-Disposition"] = (
        f'inline; filename="kartenrunde-{night.date.isoformat()}.png"'
    )
    # Members only: no shared cache keeps it; the browser asks again (ETag) each time. An
    # earlier version's picture (the current one still being drawn) is not kept at all:
    # the ETag names the current version.
    if current:
        patch_cache_control(response, private=True, no_cache=True)
    else:
        patch_cache_control(response, private=True, no_store=True)
    return response


@login_required
def night_edit(request: HttpRequest, group_id: int, night_id: int) -> HttpResponse:
    night = get_game_night_for_user(request.user, group_id, night_id)
    form = GameNightForm(
        request.POST or None,
        initial={"date": night.date, "place": night.place, "notes": night.notes},
    )
    if request.method == "POST" and form.is_valid():
        services.game_night_update(night=night, **form.cleaned_data)
        messages.success(request, _("The game night has been saved."))
        return redirect("night_detail", group_id=night.group_id, night_id=night.pk)
    return render(request, "companion/groups/night_form.html",
                  {"group": night.group, "night": night, "form": form})

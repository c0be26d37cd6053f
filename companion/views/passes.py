"""Views of table passes ("Tischpass"): a member shows one for a match or a game night
(QR code and link), revokes it; a guest opens the link, gives a name and lands on the
sheet or the night, without an account.

What a pass opens is decided in :mod:`companion.access`; the passes themselves are made
and ended in :mod:`companion.services.passes`.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from companion import idempotency
from companion.access import (
    get_game_night_for_user,
    get_group_for_user,
    get_match_for_user,
    pass_ended_response,
    session_pass_add,
    session_pass_remove,
    session_passes,
)
from companion.forms.passes import GuestNameForm, TablePassForm
from companion.models import ChangeReceipt, GameNight, Match, Membership, Player, TablePass
from companion.services import passes as services
from companion.sharing import share_url

PAGE = "companion/passes/share.html"


def _target(table_pass: TablePass) -> str:
    """Where a pass's guest lands: the match's sheet, or the game night's page."""
    if table_pass.match_id is not None:
        return reverse("match_sheet", args=[table_pass.group_id, table_pass.match_id])
    return reverse("night_detail", args=[table_pass.group_id, table_pass.game_night_id])


def _pass_page(
    request: HttpRequest, *, match: Match | None = None, night: GameNight | None = None,
    form: TablePassForm | None = None,
) -> HttpResponse:
    """The passes of a match or night that work now, each with its link and QR code, and
    the form for a new one (the ``passes`` partial for htmx)."""
    owner = match if match is not None else night
    assert owner is not None
    active = TablePass.objects.filter(
        revoked_at__isnull=True, expires_at__gt=timezone.now(),
        **({"match": match} if match is not None else {"game_night": night}),
    ).order_by("created_at", "id")
    context = {
        "group": owner.group, "match": match, "night": night,
        "passes": [
            (table_pass, share_url(request, reverse("pass_join",
                                                    args=[services.pass_token(table_pass)])))
            for table_pass in active
        ],
        "form": form or TablePassForm(),
        "create_url": (reverse("match_pass", args=[owner.group_id, owner.pk]) if match
                       else reverse("night_pass", args=[owner.group_id, owner.pk])),
        "back_url": (reverse("match_sheet", args=[owner.group_id, owner.pk]) if match
                     else reverse("night_detail", args=[owner.group_id, owner.pk])),
    }
    template = f"{PAGE}#passes" if request.htmx else PAGE
    return render(request, template, context)


def _create(
    request: HttpRequest, *, match: Match | None = None, night: GameNight | None = None
) -> HttpResponse:
    form = TablePassForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            # A pass sent twice (a double tap, a lost answer) is made once.
            with idempotency.once(request, action="pass", match=match,
                                  group=night.group if night is not None else None):
                services.table_pass_create(
                    match=match, game_night=night, created_by=request.user,
                    may_write=form.cleaned_data["may_write"],
                )
        except ValidationError as error:
            form.add_error(None, error)
            return _pass_page(request, match=match, night=night, form=form)
        if not request.htmx:
            messages.success(request, _("The table pass is ready: let the others scan it."))
            return redirect(request.path)
        form = TablePassForm()
    return _pass_page(request, match=match, night=night, form=form)


def _match_passes_again(request: HttpRequest, receipt: ChangeReceipt, *, group_id: int,
                        match_id: int) -> HttpResponse:
    """A new pass sent again: the match's passes as they are (it is among them)."""
    return _pass_page(request, match=get_match_for_user(request.user, group_id, match_id))


def _night_passes_again(request: HttpRequest, receipt: ChangeReceipt, *, group_id: int,
                        night_id: int) -> HttpResponse:
    return _pass_page(request, night=get_game_night_for_user(request.user, group_id, night_id))


@login_required
@idempotency.answers_repeats("pass", _match_passes_again)
def match_pass(request: HttpRequest, group_id: int, match_id: int) -> HttpResponse:
    """The match's table passes (GET) and a new one (POST); members only."""
    match = get_match_for_user(request.user, group_id, match_id)
    return _create(request, match=match)


@login_required
@idempotency.answers_repeats("pass", _night_passes_again)
def night_pass(request: HttpRequest, group_id: int, night_id: int) -> HttpResponse:
    """The game night's table passes (GET) and a new one (POST): one pass for every match
    of the night, also the ones started later; members only."""
    night = get_game_night_for_user(request.user, group_id, night_id)
    return _create(request, night=night)


@require_POST
@login_required
def pass_revoke(request: HttpRequest, group_id: int, pass_id: int) -> HttpResponse:
    """End a pass at once: its guests lose access with their next request."""
    group = get_group_for_user(request.user, group_id)
    table_pass = get_object_or_404(
        TablePass.objects.select_related("match__group", "game_night__group"),
        group=group, pk=pass_id,
    )
    services.table_pass_revoke(table_pass=table_pass)
    if request.htmx:
        return _pass_page(request, match=table_pass.match, night=table_pass.game_night)
    messages.success(request, _("The table pass was revoked: it no longer works."))
    if table_pass.match_id is not None:
        return redirect("match_pass", group_id=group.pk, match_id=table_pass.match_id)
    return redirect("night_pass", group_id=group.pk, night_id=table_pass.game_night_id)


def guest_passes(request: HttpRequest) -> list[tuple[TablePass, str]]:
    """The working passes this browser joined, each with where it leads (the home page
    lists them: a guest who left the sheet finds the way back). No query without any."""
    joined = session_passes(request)
    if not joined:
        return []
    found = TablePass.objects.filter(
        services.maker_in_group(), pk__in=list(joined), revoked_at__isnull=True,
        expires_at__gt=timezone.now(),
    ).select_related("group", "match", "game_night").order_by("-created_at")
    return [(table_pass, _target(table_pass)) for table_pass in found]


def _guest_names(table_pass: TablePass) -> list[str]:
    """The names a guest may pick: the match's players in seat order, or everyone who
    played in the night so far (by name)."""
    if table_pass.match_id is not None:
        return list(Player.objects.filter(seats__match_id=table_pass.match_id)
                    .order_by("seats__number").values_list("name", flat=True))
    names = (Player.objects.filter(seats__match__game_night_id=table_pass.game_night_id)
             .values_list("name", flat=True).distinct())
    return sorted(names, key=str.casefold)


def pass_join(request: HttpRequest, token: str) -> HttpResponse:
    """The link of a table pass: the guest picks or types a name and goes to the sheet (or
    the night). No account needed; a member of the group goes straight there."""
    table_pass = services.pass_for_token(token)
    if table_pass is None:
        return pass_ended_response(request, None, "unknown")
    state = services.pass_state(table_pass)
    if state != "active":
        return pass_ended_response(request, table_pass, state)
    target = _target(table_pass)
    user = request.user
    if user.is_authenticated and Membership.objects.filter(
            group_id=table_pass.group_id, user=user).exists():
        return redirect(target)
    joined = session_passes(request)
    if table_pass.pk in joined and request.method != "POST":
        return redirect(target)
    form = GuestNameForm(request.POST or None, names=_guest_names(table_pass))
    if request.method == "POST" and form.is_valid():
        # A new session key with the pass: a session id fixed beforehand gains nothing.
        request.session.cycle_key()
        session_pass_add(request, table_pass, form.cleaned_data["name"])
        return redirect(target)
    return render(request, "companion/passes/join.html",
                  {"table_pass": table_pass, "form": form, "group": table_pass.group,
                   "token": token})


@require_POST
def pass_leave(request: HttpRequest, pass_id: int) -> HttpResponse:
    """The guest is done: this browser forgets the pass."""
    session_pass_remove(request, pass_id)
    messages.info(request, _("You left the table pass. Scan it again to come back."))
    return redirect("home")

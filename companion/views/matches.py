"""Views of a match's life: start a match, undo / redo, finish, reopen, abandon,
delete, rematch, and the match's log.

Thin: check membership (``companion.access``), parse, call a service in
:mod:`companion.services.matches` or :mod:`companion.services.deals`, answer as
:mod:`companion.views.sheet` describes.
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.db.models.functions import Lower
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST
from django_htmx.http import HttpResponseClientRedirect

from companion import idempotency, notices
from companion.access import (
    acting,
    get_game_night_for_user,
    get_group_for_user,
    get_match_for_user,
    get_match_for_viewer,
    viewer_of,
    viewer_required,
)
from companion.forms.match_start import MatchStartForm
from companion.models import ChangeReceipt, Match, Player, Seat
from companion.parsing import MAX_ID, id_from, number_from
from companion.selectors.sheet import match_log, sheet_for
from companion.services import deals as deal_services
from companion.services import groups as group_services
from companion.services import matches as services
from companion.views.sheet import (
    error_text,
    render_sheet,
    saved_already,
    sheet_changed,
)
from scoring import GAMES, ScoringError


def _to_started(request: HttpRequest, receipt: ChangeReceipt, **kwargs: Any) -> HttpResponse:
    """A start (or rematch) sent again: the sheet of the match it started."""
    if receipt.match_id is None:  # deleted since
        target = reverse("group_home", args=[receipt.group_id])
    else:
        target = reverse("match_sheet", args=[receipt.group_id, receipt.match_id])
    if request.htmx:
        return HttpResponseClientRedirect(target)
    return redirect(target)


@login_required
@idempotency.answers_repeats("start", _to_started)
def match_new(request: HttpRequest, group_id: int) -> HttpResponse:
    """Pick the game, the players in seat order, the first dealer and the options."""
    group = get_group_for_user(request.user, group_id)
    night = None
    night_id = id_from(request.GET, "night") or id_from(request.POST, "night")
    if night_id:
        night = get_game_night_for_user(request.user, group.pk, night_id)
    roster = list(Player.objects.filter(group=group).order_by(Lower("name"), "id"))
    initial: dict[str, Any] = {}
    last = (
        Match.objects.filter(group=group).order_by("-created_at", "-id").first()
    )
    if last is not None:
        for seat in Seat.objects.filter(match=last).order_by("number"):
            initial[f"seat_{seat.number}"] = seat.player_id
        initial["game"] = last.game
    else:
        for index, player in enumerate(roster[:4]):
            initial[f"seat_{index}"] = player.pk
    form = MatchStartForm(request.POST or None, players=roster, initial=initial)
    added, guest_error = None, ""
    if request.method == "POST" and "add_player" in request.POST:
        form, added, guest_error = _add_guest(request, group, roster)
    elif request.method == "POST" and form.is_valid():
        try:
            with idempotency.once(request, action="start", group=group) as sent:
                match = sent.match = services.match_start(
                    group=group, game=form.cleaned_data["game"],
                    players=form.cleaned_data["players"],
                    first_dealer=form.cleaned_data["first_dealer"],
                    options=form.options(), game_night=night, user=request.user,
                )
        except (ValidationError, ScoringError) as err:
            form.add_error(None, error_text(err))
        else:
            return redirect("match_sheet", group_id=group.pk, match_id=match.pk)
    return render(
        request, "companion/sheet/new.html",
        {"group": group, "form": form, "night": night, "games": list(GAMES.values()),
         # The seats (numbered from 1) each game has no player for: hidden while it is chosen.
         "surplus_seats": [
             (info.slug, list(range(info.max_players + 1, len(form.seat_names) + 1)))
             for info in GAMES.values() if info.max_players < len(form.seat_names)
         ],
         "added": added, "guest_error": guest_error},
    )

def _add_guest(
    request: HttpRequest, group: Any, roster: list[Player]
) -> tuple[MatchStartForm, Player | None, str]:
    """The start form's "add to the roster" button: a new player on the next free seat.

    Returns the form (as chosen so far, not yet checked: the match is not started),
    the new player, and the message when the name was refused.
    """
    chosen = {
        name: request.POST.get(name, "") for name in request.POST
        if name not in ("csrfmiddlewaretoken", "add_player")
    }
    try:
        player = group_services.player_add(group=group, name=request.POST.get("new_player", ""))
    except ValidationError as err:
        return MatchStartForm(players=roster, initial=chosen), None, error_text(err)
    chosen["new_player"] = ""
    form = MatchStartForm(players=[*roster, player], initial=chosen)
    free = next((name for name in form.seat_names if not chosen.get(name)), None)
    if free is not None:
        form.initial[free] = player.pk
    roster = sorted([*roster, player], key=lambda p: (p.name.casefold(), p.pk))
    return MatchStartForm(players=roster, initial=form.initial), player, ""

@require_POST
@viewer_required
@idempotency.answers_repeats(
    "undo", saved_already(gettext_lazy("Undone already.")))
def match_undo(request: HttpRequest, group_id: int, match_id: int) -> HttpResponse:
    match = get_match_for_viewer(request, group_id, match_id, write=True)
    try:
        with idempotency.once(request, action="undo", match=match):
            change = deal_services.match_undo(
                match=match,
                change_id=number_from(request.POST, "change", minimum=1, maximum=MAX_ID),
                user=acting(request),
            )
    except (ValidationError, ScoringError) as err:
        return render_sheet(request, sheet_for(match), notice=error_text(err), status=409)
    return sheet_changed(request, match, _("Undone: %(change)s deal %(number)s.") % {
        "change": change.get_kind_display(), "number": change.deal_number,
    })

@require_POST
@viewer_required
@idempotency.answers_repeats(
    "redo", saved_already(gettext_lazy("Redone already.")))
def match_redo(request: HttpRequest, group_id: int, match_id: int) -> HttpResponse:
    match = get_match_for_viewer(request, group_id, match_id, write=True)
    try:
        with idempotency.once(request, action="redo", match=match):
            change = deal_services.match_redo(
                match=match,
                change_id=number_from(request.POST, "change", minimum=1, maximum=MAX_ID),
                user=acting(request),
            )
    except (ValidationError, ScoringError) as err:
        return render_sheet(request, sheet_for(match), notice=error_text(err), status=409)
    return sheet_changed(request, match, _("Redone: %(change)s deal %(number)s.") % {
        "change": change.get_kind_display(), "number": change.deal_number,
    })

@require_POST
@viewer_required
@idempotency.answers_repeats(
    "finish", saved_already(gettext_lazy("The match was finished already.")))
def match_finish(request: HttpRequest, group_id: int, match_id: int) -> HttpResponse:
    match = get_match_for_viewer(request, group_id, match_id, write=True)
    try:
        with idempotency.once(request, action="finish", match=match):
            services.match_finish(match=match, user=acting(request))
    except (ValidationError, ScoringError) as err:
        return render_sheet(request, sheet_for(match), notice=error_text(err), status=409)
    match.refresh_from_db()
    if request.htmx:
        # The sheet, finished, with a way to undo it right where the winners are named.
        return render_sheet(request, sheet_for(match),
                            notice=notices.success(_("Match finished.")), finished_now=True)
    return sheet_changed(request, match, _("Match finished."))

@require_POST
@login_required
@idempotency.answers_repeats(
    "reopen", saved_already(gettext_lazy("The match was reopened already.")))
def match_reopen(request: HttpRequest, group_id: int, match_id: int) -> HttpResponse:
    match = get_match_for_user(request.user, group_id, match_id)
    try:
        was_abandoned = match.status == Match.Status.ABANDONED
        with idempotency.once(request, action="reopen", match=match):
            services.match_reopen(match=match, user=request.user)
    except ValidationError as err:
        return render_sheet(request, sheet_for(match), notice=error_text(err), status=409)
    match.refresh_from_db()
    if was_abandoned:
        return sheet_changed(request, match, _("Match resumed: it is running again."))
    return sheet_changed(request, match, _("Match reopened: you can correct it now."))

@require_POST
@login_required
@idempotency.answers_repeats(
    "abandon", saved_already(gettext_lazy("The match was abandoned already.")))
def match_abandon(request: HttpRequest, group_id: int, match_id: int) -> HttpResponse:
    """Stop a running match: kept in the history as abandoned, left out of the statistics."""
    match = get_match_for_user(request.user, group_id, match_id)
    try:
        with idempotency.once(request, action="abandon", match=match):
            services.match_abandon(match=match, user=request.user)
    except ValidationError as err:
        return render_sheet(request, sheet_for(match), notice=error_text(err), status=409)
    match.refresh_from_db()
    return sheet_changed(request, match, _(
        "Match abandoned. It stays in the history and counts in no statistics."
    ))

def _deleted_already(request: HttpRequest, receipt: ChangeReceipt, *, group_id: int,
                     match_id: int) -> HttpResponse:
    messages.success(request, _("The match was deleted already."))
    target = reverse("group_home", args=[group_id])
    if request.htmx:
        return HttpResponseClientRedirect(target)
    return redirect(target)


@require_POST
@login_required
@idempotency.answers_repeats("delete-match", _deleted_already)
def match_delete(request: HttpRequest, group_id: int, match_id: int) -> HttpResponse:
    """Delete a match for good (the group's owner or the one who started it)."""
    match = get_match_for_user(request.user, group_id, match_id)
    if not services.can_delete(match, request.user):
        raise PermissionDenied(
            _("Only the group's owner and the one who started the match may delete it.")
        )
    if request.POST.get("confirm") != "yes":
        notice = _("Delete the match for good? Tap “Delete for good” to confirm.")
        return render_sheet(request, sheet_for(match), notice=notice, status=409)
    title = match.get_game_display()
    try:
        with idempotency.once(request, action="delete-match", match=match) as sent:
            services.match_delete(match=match, user=request.user)
            sent.match = None  # gone: the receipt keeps the group
    except ValidationError as err:
        return render_sheet(request, sheet_for(match), notice=error_text(err), status=409)
    messages.success(request, _("The match of %(game)s was deleted.") % {"game": title})
    target = reverse("group_home", args=[match.group_id])
    if request.htmx:
        return HttpResponseClientRedirect(target)
    return redirect(target)

@require_POST
@login_required
@idempotency.answers_repeats("rematch", _to_started)
def match_rematch(request: HttpRequest, group_id: int, match_id: int) -> HttpResponse:
    """Start the rematch of a finished match in one tap and land on its sheet."""
    match = get_match_for_user(request.user, group_id, match_id)
    try:
        with idempotency.once(request, action="rematch", match=match) as sent:
            new = sent.match = services.match_rematch(match=match, user=request.user)
    except (ValidationError, ScoringError) as err:
        return render_sheet(request, sheet_for(match), notice=error_text(err), status=409)
    messages.success(request, _("Rematch started."))
    target = reverse("match_sheet", args=[new.group_id, new.pk])
    if request.htmx:
        return HttpResponseClientRedirect(target)
    return redirect(target)

@viewer_required
def match_changes(request: HttpRequest, group_id: int, match_id: int) -> HttpResponse:
    """The match's log ("Verlauf"): every change, who made it and when, undone ones marked;
    a page at a time."""
    match = get_match_for_viewer(request, group_id, match_id)
    page = match_log(match, request.GET.get("page"))
    return render(request, "companion/sheet/log.html", {
        "match": match, "group": match.group, "entries": page.object_list, "page_obj": page,
        # The list counts down from the newest change: this page's first number.
        "first_number": page.paginator.count - page.start_index() + 1,
        "viewer": viewer_of(request),
    })

"""Views of a sheet's deals: record the next deal, preview what it would score, correct
and delete a recorded one.

Thin: check membership (``companion.access``), parse the deal form, call a service in
:mod:`companion.services.deals`, answer as :mod:`companion.views.sheet` describes.
"""

from __future__ import annotations

import contextlib
from typing import Any

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.utils.cache import patch_cache_control
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext
from django.views.decorators.http import require_POST
from django_htmx.http import reswap, trigger_client_event

from companion import idempotency, notices
from companion.access import (
    acting,
    get_match_for_viewer,
    get_seats_for_viewer,
    viewer_of,
    viewer_required,
)
from companion.charts import progression_chart_parts
from companion.forms.sheet import DealForm, named
from companion.games.messages import message_for
from companion.idempotency import new_key
from companion.models import Deal, Match, Seat
from companion.parsing import MAX_POSITIVE, number_from
from companion.selectors.live import LIVE_GAMES, live_cards
from companion.selectors.sheet import (
    Sheet,
    deal_preview_for,
    recorded_as,
    sheet_after_record,
    sheet_for,
)
from companion.services import deals as services
from companion.services.matches import can_delete
from companion.shared_renders import sheets
from companion.views.sheet import (
    PAGE,
    back_to_sheet,
    error_text,
    form_event,
    keep_step,
    new_deal_form,
    preferred_mode,
    remember_mode,
    render_sheet,
    saved_already,
    scores_message,
    sheet_changed,
    viewer_etag,
)
from scoring import ScoringError


@viewer_required
def deal_new(request: HttpRequest, group_id: int, match_id: int) -> HttpResponse:
    """Record the next deal (GET: the form, e.g. in another entry mode)."""
    # The seats come with the match: the form needs them, and the save uses them while
    # nothing changed since (one query for both).
    seats = get_seats_for_viewer(request, group_id, match_id, write=True)
    match = seats[0].match
    if request.method != "POST":
        sheet = sheet_for(match)
        form = new_deal_form(sheet, mode=preferred_mode(request, match.game))
        return render_sheet(request, sheet, form=form, partial="deal-form" if form else "sheet")
    if request.POST.get("switch_mode"):
        sheet = sheet_for(match)
        return render_sheet(request, sheet, form=_switched(request, sheet), partial="deal-form")
    form = DealForm(request.POST, game=match.game, seats=seats, options=match.options)
    if not form.is_valid():
        return render_sheet(request, sheet_for(match), form=form, status=422)
    number = form.cleaned_data.get("number") or match.deals.count() + 1
    if request.POST.get("kept"):
        return _kept(request, match, form, number)
    if _ask_before_empty(match, form):
        return render_sheet(request, sheet_for(match), form=form, status=422)
    # A save with htmx puts its step of the sheet for the phones that watch the match once it
    # is stored: their polls, told of the change when it commits, wait for it (views/sheet.py).
    with sheets.writing(match.pk) if request.htmx else contextlib.nullcontext():
        return _append(request, match, seats, form, number)


def _append(request: HttpRequest, match: Match, seats: list[Seat], form: DealForm,
            number: int) -> HttpResponse:
    """Record ``form`` as deal ``number`` and answer (:func:`deal_new`)."""
    try:
        recorded = services.deal_append(
            match=match, number=number, entries=form.entries, user=acting(request),
            client_key=form.cleaned_data.get("client_key") or None, seats=seats,
        )
    except services.AlreadyRecorded as repeat:
        # The phone sent it again (its answer got lost): it is on the sheet already.
        return sheet_changed(request, match, _("Deal %(number)s was saved already.") % {
            "number": repeat.change.deal_number})
    except services.StaleData as err:
        if recorded_as(match, number, form.entries, seats):
            # Typed on this phone exactly as another phone saved it: nothing is lost.
            return sheet_changed(request, match, _same_entries(number))
        sheet = sheet_for(match)
        data = request.POST.copy()
        data["number"] = str(sheet.next_number)
        kept = new_deal_form(sheet, data=data, mode=form.mode_key)
        notice = error_text(err)
        if kept is not None:
            kept.is_valid()
            notice += " " + _(
                "Your entries are still in the form: save them as deal %(number)s only if "
                "they belong to the next deal."
            ) % {"number": sheet.next_number}
        return render_sheet(request, sheet, form=kept, notice=notice, status=409)
    except (ValidationError, ScoringError) as err:
        form.add_error(None, error_text(err))
        return render_sheet(request, sheet_for(match), form=form, status=422)
    message = scores_message(
        _("Deal %(number)s saved.") % {"number": number},
        ((seat.player.name, recorded.scores[seat.player_id].score) for seat in recorded.seats))
    if not request.htmx:
        messages.success(request, message)  # a cookie: nothing waits for the database now
        response = back_to_sheet(match, saved=number)
    else:
        response = _saved(request, match, recorded, message)
    remember_mode(request, response, match.game, form.mode_key)
    return response

def _same_entries(number: int) -> str:
    return _("Deal %(number)s was saved on another phone with exactly these entries: "
             "nothing to do.") % {"number": number}


def _kept(request: HttpRequest, match: Match, form: DealForm, number: int) -> HttpResponse:
    """A form this phone kept when another phone's save took its deal away (``kept``: sent
    by the phone, not by a tap on "save"): compared with the sheet, never saved.

    Entries that are on the sheet as deal ``number`` already answer 200 (nothing was
    lost); other entries 409 with the sheet, whose ``data-next`` says whether the match
    takes another deal at all (``static/js/queue.js`` offers "as the next deal" only then).
    """
    sheet = sheet_for(match)
    if form.is_empty or recorded_as(match, number, form.entries, sheet.seats):
        return render_sheet(request, sheet, notice=notices.success(_same_entries(number)))
    notice = _("Deal %(number)s was recorded on another phone meanwhile: these entries were "
               "not saved.") % {"number": number}
    if not sheet.can_record:
        notice += " " + _("The match takes no further deal.")
    return render_sheet(request, sheet, notice=notice, status=409)


def _saved(
    request: HttpRequest, match: Match, recorded: services.Recorded, message: str
) -> HttpResponse:
    """The htmx answer to a new deal: the parts of the sheet it changes, out of band.

    Standings and progress, the new row and the totals, the progression, the next
    deal's form (or the finish button), undo, the table mode and the notice; the
    request itself swaps nothing. The new ETag and next deal number travel in the
    ``kr:sheet`` event, which puts them on ``#sheet`` (static/js/sync.js).

    All but the notice and the form is the deal's step of the sheet, rendered once for
    this phone and every phone that watches the match (:func:`keep_step`).

    A page whose form came fresh from the server in the same entry mode says so
    (``KR-Fresh-Form: <mode>``): the next form would be that fresh form again, so it is
    left out and the ``kr:form`` event brings its number, key and heading; sync.js puts
    its copy of the fresh form back with them.
    """
    match.revision = recorded.revision
    sheet = sheet_after_record(match, recorded)
    etag = viewer_etag(request, match, recorded.revision)
    form = new_deal_form(sheet, mode=request.POST.get("mode"))
    fresh_on_page = form is not None and request.headers.get("KR-Fresh-Form") == form.mode_key
    context = {
        "sheet": sheet, "match": match, "group": match.group, "editing": None,
        "form": None if fresh_on_page else form, "next_form": form is not None,
        "notice": notices.success(message), "saved": recorded.deal.number, "oob": True,
        "viewer": viewer_of(request),
        "can_delete": not viewer_of(request).is_guest and can_delete(match, request.user),
        "live_available": match.game in LIVE_GAMES,
        "progression": sheet.progression,
        # The chart's plot anew; its legend (and the markers it defines) stays on the page.
        "chart_plot": progression_chart_parts(sheet.progression, plot_attrs=_PLOT_SWAP)[0],
    }
    # What every phone watching the match gets too (their polls: views/sheet.py).
    context["step"] = keep_step(request, sheet, context)
    response = reswap(render(request, f"{PAGE}#saved", context), "none")
    response["ETag"] = etag
    trigger_client_event(response, "kr:sheet", {"etag": etag, "next": sheet.next_number})
    if fresh_on_page and form is not None:
        trigger_client_event(response, "kr:form", form_event(
            sheet.next_number, mode=form.mode_key, key=form.initial["client_key"]),
            after="swap")
    patch_cache_control(response, private=True, no_store=True)
    return response


_PLOT_SWAP = 'hx-swap-oob="outerHTML:#sheet .progression .kr-plot"'


def _switched(request: HttpRequest, sheet: Sheet) -> DealForm | None:
    """A tap on another entry mode: the form in that mode, keeping what was typed."""
    mode = request.POST.get("switch_mode", "")
    if not mode:
        return None
    return DealForm.switched(request.POST, game=sheet.match.game, seats=sheet.seats, mode=mode)

def _ask_before_empty(match: Match, form: DealForm) -> bool:
    """An all-zero deal is saved only after a "yes": True when the form must ask first."""
    if not form.is_empty or form.cleaned_data.get("confirm_empty"):
        return False
    question = _("Every player has 0 in this deal. Save it like that?")
    cards = live_cards(match)
    if cards:
        question = ngettext(
            "Every player has 0 in this deal, but the live board holds %(cards)s card. "
            "Save the zeros anyway, or put the live board's result on the sheet instead?",
            "Every player has 0 in this deal, but the live board holds %(cards)s cards. "
            "Save the zeros anyway, or put the live board's result on the sheet instead?",
            cards,
        ) % {"cards": cards}
    form.live_cards = cards
    form.empty_question = question
    return True

@require_POST
@viewer_required
def deal_preview(request: HttpRequest, group_id: int, match_id: int) -> HttpResponse:
    """What the deal being typed would score: each player's deal score, new total and
    place, computed by the engine from the form as it stands. Stores nothing.

    htmx (while typing) gets the ``deal-preview`` partial; without JavaScript the
    "Preview" button shows the whole sheet with the form as typed and the preview.
    """
    match = get_match_for_viewer(request, group_id, match_id, write=True)
    sheet = sheet_for(match)
    form = DealForm(request.POST, game=match.game, seats=sheet.seats,
                    options=match.options)
    valid = form.is_valid()
    number = form.cleaned_data.get("number") or sheet.next_number
    editing = next((row.deal for row in sheet.rows if row.deal.number == number), None)
    if valid:
        try:
            form.preview = deal_preview_for(sheet, form.entries, number)
        except ScoringError as err:
            form.preview_hint = message_for(err)
    else:
        owners = {f"s{seat.number}-": seat.player.name for seat in sheet.seats}
        errors = [*form.non_player_errors(), *(
            named(message, seat.player.name)
            for seat in sheet.seats for message in form.seat_errors.get(seat.number, [])
        ), *(named(message, owners.get(name.partition("-")[0] + "-"))
             for name, messages_ in form.errors.items() if name != "__all__"
             for message in messages_)]
        form.preview_hint = errors[0] if errors else _("Some entries are not readable yet.")
    if request.htmx:
        return render(request, f"{PAGE}#deal-preview", {"form": form})
    if editing is not None and sheet.is_open:
        return render_sheet(request, sheet, form=form, editing=editing)
    return render_sheet(request, sheet, form=form if sheet.can_record else None)

def _edit_form(
    sheet: Sheet, deal: Deal, *, mode: str | None = None, data: Any = None
) -> DealForm:
    datas = {score.player_id: score.data for score in deal.scores.all()}
    initial, mode = DealForm.initial_from(
        game=sheet.match.game, seats=sheet.seats, datas=datas, mode=mode
    )
    initial.update(number=deal.number, version=deal.version, client_key=new_key())
    return DealForm(data, game=sheet.match.game, seats=sheet.seats, mode=mode, initial=initial,
                    options=sheet.match.options)

def _deal(match: Match, number: int) -> Deal:
    return get_object_or_404(match.deals.prefetch_related("scores"), number=number)

@viewer_required
@idempotency.answers_repeats(
    "edit", saved_already(gettext_lazy("Deal %(number)s was corrected already.")))
def deal_edit(request: HttpRequest, group_id: int, match_id: int, number: int) -> HttpResponse:
    """Correct a recorded deal; refused when another phone changed it meanwhile."""
    if request.method != "POST" or request.POST.get("switch_mode"):
        match = get_match_for_viewer(request, group_id, match_id, write=True)
        deal = _deal(match, number)
        sheet = sheet_for(match)
        if not sheet.is_open:
            return render_sheet(request, sheet, notice=_finished(), status=409)
        switched = _switched(request, sheet)
        if switched is not None:
            return render_sheet(request, sheet, form=switched, editing=deal, partial="deal-form")
        # The whole sheet answers: the edit form takes the place of the next deal's form,
        # which a complete or reopened match does not have.
        form = _edit_form(sheet, deal, mode=request.GET.get("mode"))
        return render_sheet(request, sheet, form=form, editing=deal)
    # A save: the seats come with the match (one query, as for a new deal); the sheet is
    # made only to answer a refusal (the answer to a save is made after it).
    seats = get_seats_for_viewer(request, group_id, match_id, write=True)
    match = seats[0].match
    deal = get_object_or_404(match.deals, number=number)
    if match.status != Match.Status.OPEN:
        return render_sheet(request, sheet_for(match), notice=_finished(), status=409)
    form = DealForm(request.POST, game=match.game, seats=seats, options=match.options)
    if not form.is_valid() or _ask_before_empty(match, form):
        return render_sheet(request, sheet_for(match), form=form, editing=deal, status=422)
    version = form.cleaned_data.get("version") or 0
    try:
        with idempotency.once(request, action="edit", match=match):
            services.deal_edit(
                match=match, number=number, version=version, entries=form.entries,
                user=acting(request),
            )
    except services.StaleData as err:
        sheet = sheet_for(match)
        current = match.deals.prefetch_related("scores").filter(number=number).first()
        fresh = _edit_form(sheet, current) if current is not None and sheet.is_open else None
        return render_sheet(request, sheet, form=fresh, editing=current if fresh else None,
                       notice=error_text(err), status=409)
    except (ValidationError, ScoringError) as err:
        form.add_error(None, error_text(err))
        return render_sheet(request, sheet_for(match), form=form, editing=deal, status=422)
    return sheet_changed(
        request, match, _("Deal %(number)s corrected.") % {"number": number}, saved=number
    )

def _finished() -> str:
    return _("This match is finished. Reopen it to change it.")

def _version(request: HttpRequest) -> int:
    return number_from(request.POST, "version", minimum=0, maximum=MAX_POSITIVE, default=0)

@require_POST
@viewer_required
@idempotency.answers_repeats(
    "delete", saved_already(gettext_lazy("Deal %(number)s was deleted already.")))
def deal_delete(request: HttpRequest, group_id: int, match_id: int, number: int) -> HttpResponse:
    match = get_match_for_viewer(request, group_id, match_id, write=True)
    deal = _deal(match, number)
    if request.POST.get("confirm") != "yes":
        sheet = sheet_for(match)
        notice = _("Delete deal %(number)s? Tap “Delete for good” to confirm.") % {
            "number": number}
        form = _edit_form(sheet, deal) if sheet.is_open else None
        return render_sheet(request, sheet, form=form, editing=deal if form else None,
                       notice=notice, status=409)
    try:
        with idempotency.once(request, action="delete", match=match):
            services.deal_delete(
                match=match, number=number, version=_version(request), user=acting(request)
            )
    except ValidationError as err:
        return render_sheet(request, sheet_for(match), notice=error_text(err), status=409)
    return sheet_changed(request, match, _("Deal %(number)s deleted.") % {"number": number})

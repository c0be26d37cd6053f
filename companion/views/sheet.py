"""Views of the score sheet: start a match, record / edit / delete deals, undo,
finish, reopen, and the live mode of 3 sind einer zuviel!.

Thin: check membership (``companion.access``), parse a form, call a service in
``companion.services.matches``, render. With htmx every change answers with the
``sheet`` partial of the page (sheet, totals and standings update in place);
without JavaScript a change redirects back to the sheet (POST/redirect/GET) and
a refused change re-renders the whole page with its message.
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse_lazy
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST
from django_htmx.http import reswap, retarget

from companion.access import get_game_night_for_user, get_group_for_user, get_match_for_user
from companion.engine_messages import message_for
from companion.forms.sheet import DealForm, MatchStartForm
from companion.models import Deal, Match, Player, Seat
from companion.selectors.sheet import Sheet, live_board_for, sheet_for
from companion.services import matches as services
from scoring import GAMES, ScoringError

PAGE = "companion/sheet/sheet.html"

TOOLS: dict[str, list[dict[str, Any]]] = {
    "elf-nimmt": [{"url": reverse_lazy("tool_bulls"), "label": gettext_lazy("Bull cards")}],
    "dreizehn": [{"url": reverse_lazy("tool_targets"), "label": gettext_lazy("Targets")}],
}
"""Per game: the table helpers the sheet links to."""


def _error_text(err: ValidationError | ScoringError) -> str:
    if isinstance(err, ScoringError):
        return message_for(err)
    return " ".join(str(message) for message in err.messages)


# ----------------------------------------------------------------- start a match


@login_required
def match_new(request: HttpRequest, group_id: int) -> HttpResponse:
    """Pick the game, the players in seat order, the first dealer and the options."""
    group = get_group_for_user(request.user, group_id)
    night = None
    night_id = request.GET.get("night") or request.POST.get("night")
    if night_id:
        if not str(night_id).isdigit():
            raise Http404
        night = get_game_night_for_user(request.user, group.pk, int(night_id))
    roster = list(Player.objects.filter(group=group).order_by("name", "id"))
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
    if request.method == "POST" and form.is_valid():
        try:
            match = services.match_start(
                group=group, game=form.cleaned_data["game"],
                players=form.cleaned_data["players"],
                first_dealer=form.cleaned_data["first_dealer"],
                options=form.options(), game_night=night,
            )
        except (ValidationError, ScoringError) as err:
            form.add_error(None, _error_text(err))
        else:
            return redirect("match_sheet", group_id=group.pk, match_id=match.pk)
    return render(
        request, "companion/sheet/new.html",
        {"group": group, "form": form, "night": night, "games": list(GAMES.values())},
    )


# ------------------------------------------------------------------------ the sheet


def _new_deal_form(sheet: Sheet, *, mode: str | None = None, data: Any = None) -> DealForm | None:
    if not sheet.can_record:
        return None
    form = DealForm(
        data, game=sheet.match.game, seats=sheet.seats, mode=mode,
        initial={"number": sheet.next_number},
    )
    return form


def _edit_form(
    sheet: Sheet, deal: Deal, *, mode: str | None = None, data: Any = None
) -> DealForm:
    datas = {score.player_id: score.data for score in deal.scores.all()}
    initial, mode = DealForm.initial_from(
        game=sheet.match.game, seats=sheet.seats, datas=datas, mode=mode
    )
    initial.update(number=deal.number, version=deal.version)
    return DealForm(data, game=sheet.match.game, seats=sheet.seats, mode=mode, initial=initial)


def _render(
    request: HttpRequest, sheet: Sheet, *, form: DealForm | None = None,
    editing: Deal | None = None, notice: str = "", partial: str = "sheet", status: int = 200,
) -> HttpResponse:
    if form is None and editing is None:
        form = _new_deal_form(sheet, mode=request.GET.get("mode"))
    context = {
        "sheet": sheet, "match": sheet.match, "group": sheet.match.group, "form": form,
        "editing": editing, "notice": notice,
        "live_available": sheet.match.game in services.LIVE_GAMES,
        "tools": TOOLS.get(sheet.match.game, []),
        "progression": sheet.progression,
        # ?view=table: the sheet opens in table mode (the no-JavaScript way in).
        "table_view": request.GET.get("view") == "table",
    }
    if not request.htmx:
        return render(request, PAGE, context, status=status)
    # The status stays: a refused save answers 409 (422 for bad input) to htmx too;
    # base.html's htmx-config swaps those answers in.
    response = render(request, f"{PAGE}#{partial}", context, status=status)
    if partial == "sheet":
        # Whatever asked (a row's edit link, a mode switch), the whole sheet answers.
        response = reswap(retarget(response, "#sheet"), "outerHTML")
    return response


def _back(match: Match) -> HttpResponse:
    return redirect("match_sheet", group_id=match.group_id, match_id=match.pk)


def _done(request: HttpRequest, match: Match, message: str = "") -> HttpResponse:
    """After a successful change: the sheet partial (htmx) or a redirect to the sheet."""
    if request.htmx:
        return _render(request, sheet_for(match), notice=message)
    if message:
        messages.success(request, message)
    return _back(match)


@login_required
def match_sheet(request: HttpRequest, group_id: int, match_id: int) -> HttpResponse:
    match = get_match_for_user(request.user, group_id, match_id)
    return _render(request, sheet_for(match))


@login_required
def deal_new(request: HttpRequest, group_id: int, match_id: int) -> HttpResponse:
    """Record the next deal (GET: the form, e.g. in another entry mode)."""
    match = get_match_for_user(request.user, group_id, match_id)
    if request.method != "POST":
        sheet = sheet_for(match)
        form = _new_deal_form(sheet, mode=request.GET.get("mode"))
        return _render(request, sheet, form=form, partial="deal-form" if form else "sheet")
    sheet = sheet_for(match)
    form = DealForm(request.POST, game=match.game, seats=sheet.seats)
    if not form.is_valid():
        return _render(request, sheet, form=form, status=422)
    number = form.cleaned_data.get("number") or sheet.next_number
    try:
        services.deal_record(match=match, number=number, entries=form.entries, user=request.user)
    except services.StaleData as err:
        sheet = sheet_for(match)
        data = request.POST.copy()
        data["number"] = str(sheet.next_number)
        kept = _new_deal_form(sheet, data=data, mode=form.mode_key)
        notice = _error_text(err)
        if kept is not None:
            kept.is_valid()
            notice += " " + _(
                "Your entries are still in the form: save them as deal %(number)s only if "
                "they belong to the next deal."
            ) % {"number": sheet.next_number}
        return _render(request, sheet, form=kept, notice=notice, status=409)
    except (ValidationError, ScoringError) as err:
        form.add_error(None, _error_text(err))
        return _render(request, sheet_for(match), form=form, status=422)
    return _done(request, match, _("Deal %(number)s saved.") % {"number": number})


def _deal(match: Match, number: int) -> Deal:
    return get_object_or_404(match.deals.prefetch_related("scores"), number=number)


@login_required
def deal_edit(request: HttpRequest, group_id: int, match_id: int, number: int) -> HttpResponse:
    """Correct a recorded deal; refused when another phone changed it meanwhile."""
    match = get_match_for_user(request.user, group_id, match_id)
    deal = _deal(match, number)
    sheet = sheet_for(match)
    if not sheet.is_open:
        notice = _("This match is finished. Reopen it to change it.")
        return _render(request, sheet, notice=notice, status=409)
    if request.method != "POST":
        form = _edit_form(sheet, deal, mode=request.GET.get("mode"))
        return _render(request, sheet, form=form, editing=deal, partial="deal-form")
    form = DealForm(request.POST, game=match.game, seats=sheet.seats)
    if not form.is_valid():
        return _render(request, sheet, form=form, editing=deal, status=422)
    version = form.cleaned_data.get("version") or 0
    try:
        services.deal_edit(
            match=match, number=number, version=version, entries=form.entries,
            user=request.user,
        )
    except services.StaleData as err:
        sheet = sheet_for(match)
        current = match.deals.prefetch_related("scores").filter(number=number).first()
        fresh = _edit_form(sheet, current) if current is not None and sheet.is_open else None
        return _render(request, sheet, form=fresh, editing=current if fresh else None,
                       notice=_error_text(err), status=409)
    except (ValidationError, ScoringError) as err:
        form.add_error(None, _error_text(err))
        return _render(request, sheet_for(match), form=form, editing=deal, status=422)
    return _done(request, match, _("Deal %(number)s corrected.") % {"number": number})


def _version(request: HttpRequest) -> int:
    value = request.POST.get("version", "")
    return int(value) if value.isdigit() else 0


@require_POST
@login_required
def deal_delete(request: HttpRequest, group_id: int, match_id: int, number: int) -> HttpResponse:
    match = get_match_for_user(request.user, group_id, match_id)
    _deal(match, number)
    try:
        services.deal_delete(
            match=match, number=number, version=_version(request), user=request.user
        )
    except ValidationError as err:
        return _render(request, sheet_for(match), notice=_error_text(err), status=409)
    return _done(request, match, _("Deal %(number)s deleted.") % {"number": number})


@require_POST
@login_required
def match_undo(request: HttpRequest, group_id: int, match_id: int) -> HttpResponse:
    match = get_match_for_user(request.user, group_id, match_id)
    raw = request.POST.get("change", "")
    try:
        change = services.match_undo(
            match=match, change_id=int(raw) if raw.isdigit() else None, user=request.user
        )
    except (ValidationError, ScoringError) as err:
        return _render(request, sheet_for(match), notice=_error_text(err), status=409)
    return _done(request, match, _("Undone: %(change)s deal %(number)s.") % {
        "change": change.get_kind_display(), "number": change.deal_number,
    })


@require_POST
@login_required
def match_finish(request: HttpRequest, group_id: int, match_id: int) -> HttpResponse:
    match = get_match_for_user(request.user, group_id, match_id)
    try:
        services.match_finish(match=match)
    except (ValidationError, ScoringError) as err:
        return _render(request, sheet_for(match), notice=_error_text(err), status=409)
    match.refresh_from_db()
    return _done(request, match, _("Match finished."))


@require_POST
@login_required
def match_reopen(request: HttpRequest, group_id: int, match_id: int) -> HttpResponse:
    match = get_match_for_user(request.user, group_id, match_id)
    try:
        services.match_reopen(match=match)
    except ValidationError as err:
        return _render(request, sheet_for(match), notice=_error_text(err), status=409)
    match.refresh_from_db()
    return _done(request, match, _("Match reopened: you can correct it now."))


# ---------------------------------------------------------------------- live mode


@login_required
def match_live(request: HttpRequest, group_id: int, match_id: int) -> HttpResponse:
    """Record while playing: 3 sind einer zuviel! card by card, Freaky row by row."""
    match = get_match_for_user(request.user, group_id, match_id)
    if match.game not in services.LIVE_GAMES:
        raise Http404
    notice = ""
    if request.method == "POST":
        try:
            saved = _live_step(request, match)
        except (ValidationError, ScoringError) as err:
            notice = _error_text(err)
        else:
            if saved:
                return _done(request, match, _("The live result is on the sheet."))
            if not request.htmx:
                return redirect("match_live", group_id=match.group_id, match_id=match.pk)
        match.refresh_from_db()
    context = {"match": match, "group": match.group, "board": live_board_for(match),
               "notice": notice}
    template = "companion/sheet/live.html#board" if request.htmx else "companion/sheet/live.html"
    status = 409 if notice else 200
    return render(request, template, context, status=status)


def _live_step(request: HttpRequest, match: Match) -> bool:
    """Apply one live step from the POST data; True when the result went onto the sheet."""
    raw = request.POST.get("revision", "")
    revision = int(raw) if raw.isdigit() else -1
    action = request.POST.get("action", "take")
    if action == "save":
        services.live_save(match=match, revision=revision, user=request.user)
        return True
    if action == "end":
        services.live_end_turn(match=match, revision=revision)
    elif action == "collect":
        raw_cards = request.POST.get("cards", "")
        if not raw_cards.isdigit():
            raise ValidationError(_("How many cards did the row have?"), code="cards")
        raw_player = request.POST.get("player", "")
        services.live_collect(
            match=match, player_id=int(raw_player) if raw_player.isdigit() else 0,
            cards=int(raw_cards), revision=revision,
        )
    elif action == "undo":
        services.live_undo(match=match, revision=revision)
    else:
        raw_player = request.POST.get("player", "")
        services.live_take(
            match=match, player_id=int(raw_player) if raw_player.isdigit() else 0,
            colour=request.POST.get("colour", ""), revision=revision,
        )
    return False

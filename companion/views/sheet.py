"""The score sheet page and its poll, and how every change of the sheet answers.

Every phone showing a sheet polls it (htmx, every 2 s while the page is visible,
static/js/sync.js) with the ETag of the sheet it shows; an unchanged sheet answers 304
without a body (:func:`sheet_etag` with Django's ``condition``), after the same login
check as every other view. The changes themselves are in :mod:`companion.views.deals`,
:mod:`companion.views.matches` and :mod:`companion.views.live`; with htmx they answer
with the ``sheet`` partial (sheet, totals and standings update in place), without
JavaScript they redirect back to the sheet (POST/redirect/GET), and a refused change
shows the whole page with its message.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable
from typing import Any
from urllib.parse import urlencode

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse, reverse_lazy
from django.utils.cache import patch_cache_control, patch_vary_headers, quote_etag
from django.utils.translation import get_language, gettext_lazy
from django.utils.translation import gettext as _
from django.views.decorators.http import condition
from django_htmx.http import reswap, retarget

from companion import notices
from companion.access import get_match_for_user
from companion.engine_messages import message_for
from companion.forms.sheet import SEAT_FIELD, DealForm
from companion.models import Match
from companion.notices import Notice
from companion.parsing import MAX_SMALL, number_from
from companion.selectors.live import LIVE_GAMES
from companion.selectors.sheet import Sheet, sheet_for
from companion.services.matches import can_delete
from companion.turns import rematch_plan
from scoring import ScoringError

PAGE = "companion/sheet/sheet.html"

TOOLS: dict[str, list[dict[str, Any]]] = {
    "elf-nimmt": [{"url": reverse_lazy("tool_bulls"), "label": gettext_lazy("Bull cards")}],
    "dreizehn": [{"url": reverse_lazy("tool_targets"), "label": gettext_lazy("Targets")}],
}
"""Per game: the table helpers the sheet links to."""


def error_text(err: ValidationError | ScoringError) -> str:
    """A refusal of the engine or of a service, as the sentence the page shows."""
    if isinstance(err, ScoringError):
        return message_for(err)
    return " ".join(str(message) for message in err.messages)


def _match_query(sheet: Sheet) -> dict[str, str]:
    """The match's players (seat order) and variant, as the rules pages read them."""
    query = {"players": ",".join(seat.player.name for seat in sheet.seats)}
    variant = sheet.match.options.get("variant")
    if isinstance(variant, str) and variant:
        query["variant"] = variant
    return query


def _tools(sheet: Sheet) -> list[dict[str, Any]]:
    """The game's table helpers, opened with the match's players and variant and a
    way back to this sheet (where their result can be taken over)."""
    query = urlencode({
        **_match_query(sheet),
        "back": reverse("match_sheet", args=[sheet.match.group_id, sheet.match.pk]),
    })
    return [{**tool, "url": f"{tool['url']}?{query}"} for tool in TOOLS.get(sheet.match.game, [])]


def _dispute_url(sheet: Sheet) -> str:
    """The game's legality check with the match's players and variant filled in."""
    return f"{reverse('rules_check', args=[sheet.match.game])}?{urlencode(_match_query(sheet))}"


def sheet_etag(request: HttpRequest, revision: int) -> str:
    """The ETag of the sheet (or live board) a user sees at ``revision``: the match's change
    counter, moved on by every change; the language and the user, whose pages differ."""
    return quote_etag(f"{revision}.{get_language()}.{request.user.pk}")


def poll_etag(request: HttpRequest, group_id: int, match_id: int) -> str | None:
    """For ``condition``: the ETag of the sheet an htmx poll would get, if the user may see
    the match (otherwise none, and the view answers 404 as usual). Only a poll that names
    the sheet it shows (``If-None-Match``) is asked: full pages are never answered 304."""
    if not request.htmx or "If-None-Match" not in request.headers:
        return None
    revision = (
        Match.objects.filter(pk=match_id, group__pk=group_id, group__memberships__user=request.user)
        .values_list("revision", flat=True).first()
    )
    return None if revision is None else sheet_etag(request, revision)


def new_deal_form(
    sheet: Sheet, *, mode: str | None = None, data: Any = None, key: str | None = None
) -> DealForm | None:
    """The form of the next deal, or None when the match takes no further deal."""
    if not sheet.can_record:
        return None
    return DealForm(
        data, game=sheet.match.game, seats=sheet.seats, mode=mode,
        # A key per form: the same send arriving twice (a double tap, a lost answer)
        # is recorded once. The offline queue gives every queued deal a key of its own.
        initial={"number": sheet.next_number, "client_key": key or uuid.uuid4().hex},
    )


def sheet_context(
    request: HttpRequest, sheet: Sheet, *, form: DealForm | None = None,
    editing: Any = None, notice: str | Notice = "", saved: int | None = None,
) -> dict[str, Any]:
    """What the sheet page and its partials show of ``sheet`` for this request."""
    match = sheet.match
    if form is None and editing is None:
        # After a saved deal the next one opens in the entry mode just used (card grid …).
        form = new_deal_form(sheet, mode=request.GET.get("mode") or request.POST.get("mode"))
    if isinstance(notice, str) and notice:
        notice = notices.warning(notice)
    return {
        "sheet": sheet, "match": match, "group": match.group, "form": form,
        "editing": editing, "notice": notice, "saved": saved,
        "can_delete": can_delete(match, request.user),
        "rematch": (rematch_plan(match, sheet.seats, sheet.last_scores)
                    if sheet.is_finished else None),
        "live_available": match.game in LIVE_GAMES,
        "tools": _tools(sheet),
        "dispute_url": _dispute_url(sheet) if sheet.is_open else "",
        "progression": sheet.progression,
        # ?view=table: the sheet opens in table mode (the no-JavaScript way in).
        "table_view": request.GET.get("view") == "table",
        # The match was read before the sheet: this ETag is never newer than what is shown.
        "etag": sheet_etag(request, match.revision),
    }


def render_sheet(
    request: HttpRequest, sheet: Sheet, *, form: DealForm | None = None,
    editing: Any = None, notice: str | Notice = "", partial: str = "sheet",
    status: int = 200, saved: int | None = None,
) -> HttpResponse:
    """The sheet page, or for htmx its ``partial`` (the whole ``#sheet`` by default)."""
    context = sheet_context(request, sheet, form=form, editing=editing, notice=notice,
                            saved=saved)
    if not request.htmx:
        response = render(request, PAGE, context, status=status)
        patch_vary_headers(response, ["HX-Request"])
        return response
    # The status stays: a refused save answers 409 (422 for bad input) to htmx too;
    # base.html's htmx-config swaps those answers in.
    response = render(request, f"{PAGE}#{partial}", context, status=status)
    if partial == "sheet":
        # Whatever asked (a row's edit link, a mode switch), the whole sheet answers.
        response = reswap(retarget(response, "#sheet"), "outerHTML")
        response["ETag"] = context["etag"]
    patch_cache_control(response, private=True, no_store=True)
    return response


def back_to_sheet(match: Match, *, saved: int | None = None) -> HttpResponse:
    """The redirect to the sheet after a change; ``saved`` (a deal just recorded or
    corrected, marked on the sheet) travels in the URL: nothing is written to the session
    after the change is stored (a session write waiting for the database's lock could
    fail the request of a change that was saved)."""
    url = reverse("match_sheet", args=[match.group_id, match.pk])
    return redirect(f"{url}?{urlencode({'saved': saved})}" if saved else url)


def sheet_changed(
    request: HttpRequest, match: Match, message: str = "", *, saved: int | None = None
) -> HttpResponse:
    """After a successful change: the sheet partial (htmx) or a redirect to the sheet.

    ``saved`` is the number of a deal just recorded or corrected: its row is
    marked and the notice says what it scored.
    """
    if request.htmx:
        match.refresh_from_db(fields=["revision", "status"])  # the ETag the answer carries
    sheet = sheet_for(match) if request.htmx or saved else None
    if sheet is not None and saved:
        message = with_scores(sheet, saved, message)
    if request.htmx and sheet is not None:
        return render_sheet(request, sheet, notice=notices.success(message), saved=saved)
    if message:
        messages.success(request, message)  # a cookie (settings.MESSAGE_STORAGE), no session
    return back_to_sheet(match, saved=saved)


def saved_already(message: str) -> Callable[..., HttpResponse]:
    """The answer of :func:`companion.idempotency.answers_repeats` for a change of a sheet:
    the sheet with ``message`` (e.g. "The match was finished already.")."""

    def answer(request: HttpRequest, receipt: Any, *, group_id: int, match_id: int,
               **kwargs: Any) -> HttpResponse:
        match = get_match_for_user(request.user, group_id, match_id)
        return sheet_changed(request, match, str(message) % kwargs)

    return answer


def with_scores(sheet: Sheet, number: int, message: str) -> str:
    """``message`` followed by the deal's scores, e.g. "Deal 2 saved. Scores: Anna 5, Ben 3."."""
    row = next((row for row in sheet.rows if row.deal.number == number), None)
    if row is None:
        return message
    scores = ", ".join(
        f"{seat.player.name} {cell.score}"
        for seat, cell in zip(sheet.seats, row.cells, strict=True)
    )
    return _("%(message)s Scores: %(scores)s.") % {"message": message, "scores": scores}


@login_required
@condition(etag_func=poll_etag)
def match_sheet(request: HttpRequest, group_id: int, match_id: int) -> HttpResponse:
    """The score sheet; a poll of an unchanged sheet gets 304 (:func:`poll_etag`).

    A table helper may hand values over in the URL (``?s0-yellow=3``): they are put into
    the next deal's form (:func:`_prefilled`)."""
    match = get_match_for_user(request.user, group_id, match_id)
    number = None if request.htmx else _saved_number(request)
    sheet = sheet_for(match)
    prefilled, notice = _prefilled(request, sheet)
    return render_sheet(request, sheet, saved=number, form=prefilled, notice=notice)


def _saved_number(request: HttpRequest) -> int | None:
    """``?saved=3``: the deal just saved (:func:`back_to_sheet`), marked on the sheet; a
    damaged number marks nothing."""
    try:
        return number_from(request.GET, "saved", minimum=1, maximum=MAX_SMALL)
    except ValidationError:
        return None


def _prefilled(request: HttpRequest, sheet: Sheet) -> tuple[DealForm | None, Notice | str]:
    """The next deal's form with values handed over in the URL (a table helper's
    "take over into the score sheet", e.g. ``?s0-yellow=3&s1-red=1``).

    Each value is read by its own field like typed input; values that do not fit
    are left out and named in the notice. The engine checks the whole deal on save.
    """
    keys = [key for key in request.GET if SEAT_FIELD.match(key) or key == "went_out"]
    if not keys:
        return None, ""
    if not sheet.can_record:
        return None, _("The values from the link were not taken over: this match takes "
                       "no further deal.")
    blank = new_deal_form(sheet, mode=request.GET.get("mode"))
    if blank is None:
        return None, ""
    initial: dict[str, Any] = {"number": sheet.next_number}
    left_out: list[str] = []
    for key in keys:
        field = blank.fields.get(key)
        if field is None:
            left_out.append(key)
            continue
        try:
            initial[key] = field.clean(field.widget.value_from_datadict(request.GET, {}, key))
        except ValidationError:
            left_out.append(key)
    form = DealForm(game=sheet.match.game, seats=sheet.seats, mode=blank.mode_key,
                    initial=initial)
    form.prefilled = True
    if left_out:
        return form, _(
            "Some values from the link do not fit this deal and were left out: %(fields)s."
        ) % {"fields": ", ".join(sorted(left_out))}
    return form, notices.success(
        _("Taken over into the deal form: check the values, then save the deal.")
    )

"""Views of the score sheet: start a match, record / edit / delete deals, undo / redo,
finish, reopen, abandon, delete, rematch, the match's log, and the live mode of
3 sind einer zuviel! and Freaky.

Thin: check membership (``companion.access``), parse a form, call a service in
``companion.services.matches``, render. With htmx every change answers with the
``sheet`` partial of the page (sheet, totals and standings update in place);
without JavaScript a change redirects back to the sheet (POST/redirect/GET) and
a refused change re-renders the whole page with its message.
"""

from __future__ import annotations

import functools
import hashlib
import hmac
import html
import json
import re
import uuid
from typing import Any
from urllib.parse import urlencode

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import connection
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseNotModified
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.urls import get_script_prefix, reverse, reverse_lazy
from django.utils.cache import patch_cache_control, patch_vary_headers
from django.utils.crypto import constant_time_compare
from django.utils.functional import SimpleLazyObject
from django.utils.http import parse_etags
from django.utils.translation import get_language, gettext_lazy, ngettext
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST
from django_htmx.http import (
    HttpResponseClientRedirect,
    reswap,
    retarget,
    trigger_client_event,
)

from companion import notices
from companion.access import get_game_night_for_user, get_group_for_user, get_match_for_user
from companion.charts import progression_chart_parts
from companion.engine_messages import message_for
from companion.forms.sheet import SEAT_FIELD, DealForm, MatchStartForm, named
from companion.models import Deal, Match, Membership, Player, Seat
from companion.notices import Notice
from companion.parsing import (
    MAX_ID,
    MAX_POSITIVE,
    MAX_SMALL,
    id_from,
    number_from,
    parse_whole_number,
)
from companion.selectors.sheet import (
    Sheet,
    deal_preview_for,
    live_board_for,
    match_log,
    rematch_plan,
    sheet_after_record,
    sheet_for,
)
from companion.services import groups as group_services
from companion.services import matches as services
from scoring import GAMES, ScoringError

PAGE = "companion/sheet/sheet.html"

TOOLS: dict[str, list[dict[str, Any]]] = {
    "elf-nimmt": [{"url": reverse_lazy("tool_bulls"), "label": gettext_lazy("Bull cards")}],
    "dreizehn": [{"url": reverse_lazy("tool_targets"), "label": gettext_lazy("Targets")}],
}
"""Per game: the table helpers the sheet links to."""


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
    night_id = id_from(request.GET, "night") or id_from(request.POST, "night")
    if night_id:
        night = get_game_night_for_user(request.user, group.pk, night_id)
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
    added, guest_error = None, ""
    if request.method == "POST" and "add_player" in request.POST:
        form, added, guest_error = _add_guest(request, group, roster)
    elif request.method == "POST" and form.is_valid():
        try:
            match = services.match_start(
                group=group, game=form.cleaned_data["game"],
                players=form.cleaned_data["players"],
                first_dealer=form.cleaned_data["first_dealer"],
                options=form.options(), game_night=night, user=request.user,
            )
        except (ValidationError, ScoringError) as err:
            form.add_error(None, _error_text(err))
        else:
            return redirect("match_sheet", group_id=group.pk, match_id=match.pk)
    return render(
        request, "companion/sheet/new.html",
        {"group": group, "form": form, "night": night, "games": list(GAMES.values()),
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
        return MatchStartForm(players=roster, initial=chosen), None, _error_text(err)
    chosen["new_player"] = ""
    form = MatchStartForm(players=[*roster, player], initial=chosen)
    free = next((name for name in form.seat_names if not chosen.get(name)), None)
    if free is not None:
        form.initial[free] = player.pk
    roster = sorted([*roster, player], key=lambda p: (p.name.casefold(), p.pk))
    return MatchStartForm(players=roster, initial=form.initial), player, ""


# ------------------------------------------------------------------------ the sheet


def _new_deal_form(
    sheet: Sheet, *, mode: str | None = None, data: Any = None, key: str | None = None
) -> DealForm | None:
    if not sheet.can_record:
        return None
    form = DealForm(
        data, game=sheet.match.game, seats=sheet.seats, mode=mode,
        # A key per form: the same send arriving twice (a double tap, a lost answer)
        # is recorded once. The offline queue gives every queued deal a key of its own.
        initial={"number": sheet.next_number, "client_key": key or uuid.uuid4().hex},
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
    editing: Deal | None = None, notice: str | Notice = "", partial: str = "sheet",
    status: int = 200, saved: int | None = None,
    match: Match | None = None, revision_key: tuple[Any, ...] | None = None,
) -> HttpResponse:
    """The sheet page (or its ``partial``) for ``sheet``.

    With a ``revision_key`` (``_revision_key``), the sheet's parts are kept per key
    (templatetags/revision_parts.py): ``sheet`` may then be a lazy object, and what
    the page shows of it is computed only when a part is not kept yet.
    """
    match = sheet.match if match is None else match
    # The fresh form's key: a hole of a kept part, so every page gets its own.
    client_key = uuid.uuid4().hex

    def later(compute: Any) -> Any:
        return compute() if revision_key is None else SimpleLazyObject(compute)

    if form is None and editing is None:
        # After a saved deal the next one opens in the entry mode just used (card grid …).
        mode = request.GET.get("mode") or request.POST.get("mode")
        form = later(lambda: _new_deal_form(sheet, mode=mode, key=client_key))
    if isinstance(notice, str) and notice:
        notice = notices.warning(notice)
    context = {
        "sheet": sheet, "match": match, "group": match.group, "form": form,
        "editing": editing, "notice": notice, "saved": saved,
        "can_delete": services.can_delete(match, request.user),
        "rematch": later(lambda: (
            rematch_plan(sheet.match, sheet.seats, sheet.last_scores)
            if sheet.is_finished else None
        )),
        "live_available": match.game in services.LIVE_GAMES,
        "tools": later(lambda: _tools(sheet)),
        "dispute_url": later(lambda: _dispute_url(sheet) if sheet.is_open else ""),
        "progression": later(lambda: sheet.progression),
        # ?view=table: the sheet opens in table mode (the no-JavaScript way in).
        "table_view": request.GET.get("view") == "table",
        # The match was read before the sheet: this ETag is never newer than what is shown.
        "etag": _etag(request, match.pk, match.revision),
        "revision_key": revision_key, "client_key": client_key,
    }
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


# ------------------------------------------------------------------ live updates
#
# Every phone showing a sheet polls it (htmx, every 2 s while the page is visible,
# static/js/sync.js) and sends the ETag of the sheet it shows:
# ``"<revision>.<language>.<user id>.<seal>"``. The revision is the match's change
# counter (moved on by every change, ``services.touch``); the seal signs match,
# user and the session cookie with the secret key. So a poll of an unchanged sheet
# is answered 304 without a body from one indexed read (is the user still a
# member, is the revision the same), before the session or the user is loaded and
# before anything is rendered. Anything else (no seal, another session, another
# language, a change, a user no longer in the group) takes the normal path: the
# login check, 404 for outsiders, the sheet.


REVISION_SQL = (
    f"SELECT m.revision FROM {Match._meta.db_table} m"
    f" INNER JOIN {Membership._meta.db_table} s ON s.group_id = m.group_id"
    " WHERE m.id = %s AND m.group_id = %s AND s.user_id = %s"
)
"""The match's revision, if the user is a member of its group: the ORM's query building
would cost as much as everything else of a 304 together (bench/web.py), so it is SQL."""


@functools.lru_cache(maxsize=2)
def _seal_key(secret: str) -> bytes:
    return hashlib.sha256(b"companion.sheet-etag" + secret.encode()).digest()


def _seal(request: HttpRequest, match_id: int, user_id: int) -> str:
    session = request.COOKIES.get(settings.SESSION_COOKIE_NAME, "")
    message = f"{match_id}:{user_id}:{session}".encode()
    return hmac.new(_seal_key(settings.SECRET_KEY), message, hashlib.sha256).hexdigest()[:20]


def _etag(request: HttpRequest, match_id: int, revision: int) -> str:
    user_id = int(request.user.pk or 0)
    return f'"{revision}.{get_language()}.{user_id}.{_seal(request, match_id, user_id)}"'


def _unchanged(request: HttpRequest, group_id: int, match_id: int) -> HttpResponse | None:
    """304 when the poll's ``If-None-Match`` is the current ETag of this user's sheet."""
    for etag in parse_etags(request.headers.get("If-None-Match", ""))[:4]:
        parts = etag.removeprefix("W/").strip('"').split(".")
        if len(parts) != 4:
            continue
        revision, language, user_id, seal = parts
        try:
            parse_whole_number(revision, minimum=0, maximum=MAX_POSITIVE)
            user = parse_whole_number(user_id, minimum=0, maximum=MAX_ID)
        except ValidationError:
            continue
        if language != get_language() or not constant_time_compare(
            seal, _seal(request, match_id, user)
        ):
            continue
        with connection.cursor() as cursor:
            cursor.execute(REVISION_SQL, [match_id, group_id, user])
            current = cursor.fetchone()
        if current is not None and str(current[0]) == revision:
            response = HttpResponseNotModified()
            response["ETag"] = f'"{".".join(parts)}"'
            response["Cache-Control"] = "private, no-store"
            return response
        return None
    return None


def _back(match: Match) -> HttpResponse:
    return redirect("match_sheet", group_id=match.group_id, match_id=match.pk)


def _done(
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
        message = _with_scores(sheet, saved, message)
    if request.htmx and sheet is not None:
        return _render(request, sheet, notice=notices.success(message), saved=saved)
    if message:
        messages.success(request, message)
    if saved:
        request.session["saved_deal"] = [match.pk, saved]
    return _back(match)


def _with_scores(sheet: Sheet, number: int, message: str) -> str:
    """``message`` followed by the deal's scores, e.g. "Deal 2 saved. Scores: Anna 5, Ben 3."."""
    row = next((row for row in sheet.rows if row.deal.number == number), None)
    if row is None:
        return message
    scores = ", ".join(
        f"{seat.player.name} {cell.score}"
        for seat, cell in zip(sheet.seats, row.cells, strict=True)
    )
    return _("%(message)s Scores: %(scores)s.") % {"message": message, "scores": scores}


def match_sheet(request: HttpRequest, group_id: int, match_id: int) -> HttpResponse:
    """The score sheet; a poll of an unchanged sheet gets 304 (see ``_unchanged``)."""
    if request.htmx and "If-None-Match" in request.headers:
        not_modified = _unchanged(request, group_id, match_id)
        if not_modified is not None:
            return not_modified
    return _sheet_page(request, group_id, match_id)


@login_required
def _sheet_page(request: HttpRequest, group_id: int, match_id: int) -> HttpResponse:
    match = get_match_for_user(request.user, group_id, match_id)
    saved = request.session.pop("saved_deal", None) if not request.htmx else None
    number = saved[1] if isinstance(saved, list) and saved[:1] == [match.pk] else None
    if not any(SEAT_FIELD.match(key) or key == "went_out" for key in request.GET):
        # The usual load: the sheet's parts are kept per revision and viewer, so the
        # sheet is read (lazily) only when they are not kept yet.
        with connection.cursor() as cursor:
            cursor.execute(ROSTER_SQL, [match.group_id])
            roster = tuple(map(tuple, cursor.fetchall()))
        sheet: Any = SimpleLazyObject(functools.partial(sheet_for, match, roster=roster))
        return _render(request, sheet, saved=number, match=match,
                       revision_key=_revision_key(request, match, roster, number))
    sheet = sheet_for(match)
    prefilled, notice = _prefilled(request, sheet)
    return _render(request, sheet, saved=number, form=prefilled, notice=notice)


ROSTER_SQL = (
    f"SELECT id, colour, name FROM {Player._meta.db_table} WHERE group_id = %s ORDER BY id"
)
"""The group's players as the sheet's colours and the kept parts' key need them (SQL: the
ORM's query building cost a tenth of a repeat load)."""


def _revision_key(
    request: HttpRequest, match: Match, roster: tuple[Any, ...], saved: int | None
) -> tuple[Any, ...]:
    """What the sheet's kept parts are kept under: everything their markup depends on.

    The match's ``revision`` (read with the match on this request) moves on with
    every change of its deals, seats and log (``services.matches.touch``); the
    match's own columns, the group's name, the night's date and the roster's names
    and colours (``roster``: a seated player's default colour depends on the whole
    roster) are read anyway or in one query; the rest is the request: language, URL prefix and
    host (the QR code), htmx or not, table view, entry mode, the row just saved and
    whether this user may delete the match. The CSRF token, the form's key, the
    ETag and the notice are holes of the parts, rendered per request.
    """
    return (
        # created_at too: a match id can come again (a rolled-back transaction on SQLite).
        match.pk, match.created_at, match.revision, match.status, match.game, match.first_dealer,
        json.dumps(match.options, sort_keys=True, default=str), match.finished_at,
        match.created_by_id, match.game_night_id, match.game_night.date, match.group.name,
        roster, get_language(), get_script_prefix(), request.build_absolute_uri("/"),
        bool(request.htmx), request.GET.get("view") == "table", request.GET.get("mode", ""),
        saved, services.can_delete(match, request.user),
    )


@login_required
def deal_new(request: HttpRequest, group_id: int, match_id: int) -> HttpResponse:
    """Record the next deal (GET: the form, e.g. in another entry mode)."""
    match = get_match_for_user(request.user, group_id, match_id)
    if request.method != "POST":
        sheet = sheet_for(match)
        form = _new_deal_form(sheet, mode=request.GET.get("mode"))
        return _render(request, sheet, form=form, partial="deal-form" if form else "sheet")
    if request.POST.get("switch_mode"):
        sheet = sheet_for(match)
        return _render(request, sheet, form=_switched(request, sheet), partial="deal-form")
    # The seats are read once: for the form, and by the save while nothing changed since.
    seats = list(match.seats.select_related("player").order_by("number"))
    form = DealForm(request.POST, game=match.game, seats=seats)
    if not form.is_valid():
        return _render(request, sheet_for(match), form=form, status=422)
    if _ask_before_empty(match, form):
        return _render(request, sheet_for(match), form=form, status=422)
    number = form.cleaned_data.get("number") or match.deals.count() + 1
    try:
        recorded = services.deal_append(
            match=match, number=number, entries=form.entries, user=request.user,
            client_key=form.cleaned_data.get("client_key") or None, seats=seats,
        )
    except services.AlreadyRecorded as repeat:
        # The phone sent it again (its answer got lost): it is on the sheet already.
        return _done(request, match, _("Deal %(number)s was saved already.") % {
            "number": repeat.change.deal_number})
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
    scores = ", ".join(
        f"{seat.player.name} {recorded.scores[seat.player_id].score}" for seat in recorded.seats
    )
    message = _("%(message)s Scores: %(scores)s.") % {
        "message": _("Deal %(number)s saved.") % {"number": number}, "scores": scores,
    }
    if not request.htmx:
        messages.success(request, message)
        request.session["saved_deal"] = [match.pk, number]
        return _back(match)
    return _saved(request, match, recorded, message)


def _saved(
    request: HttpRequest, match: Match, recorded: services.Recorded, message: str
) -> HttpResponse:
    """The htmx answer to a new deal: the parts of the sheet it changes, out of band.

    Standings and progress, the new row and the totals, the progression, the next
    deal's form (or the finish button), undo, the table mode and the notice; the
    request itself swaps nothing. The new ETag and next deal number travel in the
    ``kr:sheet`` event, which puts them on ``#sheet`` (static/js/sync.js).

    The next form is left out when the page holds a fresh form of the same shape
    (its markup but for deal number, key, heading and CSRF token, sent as
    ``KR-Form-Shape``): the ``kr:form`` event brings the new number, key and
    heading, and sync.js puts a copy of that fresh form in place with them, which
    is what a reload shows (templatetags/form_shape.py).
    """
    match.revision = recorded.revision
    sheet = sheet_after_record(match, recorded)
    etag = _etag(request, match.pk, recorded.revision)
    context = {
        "sheet": sheet, "match": match, "group": match.group, "editing": None,
        "form": _new_deal_form(sheet, mode=request.POST.get("mode")),
        "notice": notices.success(message), "saved": recorded.deal.number, "oob": True,
        "can_delete": services.can_delete(match, request.user),
        "live_available": match.game in services.LIVE_GAMES,
        "progression": sheet.progression,
    }
    # The chart's plot anew; its legend (and the markers it defines) stays on the page.
    context["chart_plot"] = progression_chart_parts(sheet.progression, plot_attrs=_PLOT_SWAP)[0]
    next_form = None
    if context["form"] is not None:
        form_html = render_to_string(f"{PAGE}#deal-form", context, request)
        shape = _FORM_SHAPE.search(form_html)
        if shape and shape[1] == request.headers.get("KR-Form-Shape"):
            next_form = {
                "shape": shape[1],
                "heading": html.unescape(_FORM_HEADING.search(form_html)[1]),  # type: ignore[index]
                "number": _FORM_VALUES["number"].search(form_html)[1],  # type: ignore[index]
                "key": _FORM_VALUES["client_key"].search(form_html)[1],  # type: ignore[index]
            }
        else:
            context["form_html"] = form_html
    response = render(request, f"{PAGE}#saved", context)
    # The templates' indentation runs: one line break instead (the same page; no <pre> here).
    response.content = _BLANKS.sub(b"\n", response.content)
    response = reswap(response, "none")
    response["ETag"] = etag
    trigger_client_event(response, "kr:sheet", {"etag": etag, "next": sheet.next_number})
    if next_form:
        trigger_client_event(response, "kr:form", next_form, after="swap")
    patch_cache_control(response, private=True, no_store=True)
    return response


_BLANKS = re.compile(rb"[ \t\r]*\n\s*")
_PLOT_SWAP = 'hx-swap-oob="outerHTML:#sheet .progression .kr-plot"'

_FORM_SHAPE = re.compile(r'<section [^>]*\bdata-shape="([0-9a-f]+)"')
_FORM_HEADING = re.compile(r"<h2[^>]*>([^<]*)</h2>")

_FORM_VALUES = {
    name: re.compile(f'name="{name}" value="([^"]*)"') for name in ("number", "client_key")
}


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
    if match.game == "freaky":
        cards = sum(cards for _player, cards in services.live_rows(match))
        if cards:
            question = ngettext(
                "Every player has 0 in this deal, but the live board holds %(cards)s "
                "collected card. Save the zeros anyway, or put the live board's result "
                "on the sheet instead?",
                "Every player has 0 in this deal, but the live board holds %(cards)s "
                "collected cards. Save the zeros anyway, or put the live board's result "
                "on the sheet instead?",
                cards,
            ) % {"cards": cards}
    form.empty_question = question
    return True


@require_POST
@login_required
def deal_preview(request: HttpRequest, group_id: int, match_id: int) -> HttpResponse:
    """What the deal being typed would score: each player's deal score, new total and
    place, computed by the engine from the form as it stands. Stores nothing.

    htmx (while typing) gets the ``deal-preview`` partial; without JavaScript the
    "Preview" button shows the whole sheet with the form as typed and the preview.
    """
    match = get_match_for_user(request.user, group_id, match_id)
    sheet = sheet_for(match)
    form = DealForm(request.POST, game=match.game, seats=sheet.seats)
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
        return _render(request, sheet, form=form, editing=editing)
    return _render(request, sheet, form=form if sheet.can_record else None)


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
    blank = _new_deal_form(sheet, mode=request.GET.get("mode"))
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
        # The whole sheet answers: the edit form takes the place of the next deal's form,
        # which a complete or reopened match does not have.
        form = _edit_form(sheet, deal, mode=request.GET.get("mode"))
        return _render(request, sheet, form=form, editing=deal)
    switched = _switched(request, sheet)
    if switched is not None:
        return _render(request, sheet, form=switched, editing=deal, partial="deal-form")
    form = DealForm(request.POST, game=match.game, seats=sheet.seats)
    if not form.is_valid():
        return _render(request, sheet, form=form, editing=deal, status=422)
    if _ask_before_empty(match, form):
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
    return _done(
        request, match, _("Deal %(number)s corrected.") % {"number": number}, saved=number
    )


def _version(request: HttpRequest) -> int:
    return number_from(request.POST, "version", minimum=0, maximum=MAX_POSITIVE, default=0)


@require_POST
@login_required
def deal_delete(request: HttpRequest, group_id: int, match_id: int, number: int) -> HttpResponse:
    match = get_match_for_user(request.user, group_id, match_id)
    deal = _deal(match, number)
    if request.POST.get("confirm") != "yes":
        sheet = sheet_for(match)
        notice = _("Delete deal %(number)s? Tap “Delete for good” to confirm.") % {
            "number": number}
        form = _edit_form(sheet, deal) if sheet.is_open else None
        return _render(request, sheet, form=form, editing=deal if form else None,
                       notice=notice, status=409)
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
    try:
        change = services.match_undo(
            match=match, change_id=number_from(request.POST, "change", minimum=1, maximum=MAX_ID),
            user=request.user,
        )
    except (ValidationError, ScoringError) as err:
        return _render(request, sheet_for(match), notice=_error_text(err), status=409)
    return _done(request, match, _("Undone: %(change)s deal %(number)s.") % {
        "change": change.get_kind_display(), "number": change.deal_number,
    })


@require_POST
@login_required
def match_redo(request: HttpRequest, group_id: int, match_id: int) -> HttpResponse:
    match = get_match_for_user(request.user, group_id, match_id)
    try:
        change = services.match_redo(
            match=match, change_id=number_from(request.POST, "change", minimum=1, maximum=MAX_ID),
            user=request.user,
        )
    except (ValidationError, ScoringError) as err:
        return _render(request, sheet_for(match), notice=_error_text(err), status=409)
    return _done(request, match, _("Redone: %(change)s deal %(number)s.") % {
        "change": change.get_kind_display(), "number": change.deal_number,
    })


@require_POST
@login_required
def match_finish(request: HttpRequest, group_id: int, match_id: int) -> HttpResponse:
    match = get_match_for_user(request.user, group_id, match_id)
    try:
        services.match_finish(match=match, user=request.user)
    except (ValidationError, ScoringError) as err:
        return _render(request, sheet_for(match), notice=_error_text(err), status=409)
    match.refresh_from_db()
    return _done(request, match, _("Match finished."))


@require_POST
@login_required
def match_reopen(request: HttpRequest, group_id: int, match_id: int) -> HttpResponse:
    match = get_match_for_user(request.user, group_id, match_id)
    try:
        was_abandoned = match.status == Match.Status.ABANDONED
        services.match_reopen(match=match, user=request.user)
    except ValidationError as err:
        return _render(request, sheet_for(match), notice=_error_text(err), status=409)
    match.refresh_from_db()
    if was_abandoned:
        return _done(request, match, _("Match resumed: it is running again."))
    return _done(request, match, _("Match reopened: you can correct it now."))


@require_POST
@login_required
def match_abandon(request: HttpRequest, group_id: int, match_id: int) -> HttpResponse:
    """Stop a running match: kept in the history as abandoned, left out of the statistics."""
    match = get_match_for_user(request.user, group_id, match_id)
    try:
        services.match_abandon(match=match, user=request.user)
    except ValidationError as err:
        return _render(request, sheet_for(match), notice=_error_text(err), status=409)
    match.refresh_from_db()
    return _done(request, match, _(
        "Match abandoned. It stays in the history and counts in no statistics."
    ))


@require_POST
@login_required
def match_delete(request: HttpRequest, group_id: int, match_id: int) -> HttpResponse:
    """Delete a match for good (the group's owner or the one who started it)."""
    match = get_match_for_user(request.user, group_id, match_id)
    if not services.can_delete(match, request.user):
        raise PermissionDenied(
            _("Only the group's owner and the one who started the match may delete it.")
        )
    if request.POST.get("confirm") != "yes":
        notice = _("Delete the match for good? Tap “Delete for good” to confirm.")
        return _render(request, sheet_for(match), notice=notice, status=409)
    title = match.get_game_display()
    services.match_delete(match=match, user=request.user)
    messages.success(request, _("The match of %(game)s was deleted.") % {"game": title})
    target = reverse("group_home", args=[match.group_id])
    if request.htmx:
        return HttpResponseClientRedirect(target)
    return redirect(target)


@require_POST
@login_required
def match_rematch(request: HttpRequest, group_id: int, match_id: int) -> HttpResponse:
    """Start the rematch of a finished match in one tap and land on its sheet."""
    match = get_match_for_user(request.user, group_id, match_id)
    try:
        new = services.match_rematch(match=match, user=request.user)
    except (ValidationError, ScoringError) as err:
        return _render(request, sheet_for(match), notice=_error_text(err), status=409)
    messages.success(request, _("Rematch started."))
    target = reverse("match_sheet", args=[new.group_id, new.pk])
    if request.htmx:
        return HttpResponseClientRedirect(target)
    return redirect(target)


@login_required
def match_changes(request: HttpRequest, group_id: int, match_id: int) -> HttpResponse:
    """The match's log ("Verlauf"): every change, who made it and when, undone ones marked."""
    match = get_match_for_user(request.user, group_id, match_id)
    return render(request, "companion/sheet/log.html", {
        "match": match, "group": match.group, "entries": match_log(match),
    })


# ---------------------------------------------------------------------- live mode


@login_required
def match_live(request: HttpRequest, group_id: int, match_id: int) -> HttpResponse:
    """Record while playing: 3 sind einer zuviel! card by card, Freaky row by row.

    Every phone on the board polls it like the sheet: 304 while nothing changed."""
    if request.htmx and request.method == "GET" and "If-None-Match" in request.headers:
        not_modified = _unchanged(request, group_id, match_id)
        if not_modified is not None:
            return not_modified
    return _live_page(request, group_id, match_id)


@login_required
def _live_page(request: HttpRequest, group_id: int, match_id: int) -> HttpResponse:
    match = get_match_for_user(request.user, group_id, match_id)
    if match.game not in services.LIVE_GAMES:
        raise Http404
    notice = ""
    question = ""
    if request.method == "POST":
        try:
            saved = _live_step(request, match)
        except services.ConfirmationNeeded as err:
            question = _error_text(err)
        except (ValidationError, ScoringError) as err:
            notice = _error_text(err)
        else:
            if saved:
                return _done(request, match, _("The live result is on the sheet."))
            if not request.htmx:
                return redirect("match_live", group_id=match.group_id, match_id=match.pk)
        match.refresh_from_db()
    context = {"match": match, "group": match.group, "board": live_board_for(match),
               "notice": notice, "question": question,
               "closed": match.status != Match.Status.OPEN,
               "etag": _etag(request, match.pk, match.revision)}
    template = "companion/sheet/live.html#board" if request.htmx else "companion/sheet/live.html"
    status = 409 if notice else 200
    return render(request, template, context, status=status)


def _live_step(request: HttpRequest, match: Match) -> bool:
    """Apply one live step from the POST data; True when the result went onto the sheet."""
    revision = number_from(request.POST, "revision", minimum=0, maximum=MAX_POSITIVE,
                           default=-1)
    action = request.POST.get("action", "take")
    if action == "save":
        services.live_save(
            match=match, revision=revision, user=request.user,
            confirm=request.POST.get("confirm") == "yes",
        )
        return True
    if action == "end":
        services.live_end_turn(match=match, revision=revision)
    elif action == "collect":
        try:
            cards = number_from(request.POST, "cards", minimum=1, maximum=MAX_SMALL)
        except ValidationError as err:
            if err.code != "not_a_number":
                raise
            cards = None
        if cards is None:
            raise ValidationError(_("How many cards did the row have?"), code="cards")
        services.live_collect(
            match=match, player_id=number_from(request.POST, "player", minimum=1,
                                               maximum=MAX_ID, default=0),
            cards=cards, revision=revision,
        )
    elif action == "undo":
        services.live_undo(match=match, revision=revision)
    else:
        services.live_take(
            match=match, player_id=number_from(request.POST, "player", minimum=1,
                                               maximum=MAX_ID, default=0),
            colour=request.POST.get("colour", ""), revision=revision,
        )
    return False

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
from collections.abc import Callable, Iterable
from typing import Any
from urllib.parse import urlencode

from django.conf import settings
from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import translation
from django.utils.cache import patch_cache_control, patch_vary_headers, quote_etag
from django.utils.http import parse_etags
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import condition
from django_htmx.http import reswap, retarget, trigger_client_event

from companion import notices, trusted_polls, waiting
from companion.access import (
    Polled,
    get_group_for_user,
    get_match_for_viewer,
    kind_reads_only,
    poll_revision,
    viewer_of,
    viewer_required,
)
from companion.changes import wait_for_change
from companion.forms.sheet import SEAT_FIELD, DealForm
from companion.games import game_app
from companion.games.messages import message_for
from companion.models import DealScore, Match
from companion.notices import Notice
from companion.parsing import MAX_SMALL, number_from
from companion.selectors.live import LIVE_GAMES
from companion.selectors.sheet import Sheet, rematch_plan, sheet_for
from companion.services.matches import can_delete
from companion.shared_renders import sheets
from scoring import ScoringError

PAGE = "companion/sheet/sheet.html"



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
    """The game's table helper (``GameApp.tool``), opened with the match's players and
    variant and a way back to this sheet (where its result can be taken over)."""
    tool = game_app(sheet.match.game).tool
    if tool is None:
        return []
    query = urlencode({
        **_match_query(sheet),
        "back": reverse("match_sheet", args=[sheet.match.group_id, sheet.match.pk]),
    })
    return [{"url": f"{tool.url}?{query}", "label": tool.label}]


def _dispute_url(sheet: Sheet) -> str:
    """The game's legality check with the match's players and variant filled in, and a way
    back to this sheet."""
    query = urlencode({
        **_match_query(sheet),
        "back": reverse("match_sheet", args=[sheet.match.group_id, sheet.match.pk]),
    })
    return f"{reverse('rules_check', args=[sheet.match.game])}?{query}"


def sheet_etag(match_id: int, revision: int, kind: str) -> str:
    """The ETag of the sheet (or live board) a kind of viewer (:meth:`Viewer.kind`) sees
    at ``revision``: the match's change counter, moved on by every change; the language
    and the kind of viewer, whose pages differ; and a signature of all that with the
    match (:func:`companion.waiting.sign`): only a poll that was shown the match may wait
    for its next change in the event loop (companion/asgi.py). Nothing in it is one
    viewer's own: the sheet a poll gets is rendered once for every watcher of its kind
    (:func:`shared_sheet`)."""
    return quote_etag(waiting.sign(match_id, f"{revision}.{get_language()}.{kind}"))


def viewer_etag(request: HttpRequest, match: Match, revision: int | None = None) -> str:
    """:func:`sheet_etag` of ``match`` (at ``revision``, else its own) for this request's
    viewer."""
    return sheet_etag(match.pk, match.revision if revision is None else revision,
                      viewer_of(request).kind(match))


POLL_WAIT = waiting.POLL_WAIT
"""Seconds a poll that asks for it (``KR-Wait``) may wait for the match's next change:
below the phones' request timeout (static/js/net.js)."""


def poll_etag(request: HttpRequest, group_id: int, match_id: int) -> str | None:
    """For ``condition``: the ETag of the sheet (or live board) an htmx poll would get, if
    the viewer may see the match (otherwise none, and the view answers 404 as usual, or
    the "pass ended" page). Only a poll that names the version it shows (``If-None-Match``)
    is asked: full pages are never answered 304.

    A poll that may wait (``KR-Wait``) and shows the current version waits for the
    match's next change, so it answers as soon as another phone saves, not at the
    phone's next poll. Under the ASGI server (``make run``, the hosted profile) it has
    waited already, in the event loop and before this view (:mod:`companion.waiting`),
    and reaches the view without ``KR-Wait``: it is answered at once. Only under WSGI
    alone (``runserver``, the browser tests' live server) does it wait here, holding
    its thread (:mod:`companion.changes`).
    """
    if not request.htmx or "If-None-Match" not in request.headers:
        return None
    found = poll_revision(request, group_id, match_id)
    if found is None:
        return None
    request.polled = found  # type: ignore[attr-defined]  # the view's shared sheet: its key
    etag = sheet_etag(match_id, found.revision, found.kind)
    # Weakly compared, as condition() does (gzip makes the header's ETag a weak one).
    shown = [tag.removeprefix("W/") for tag in parse_etags(request.headers["If-None-Match"])]
    if request.headers.get("KR-Wait") and etag in shown:
        latest = [found]

        def changed() -> bool:
            latest[0] = poll_revision(request, group_id, match_id)
            return latest[0] != found

        if wait_for_change(match_id, changed, POLL_WAIT):
            request.polled = latest[0]  # type: ignore[attr-defined]
            return None if latest[0] is None else sheet_etag(
                match_id, latest[0].revision, latest[0].kind)
    return etag


MODE_COOKIE = "kr-mode-{game}"
"""The entry mode this phone last saved a deal of the game in (a cookie: per phone, not
per account, and no write to the database)."""


def preferred_mode(request: HttpRequest, game: str) -> str | None:
    """The entry mode of the next deal's form: the one asked for (``?mode=``, the mode a
    save was made in), else the one this phone last saved a deal of ``game`` in (a grid
    user's next match opens on the grid, without a tap); None: the game's first mode."""
    return (request.GET.get("mode") or request.POST.get("mode")
            or request.COOKIES.get(MODE_COOKIE.format(game=game)) or None)


def remember_mode(request: HttpRequest, response: HttpResponse, game: str, mode: str) -> None:
    """After a deal saved in entry ``mode``: the phone keeps it for the game's next form."""
    name = MODE_COOKIE.format(game=game)
    if mode == game_app(game).entry.modes[0].key:
        if name in request.COOKIES:
            response.delete_cookie(name, samesite="Lax")
    elif request.COOKIES.get(name) != mode:
        response.set_cookie(name, mode, max_age=365 * 24 * 3600, samesite="Lax", httponly=True,
                            secure=settings.SESSION_COOKIE_SECURE)


def new_deal_form(
    sheet: Sheet, *, mode: str | None = None, data: Any = None, key: str | None = None
) -> DealForm | None:
    """The form of the next deal, or None when the match takes no further deal."""
    if not sheet.can_record:
        return None
    return DealForm(
        data, game=sheet.match.game, seats=sheet.seats, mode=mode, options=sheet.match.options,
        # A key per form: the same send arriving twice (a double tap, a lost answer)
        # is recorded once. The offline queue gives every queued deal a key of its own.
        # A text rendered for several phones has an empty key (key=""): the page makes one.
        initial={"number": sheet.next_number,
                 "client_key": uuid.uuid4().hex if key is None else key},
    )


def sheet_context(
    request: HttpRequest, sheet: Sheet, *, form: DealForm | None = None,
    editing: Any = None, notice: str | Notice = "", saved: int | None = None,
    finished_now: bool = False,
) -> dict[str, Any]:
    """What the sheet page and its partials show of ``sheet`` for this request."""
    match = sheet.match
    viewer = viewer_of(request)
    if form is None and editing is None and not viewer.read_only:
        # After a saved deal the next one opens in the entry mode just used (card grid …).
        form = new_deal_form(sheet, mode=preferred_mode(request, match.game))
    if isinstance(notice, str) and notice:
        notice = notices.warning(notice)
    return {
        "sheet": sheet, "match": match, "group": match.group, "form": form,
        "editing": editing, "notice": notice, "saved": saved, "viewer": viewer,
        # Finished by this very request: the winners' box offers to undo it.
        "finished_now": finished_now and sheet.is_finished and not viewer.is_guest,
        "can_delete": not viewer.is_guest and can_delete(match, request.user),
        "rematch": (rematch_plan(match, sheet.seats, sheet.last_scores)
                    if sheet.is_finished and not viewer.is_guest else None),
        "live_available": match.game in LIVE_GAMES and not viewer.read_only,
        "tools": _tools(sheet),
        "dispute_url": _dispute_url(sheet) if sheet.is_open else "",
        "progression": sheet.progression,
        # ?view=table: the sheet opens in table mode (the no-JavaScript way in).
        "table_view": request.GET.get("view") == "table",
        # The match was read before the sheet: this ETag is never newer than what is shown.
        "etag": viewer_etag(request, match),
    }


def render_sheet(
    request: HttpRequest, sheet: Sheet, *, form: DealForm | None = None,
    editing: Any = None, notice: str | Notice = "", partial: str = "sheet",
    status: int = 200, saved: int | None = None, finished_now: bool = False,
) -> HttpResponse:
    """The sheet page, or for htmx its ``partial`` (the whole ``#sheet`` by default)."""
    context = sheet_context(request, sheet, form=form, editing=editing, notice=notice,
                            saved=saved, finished_now=finished_now)
    if not request.htmx:
        response = render(request, PAGE, context, status=status)
        patch_vary_headers(response, ["HX-Request"])
        return response
    # The status stays: a refused save answers 409 (422 for bad input) to htmx too;
    # base.html's htmx-config swaps those answers in.
    response = render(request, f"{PAGE}#{partial}", context, status=status)
    if partial == "sheet":
        # Whatever asked (a row's edit link, a mode switch), the whole sheet answers. A request
        # that targets the sheet already (the poll, the finish form) is not re-targeted: its
        # element may have left the page meanwhile (a held poll answered after the finish
        # replaced the sheet), and htmx looks a re-target up from that element (an error there).
        if request.htmx.target != "sheet":
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
        sheet = sheet_for(match)
        if saved:
            message = with_scores(sheet, saved, message)
        return render_sheet(request, sheet, notice=notices.success(message), saved=saved)
    if saved:
        # The page the redirect shows makes the sheet: only the deal's scores are read here.
        message = with_stored_scores(match, saved, message)
    if message:
        messages.success(request, message)  # a cookie (settings.MESSAGE_STORAGE), no session
    return back_to_sheet(match, saved=saved)


def saved_already(message: str) -> Callable[..., HttpResponse]:
    """The answer of :func:`companion.idempotency.answers_repeats` for a change of a sheet:
    the sheet with ``message`` (e.g. "The match was finished already.")."""

    def answer(request: HttpRequest, receipt: Any, *, group_id: int, match_id: int,
               **kwargs: Any) -> HttpResponse:
        match = get_match_for_viewer(request, group_id, match_id)
        return sheet_changed(request, match, str(message) % kwargs)

    return answer


def scores_message(message: str, scores: Iterable[tuple[str, int]]) -> str:
    """``message`` followed by a deal's scores (name, score in seat order), e.g.
    "Deal 2 saved. Scores: Anna 5, Ben 3."."""
    listed = ", ".join(f"{name} {score}" for name, score in scores)
    return _("%(message)s Scores: %(scores)s.") % {"message": message, "scores": listed}


def with_scores(sheet: Sheet, number: int, message: str) -> str:
    """``message`` followed by deal ``number``'s scores on ``sheet``."""
    row = next((row for row in sheet.rows if row.deal.number == number), None)
    if row is None:
        return message
    return scores_message(message, ((seat.player.name, cell.score)
                                    for seat, cell in zip(sheet.seats, row.cells, strict=True)))


def with_stored_scores(match: Match, number: int, message: str) -> str:
    """:func:`with_scores` read from the stored deal (two queries, no sheet)."""
    stored = dict(DealScore.objects.filter(deal__match=match, deal__number=number)
                  .values_list("player_id", "score"))
    if not stored:
        return message
    return scores_message(message, (
        (seat.player.name, stored.get(seat.player_id, 0))
        for seat in match.seats.select_related("player").order_by("number")))


def gone(request: HttpRequest, group_id: int, match_id: int, *, target: str) -> HttpResponse:
    """A poll (htmx) of a match of the user's group that no longer exists: 410 with the
    ``target`` element (``sheet``, ``board``) saying it was deleted on another phone, and
    the way on. Anything else about a match the user cannot see stays 404."""
    if not request.htmx or Match.objects.filter(pk=match_id).exists():
        raise Http404
    group = get_group_for_user(request.user, group_id)  # 404 unless a member (not a guest)
    response = render(request, "companion/sheet/_gone.html",
                      {"group": group, "gone_id": target}, status=410)
    patch_cache_control(response, private=True, no_store=True)
    return response


@viewer_required
@condition(etag_func=poll_etag)
def match_sheet(request: HttpRequest, group_id: int, match_id: int) -> HttpResponse:
    """The score sheet; a poll of an unchanged sheet gets 304 (:func:`poll_etag`), a poll
    of a deleted one 410 (:func:`gone`).

    A table helper may hand values over in the URL (``?s0-yellow=3``): they are put into
    the next deal's form (:func:`_prefilled`)."""
    shared = _shared(request)
    polled = getattr(request, "polled", None)
    if polled is not None and shared:
        step = step_answer(request, match_id, polled)
        if step is not None:
            return step
        # A woken poll: the access check and the revision came with the ETag's query; the
        # first phone of its kind rendered the text already (the others' usual case).
        key = shared_key(match_id, polled.revision, polled.kind,
                         _entry_mode(request, polled.game))
        kept = sheets.kept(key)
        if kept is not None:
            trusted_polls.tell(request, match_id=match_id, revision=polled.revision,
                               kind=polled.kind, language=key[2], mode=key[4],
                               until=polled.until)
            return _shared_answer(kept, sheet_etag(match_id, polled.revision, polled.kind))
    try:
        match = get_match_for_viewer(request, group_id, match_id)
    except Http404:
        return gone(request, group_id, match_id, target="sheet")
    if shared:
        return shared_sheet(request, match)
    number = None if request.htmx else _saved_number(request)
    sheet = sheet_for(match)
    prefilled, notice = _prefilled(request, sheet)
    return render_sheet(request, sheet, saved=number, form=prefilled, notice=notice)


def _shared(request: HttpRequest) -> bool:
    """An htmx GET of the plain sheet (the poll, a refresh; maybe naming the deal form's
    entry mode): what it gets is the same for every viewer of the same kind
    (:func:`shared_sheet`)."""
    return bool(request.htmx and request.method == "GET" and request.htmx.target == "sheet"
                and set(request.GET) <= {"mode"})


def _entry_mode(request: HttpRequest, game: str) -> str | None:
    """:func:`preferred_mode` if it is one of the game's, else None (the game's first, as
    the form reads an unknown one)."""
    mode = preferred_mode(request, game)
    return mode if mode in {entry_mode.key for entry_mode in game_app(game).entry.modes} else None


def shared_key(match_id: int, revision: int, kind: str, mode: str | None) -> tuple[Any, ...]:
    """What the sheet a poll gets depends on: the match's revision, the language, the kind
    of viewer and the deal form's entry mode (:func:`_entry_mode`)."""
    return (match_id, revision, get_language(), kind, mode)


def _shared_answer(text: str, etag: str) -> HttpResponse:
    response = HttpResponse(text)
    response["ETag"] = etag
    patch_cache_control(response, private=True, no_store=True)
    return response


def shared_sheet(request: HttpRequest, match: Match) -> HttpResponse:
    """The sheet a poll gets, rendered once per revision, language, kind of viewer and
    entry mode for every phone that watches the match (:mod:`companion.shared_renders`):
    its forms' CSRF fields and keys are empty (the page fills them in), its ETag is
    signed for the kind of viewer."""
    viewer = viewer_of(request)
    kind = viewer.kind(match)
    mode = _entry_mode(request, match.game)
    key = shared_key(match.pk, match.revision, kind, mode)

    def render_once() -> str:
        sheet = sheet_for(match)
        form = None if viewer.read_only else new_deal_form(sheet, mode=mode, key="")
        context = sheet_context(request, sheet, form=form)
        context.update(shared_render=True, csrf_token="")
        return render(request, f"{PAGE}#sheet", context).content.decode()

    text = sheets.text(key, render_once)
    trusted_polls.tell(request, match_id=match.pk, revision=match.revision, kind=kind,
                       language=key[2], mode=mode,
                       until=viewer.table_pass.expires_at if viewer.table_pass else None)
    return _shared_answer(text, sheet_etag(match.pk, match.revision, kind))


# A new deal's step of the sheet: what a save of the next deal changes (the parts the saving
# phone gets out of band, views/deals.py), sent as they are to the phones that watch the
# match and show the sheet as it was just before. The save renders it once, for every
# phone that may write (the read-only guests get the whole sheet): nothing of one viewer is
# in it (its forms' CSRF fields and keys are empty, the page fills them in), and it does not
# depend on the kind of viewer beyond that (tests/companion/test_sheet_steps.py). The
# watching phones' woken polls take it instead of the whole sheet, which each change had
# rendered again (issue 31: about a third of the server's CPU at 1,000 phones).

def step_key(match_id: int, revision: int, language: str | None = None) -> tuple[Any, ...]:
    """The step of the sheet to ``revision`` (a new deal), in ``language`` (else the
    request's)."""
    return ("step", match_id, revision, language or get_language())


STEP_HEAD = "{next_number} {next_form:d}\n"
"""What a kept step starts with: the next deal's number and whether a next deal's form
follows (0: the match takes no further deal), the page's state after the step."""


def keep_step(request: HttpRequest, sheet: Sheet, context: dict[str, Any]) -> SafeString:
    """(The save of a new deal, ``context`` its answer's.) The step of the sheet to the
    match's new revision, rendered for every phone that watches it and kept for their polls
    (:func:`step_answer`); the saving phone's answer carries it too."""
    text = render_to_string(f"{PAGE}#step", {**context, "shared_render": True,
                                             "csrf_token": ""}, request=request)
    head = STEP_HEAD.format(next_number=sheet.next_number, next_form=context["next_form"])
    sheets.put(step_key(sheet.match.pk, sheet.match.revision), head + _empty_notice() + text)
    return mark_safe(text)  # rendered from the app's own templates


def _empty_notice() -> str:
    """The notice a watching phone's step brings: none (its old one goes, as with the whole
    sheet a poll brings)."""
    return render_to_string(f"{PAGE}#notice", {"oob": True, "notice": ""})


def form_event(number: int, **detail: Any) -> dict[str, Any]:
    """The ``kr:form`` event's detail: the next deal's number and its form's heading, with
    ``detail`` (static/js/sync.js puts the page's kept fresh form back with them)."""
    return {"number": number, "heading": _("Deal %(number)s") % {"number": number}, **detail}


STEPS_AT_MOST = 4
"""New deals a phone may be behind and still get their steps, not the whole sheet."""


def step_answer(request: HttpRequest, match_id: int, polled: Polled) -> HttpResponse | None:
    """A woken poll's answer when the match moved on from the version the phone shows by
    new deals only (at most :data:`STEPS_AT_MOST`), and the page takes steps
    (``KR-Steps``, static/js/sync.js): those deals' steps of the sheet (:func:`keep_step`)
    in order, else None (the whole sheet answers).

    A phone two deals behind is what a busy server makes: a poll answered late asks again
    after the next save. With the whole sheet for it (a render per change and kind of
    viewer, 17 % of the server's CPU at 1,000 phones), the busy server got busier. The
    steps one after the other give what a reload gives: each adds its deal's row and
    progression row, the last one's standings, totals, chart, undo and form stay."""
    if not request.headers.get("KR-Steps") or kind_reads_only(polled.kind):
        return None
    shown = waiting.verified(match_id, request.headers.get("If-None-Match", ""))
    if shown is None or not shown < polled.revision <= shown + STEPS_AT_MOST:
        return None
    steps = []
    for revision in range(shown + 1, polled.revision + 1):
        # Told of the change when it committed, maybe before its save put the step: wait
        # for it. A revision without a step was no new deal (a correction, an undo).
        kept = sheets.find(step_key(match_id, revision),
                           writing=match_id if revision == polled.revision else None)
        if kept is None:
            return None
        steps.append(kept)
    response = stepped(match_id, polled.revision, polled.kind, steps)
    trusted_polls.tell(request, match_id=match_id, revision=polled.revision, kind=polled.kind,
                       language=get_language(), mode=_entry_mode(request, polled.game),
                       until=polled.until, base=shown)
    return response


def stepped(match_id: int, revision: int, kind: str, steps: list[str]) -> HttpResponse:
    """The answer of kept ``steps`` (:func:`keep_step`, in order) to ``revision`` for a kind
    of viewer, in the active language: the steps' parts, and the page's state after the
    last one in its events. Django's answer (:func:`step_answer`) and the event loop's,
    which makes it for the phones Django checked without asking Django
    (companion/trusted_polls.py), are this one."""
    texts = []
    for kept in steps:
        head, _newline, text = kept.partition("\n")
        texts.append(text)
    next_number, _space, next_form = head.partition(" ")
    etag = sheet_etag(match_id, revision, kind)
    response = reswap(_shared_answer("".join(texts), etag), "none")
    response["KR-Step"] = "next" if next_form == "1" else "end"
    trigger_client_event(response, "kr:sheet", {"etag": etag, "next": int(next_number)},
                         after="swap")
    if next_form == "1":
        trigger_client_event(response, "kr:form", form_event(int(next_number), step=True),
                             after="swap")
    return response


def _stepped_in(match_id: int, revision: int, kind: str, language: str,
                steps: list[str]) -> HttpResponse:
    with translation.override(language):
        return stepped(match_id, revision, kind, steps)


trusted_polls.steps_from(trusted_polls.Steps(
    most=STEPS_AT_MOST,
    find=lambda match_id, revision, language: sheets.find(
        step_key(match_id, revision, language)),
    writing=sheets.being_written,
    answer=_stepped_in,
))


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
    # A player's field (s<seat>-<name>) or one of the deal's own fields (GameApp.entry).
    entry = game_app(sheet.match.game).entry
    deal_keys = entry.deal_fields(sheet.seats, entry.modes[0].key)
    keys = [key for key in request.GET if SEAT_FIELD.match(key) or key in deal_keys]
    if not keys or viewer_of(request).read_only:
        return None, ""
    if not sheet.can_record:
        return None, _("The values from the link were not taken over: this match takes "
                       "no further deal.")
    blank = new_deal_form(sheet, mode=preferred_mode(request, sheet.match.game))
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
                    initial=initial, options=sheet.match.options)
    form.prefilled = True
    if left_out:
        return form, _(
            "Some values from the link do not fit this deal and were left out: %(fields)s."
        ) % {"fields": ", ".join(sorted(left_out))}
    return form, notices.success(
        _("Taken over into the deal form: check the values, then save the deal.")
    )

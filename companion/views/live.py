"""The live board view: record a game while it is played, tap by tap (the game's own
board: ``GameApp.live``). Every phone on the board polls it like the sheet: 304 while nothing
changed (:func:`companion.views.sheet.poll_etag`).
"""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import condition

from companion import idempotency
from companion.access import acting, get_match_for_viewer, viewer_of, viewer_required
from companion.models import ChangeReceipt, Match
from companion.parsing import MAX_POSITIVE, number_from
from companion.selectors.live import LIVE_GAMES, live_board_for
from companion.services import live as services
from companion.services.sheet import ConfirmationNeeded
from companion.views.sheet import error_text, gone, poll_etag, sheet_changed, viewer_etag
from scoring import ScoringError


def _tap_saved_already(request: HttpRequest, receipt: ChangeReceipt, *, group_id: int,
                       match_id: int) -> HttpResponse:
    """A live step sent again: the board as it is now (the step is on it), or the sheet
    when the step put the result there."""
    match = get_match_for_viewer(request, group_id, match_id)
    if request.POST.get("action") == "save":
        return sheet_changed(request, match, _("The live result is on the sheet already."))
    if not request.htmx:
        return redirect("match_live", group_id=match.group_id, match_id=match.pk)
    return _board(request, match)


@viewer_required
@condition(etag_func=poll_etag)
@idempotency.answers_repeats("live", _tap_saved_already)
def match_live(request: HttpRequest, group_id: int, match_id: int) -> HttpResponse:
    """Record while playing (a game with a live board: 3 sind einer zuviel!, Freaky); for
    members and guests whose table pass may enter deals."""
    try:
        match = get_match_for_viewer(request, group_id, match_id, write=True)
    except Http404:
        if request.method != "GET":
            raise
        return gone(request, group_id, match_id, target="board")
    if match.game not in LIVE_GAMES:
        raise Http404
    notice = ""
    question = ""
    if request.method == "POST":
        try:
            with idempotency.once(request, action="live", match=match):
                saved = _live_step(request, match)
        except ConfirmationNeeded as err:
            question = error_text(err)
        except (ValidationError, ScoringError) as err:
            notice = error_text(err)
        else:
            if saved:
                return sheet_changed(request, match, _("The live result is on the sheet."))
            if not request.htmx:
                return redirect("match_live", group_id=match.group_id, match_id=match.pk)
        match.refresh_from_db()
    return _board(request, match, notice=notice, question=question)


def _board(request: HttpRequest, match: Match, *, notice: str = "", question: str = ""
           ) -> HttpResponse:
    context = {"match": match, "group": match.group, "board": live_board_for(match),
               "notice": notice, "question": question,
               "closed": match.status != Match.Status.OPEN, "viewer": viewer_of(request),
               "etag": viewer_etag(request, match)}
    template = "companion/sheet/live.html#board" if request.htmx else "companion/sheet/live.html"
    response = render(request, template, context, status=409 if notice else 200)
    response["ETag"] = context["etag"]
    return response


def _live_step(request: HttpRequest, match: Match) -> bool:
    """Apply one tap from the POST data; True when the result went onto the sheet."""
    revision = number_from(request.POST, "revision", minimum=0, maximum=MAX_POSITIVE,
                           default=-1)
    action = request.POST.get("action", "")
    if action == "save":
        services.live_save(
            match=match, revision=revision, user=acting(request),
            confirm=request.POST.get("confirm") == "yes",
        )
        return True
    if action == "undo":
        services.live_undo(match=match, revision=revision)
    else:
        services.live_step(match=match, revision=revision, action=action, data=request.POST)
    return False

"""Views of the history area: game nights, statistics, charts, export and import.

Every page reaches its data through the user's group (404 for non-members) and
runs a fixed number of queries however long the group's history is.
"""

from __future__ import annotations

import itertools

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import Http404, HttpRequest, HttpResponse, StreamingHttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.text import slugify
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_GET, require_http_methods

from companion import charts, idempotency
from companion.access import get_group_for_user
from companion.forms.history import HeadToHeadForm, HistoryFilterForm, ImportForm, MinimumForm
from companion.models import ChangeReceipt, Group
from companion.selectors import history as selectors
from companion.selectors.ratings import leaderboard, player_ratings
from companion.selectors.records import game_records, group_records
from companion.services.transfer import TransferError
from companion.services.transfer.export import group_export_csv_chunks, group_export_json_chunks
from companion.services.transfer.importer import group_import
from scoring import GAMES


def _page(
    request: HttpRequest, template: str, partial: str, context: dict[str, object]
) -> HttpResponse:
    """The whole page, or only its ``partial`` for an htmx request."""
    name = f"{template}#{partial}" if request.htmx else template
    return render(request, name, context)


@login_required
@require_GET
def history(request: HttpRequest, group_id: int) -> HttpResponse:
    """The group's game nights, newest first, filtered by game, player and period."""
    group = get_group_for_user(request.user, group_id)
    players = selectors.group_players(group)
    form = HistoryFilterForm(request.GET or None, players=players)
    filters = form.filters() if form.is_bound else {}
    page = selectors.history_page(group, page=request.GET.get("page"), **filters)
    query = request.GET.copy()
    query.pop("page", None)
    return _page(request, "companion/history/history.html", "results", {
        "group": group,
        "form": form,
        "page_obj": page,
        "nights": page.object_list,
        "players": players,
        "games": selectors.games_played(group),
        "query": query.urlencode(),
        "filtered": any(value for value in filters.values()),
        # Not for an htmx filter request: its partial shows the nights only.
        "records": None if request.htmx else group_records(group),
    })


@login_required
@require_GET
def player_stats(request: HttpRequest, group_id: int, player_id: int) -> HttpResponse:
    """A player's record: per game, recent form, streaks and results over time."""
    group = get_group_for_user(request.user, group_id)
    players = selectors.group_players(group)
    player = next((p for p in players if p.pk == player_id), None)
    if player is None:
        raise Http404
    player.group = group  # the roster's players share the group already loaded
    stats = selectors.player_stats(player)
    return render(request, "companion/history/player.html", {
        "group": group,
        "player": player,
        "stats": stats,
        "ratings": player_ratings(player),
        "chart": charts.months_chart(stats) if stats.months else None,
        "players": players,
        "games": selectors.games_played(group),
    })


@login_required
@require_GET
def game_stats(request: HttpRequest, group_id: int, game: str) -> HttpResponse:
    """A game within the group: leaderboard, records, per-deal statistics, win shares."""
    group = get_group_for_user(request.user, group_id)
    if game not in GAMES:
        raise Http404
    form = MinimumForm(request.GET or None)
    minimum = selectors.MIN_MATCHES_DEFAULT
    if form.is_bound and form.is_valid() and form.cleaned_data["min"]:
        minimum = form.cleaned_data["min"]
    players = selectors.group_players(group)
    records = None if request.htmx else game_records(group, game)
    stats = selectors.game_stats(group, game, min_matches=minimum, players=players,
                                 without_deals=records.without_deals if records else None)
    return _page(request, "companion/history/game.html", "leaderboard", {
        "group": group,
        "stats": stats,
        "records": records,
        "form": form,
        "minimum": minimum,
        "chart": charts.win_shares_chart(stats) if stats.win_shares else None,
        "games": selectors.games_played(group),
        "players": players,
    })


@login_required
@require_GET
def head_to_head(request: HttpRequest, group_id: int) -> HttpResponse:
    """Two players: how often each finished ahead of the other, per game."""
    group = get_group_for_user(request.user, group_id)
    players = selectors.group_players(group)
    # Both players given: compare them; otherwise show the form (preset from the address,
    # e.g. ?first=<id> from a player page) without complaining about the missing one.
    chosen = {key: request.GET[key] for key in ("first", "second") if request.GET.get(key)}
    bound = len(chosen) == 2
    form = HeadToHeadForm(chosen if bound else None, initial=chosen, players=players)
    result = None
    if form.is_bound and form.is_valid():
        result = selectors.head_to_head(form.cleaned_data["first"], form.cleaned_data["second"])
    return _page(request, "companion/history/head_to_head.html", "result", {
        "group": group, "form": form, "result": result, "players": players,
        "games": selectors.games_played(group),
    })


@login_required
@require_GET
def ratings(request: HttpRequest, group_id: int, game: str = "") -> HttpResponse:
    """The group's skill ratings across all games or in one: a leaderboard that sets the
    provisional ratings apart and shows what each player's latest match changed."""
    group = get_group_for_user(request.user, group_id)
    if game and game not in GAMES:
        raise Http404
    return render(request, "companion/history/ratings.html", {
        "group": group,
        "board": leaderboard(group, game or None),
        "scopes": [("", _("All games")), *((slug, info.title) for slug, info in GAMES.items())],
        "players": selectors.group_players(group),
        "games": selectors.games_played(group),
    })


def _filename(group: Group, extension: str) -> str:
    stem = slugify(group.name) or "group"
    return f"kartenrunde-{stem}-{timezone.localdate().isoformat()}.{extension}"


@login_required
@require_GET
def export_json(request: HttpRequest, group_id: int) -> StreamingHttpResponse:
    """The group's whole history as a JSON file to download, sent as it is written (a few
    dozen matches at a time: memory flat, the first bytes at once)."""
    group = get_group_for_user(request.user, group_id)
    response = StreamingHttpResponse(
        group_export_json_chunks(group), content_type="application/json; charset=utf-8"
    )
    response["Content-Disposition"] = f'attachment; filename="{_filename(group, "json")}"'
    return response


@login_required
@require_GET
def export_csv(request: HttpRequest, group_id: int) -> StreamingHttpResponse:
    """One row per player per deal, as a CSV file (UTF-8 with a byte order mark for
    Excel), sent as it is written."""
    group = get_group_for_user(request.user, group_id)
    response = StreamingHttpResponse(
        itertools.chain(["\ufeff"], group_export_csv_chunks(group)),
        content_type="text/csv; charset=utf-8",
    )
    response["Content-Disposition"] = f'attachment; filename="{_filename(group, "csv")}"'
    return response


def _imported_already(request: HttpRequest, receipt: ChangeReceipt) -> HttpResponse:
    return redirect("history", group_id=receipt.group_id)


@login_required
@require_http_methods(["GET", "POST"])
@idempotency.answers_repeats("import", _imported_already)
def import_group(request: HttpRequest) -> HttpResponse:
    """Upload an export file: it becomes a new group owned by the user."""
    form = ImportForm(request.POST or None, request.FILES or None)
    if request.method == "POST" and form.is_valid():
        try:
            group = group_import(
                user=request.user, content=form.cleaned_data["file"],
                complete=idempotency.receipt_writer(request, "import"),
            )
        except (TransferError, ValidationError) as err:
            form.add_error("file", " ".join(getattr(err, "messages", [str(err)])))
        else:
            players, matches = group.players.count(), group.matches.count()
            messages.success(
                request,
                _("Imported “%(name)s”: %(players)s, %(matches)s.") % {
                    "name": group.name,
                    "players": ngettext("%(count)d player", "%(count)d players", players)
                    % {"count": players},
                    "matches": ngettext("%(count)d match", "%(count)d matches", matches)
                    % {"count": matches},
                },
            )
            return redirect("history", group_id=group.pk)
    return render(request, "companion/history/import.html", {"form": form})

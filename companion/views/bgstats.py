"""Views of the BG Stats import and export: upload a ``BGStatsExport.json``, confirm what
it becomes (games, players), see what was imported; download the group's plays in the same
shape and every match as CSV.

The file is read and checked once, on the upload; its plan is kept between the upload and
the confirm in the cache (the database's, shared by every process), compressed
(:func:`~companion.bgstats.plan_dump`) and keyed for the user and the group, and the
session keeps only its id and the file's name. The confirm page reads the kept plan
against the group as it is now (two queries), never the file again. Any member of the
group may import, as any member may record matches.
"""

from __future__ import annotations

import itertools
import secrets
import zlib
from collections import Counter
from collections.abc import Iterator
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.cache import cache
from django.http import HttpRequest, HttpResponse, StreamingHttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.text import slugify
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods

from companion.access import get_group_for_user
from companion.bgstats import (
    BGStatsError,
    ImportPlan,
    bgstats_export_chunks,
    bgstats_plan,
    matches_csv_chunks,
    plan_dump,
    plan_load,
)
from companion.forms.bgstats import REASONS, BGStatsMappingForm, BGStatsUploadForm
from companion.models import Group
from companion.selectors.history import group_players
from companion.services.bgstats import bgstats_import
from companion.services.import_slot import ImportBusy, import_slot
from scoring import GAMES

PLAN = "bgstats-plan"
"""The session's key for the uploaded plan: ``{"group", "id", "name"}`` (the plan itself
is in the cache, :func:`_cache_key`)."""
KEPT_FOR = 24 * 3600
"""Seconds an uploaded plan is kept for its confirm."""
RESULT = "bgstats-result"
"""The session's key for what the last import did (the result page shows it)."""


def _cache_key(request: HttpRequest, group: Group) -> str:
    """Where the plan the user uploaded for ``group`` is kept (one per user and group)."""
    return f"bgstats-plan:{request.user.pk}:{group.pk}"


def _skipped(counts: Counter[str] | dict[str, int]) -> list[tuple[int, str]]:
    """Plays left out per reason, as (count, reason) in the order of :data:`REASONS`."""
    return [(counts[reason], str(label)) for reason, label in REASONS.items()
            if counts.get(reason)]


@login_required
@require_http_methods(["GET", "POST"])
def bgstats_upload(request: HttpRequest, group_id: int) -> HttpResponse:
    """Upload a BG Stats export: it is read and checked, nothing is stored yet."""
    group = get_group_for_user(request.user, group_id)
    posted = request.method == "POST"
    form = BGStatsUploadForm(request.POST if posted else None, request.FILES if posted else None)
    if posted and form.is_valid():
        try:
            with import_slot():  # reading a file takes memory: one at a time per server
                plan = bgstats_plan(form.cleaned_data["file"], group=group)
        except (BGStatsError, ImportBusy) as err:
            form.add_error("file", str(err))
        else:
            plan_id = secrets.token_hex(10)  # the confirm form names the upload it is for
            cache.set(_cache_key(request, group), (plan_id, plan_dump(plan)), KEPT_FOR)
            request.session[PLAN] = {
                "group": group.pk, "id": plan_id, "name": request.FILES["file"].name[:200],
            }
            request.session.pop(RESULT, None)
            return redirect("bgstats_confirm", group_id=group.pk)
    return render(request, "companion/history/bgstats_upload.html",
                  {"group": group, "form": form})


def _kept_plan(request: HttpRequest, group: Group) -> tuple[dict[str, Any], ImportPlan] | None:
    """The plan uploaded for ``group`` in this session, read against the group as it is
    now (its roster, the plays it has meanwhile); None without one."""
    kept = request.session.get(PLAN)
    if not isinstance(kept, dict) or kept.get("group") != group.pk:
        return None
    stored = cache.get(_cache_key(request, group))
    try:
        plan_id, data = stored  # type: ignore[misc]
        if plan_id != kept["id"]:
            raise KeyError(plan_id)  # another session's upload, or kept by an older release
        return kept, plan_load(data, group=group)
    except (KeyError, TypeError, ValueError, zlib.error):  # none kept (expired): upload again
        request.session.pop(PLAN, None)
        return None


@login_required
@require_http_methods(["GET", "POST"])
def bgstats_confirm(request: HttpRequest, group_id: int) -> HttpResponse:
    """What the file becomes: per BG Stats game one of ours or none, per BG Stats player
    a roster player or a new one. "Import" stores the plays; any other submit (a changed
    game, with htmx the preview only) shows the choices again."""
    group = get_group_for_user(request.user, group_id)
    found = _kept_plan(request, group)
    if found is None:
        messages.info(request, _("Upload the BG Stats file first."))
        return redirect("bgstats_upload", group_id=group.pk)
    kept, plan = found
    roster = group_players(group)
    data = request.POST if request.method == "POST" else None
    if data is not None and data.get("plan_id") != kept["id"]:
        messages.warning(request, _("Another BG Stats file was uploaded meanwhile (in another "
                                    "tab?): these are its choices. Check them and import "
                                    "again."))
        data = None
    form = BGStatsMappingForm(data, plan=plan, roster=roster, plan_id=kept["id"])
    wants_import = data is not None and data.get("action") == "import"
    if wants_import and form.is_valid() and not form.unseen:
        try:
            imported = bgstats_import(group=group, plan=plan, mapping=form.mapping(),
                                      user=request.user)
        except BGStatsError as err:
            form.add_error(None, str(err))
        else:
            request.session.pop(PLAN, None)
            cache.delete(_cache_key(request, group))
            request.session[RESULT] = {
                "group": group.pk, "name": kept.get("name", ""), "matches": imported.matches,
                "players": list(imported.players), "skipped": dict(imported.skipped),
                "winners_differ": imported.winners_differ,
            }
            return redirect("bgstats_done", group_id=group.pk)
    prepared = plan.prepare(form.mapping() if form.is_bound else None)
    counts = Counter(ready.game for ready in prepared.ready)
    context = {
        "group": group,
        "form": form,
        "file_name": kept.get("name", ""),
        "plays": len(plan.plays) + plan.duplicates,
        "by_game": [(info, counts[slug]) for slug, info in GAMES.items() if counts[slug]],
        "ready": len(prepared.ready),
        "skipped": _skipped(prepared.skipped),
        "unknown_games": plan.unknown_games,
        "unknown_plays": plan.unknown_plays,
        "unseen": form.unseen if wants_import else [],
    }
    template = "companion/history/bgstats_confirm.html"
    return render(request, f"{template}#preview" if request.htmx else template, context)


@login_required
@require_GET
def bgstats_done(request: HttpRequest, group_id: int) -> HttpResponse:
    """What the last import into the group did."""
    group = get_group_for_user(request.user, group_id)
    result = request.session.get(RESULT)
    if not isinstance(result, dict) or result.get("group") != group.pk:
        return redirect("history", group_id=group.pk)
    return render(request, "companion/history/bgstats_done.html", {
        "group": group,
        "result": result,
        "skipped": _skipped(result.get("skipped", {})),
    })


def _download(chunks: Iterator[str], content_type: str, group: Group,
              suffix: str) -> StreamingHttpResponse:
    """A download sent as it is written (memory per part, not per group)."""
    response = StreamingHttpResponse(chunks, content_type=content_type)
    stem = slugify(group.name) or "group"
    name = f"kartenrunde-{stem}-{timezone.localdate().isoformat()}-{suffix}"
    response["Content-Disposition"] = f'attachment; filename="{name}"'
    return response


@login_required
@require_GET
def bgstats_export(request: HttpRequest, group_id: int) -> StreamingHttpResponse:
    """The group's finished matches as a BG Stats export (JSON), sent as it is written."""
    group = get_group_for_user(request.user, group_id)
    return _download(bgstats_export_chunks(group), "application/json; charset=utf-8", group,
                     "bgstats.json")


@login_required
@require_GET
def matches_export(request: HttpRequest, group_id: int) -> StreamingHttpResponse:
    """Every match and player score as CSV (UTF-8 with a byte order mark for Excel), sent
    as it is written."""
    group = get_group_for_user(request.user, group_id)
    return _download(itertools.chain(["\ufeff"], matches_csv_chunks(group)),
                     "text/csv; charset=utf-8", group, "matches.csv")

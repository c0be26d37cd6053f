"""Views of the BG Stats import and export: upload a ``BGStatsExport.json``, confirm what
it becomes (games, players), see what was imported; download the group's plays in the same
shape and every match as CSV.

Between the upload and the confirm the plan is kept in the user's session as the small
BG Stats document it reads back from (``ImportPlan.document``), so the file is uploaded
once. Any member of the group may import, as any member may record matches.
"""

from __future__ import annotations

import hashlib
import json
from collections import Counter
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.text import slugify
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods

from companion.access import get_group_for_user
from companion.bgstats import (
    BGStatsError,
    ImportPlan,
    bgstats_export_json,
    bgstats_plan,
    matches_csv,
)
from companion.forms.bgstats import REASONS, BGStatsMappingForm, BGStatsUploadForm
from companion.models import Group
from companion.selectors.history import group_players
from companion.services.bgstats import bgstats_import
from scoring import GAMES

PLAN = "bgstats-plan"
"""The session's key for the uploaded plan: ``{"group", "id", "name", "document"}``."""
RESULT = "bgstats-result"
"""The session's key for what the last import did (the result page shows it)."""


def _plan_id(document: dict[str, Any]) -> str:
    """A short fingerprint of a kept plan: the confirm form names the upload it is for."""
    text = json.dumps(document, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()[:20]


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
            plan = bgstats_plan(form.cleaned_data["file"], group=group)
        except BGStatsError as err:
            form.add_error("file", str(err))
        else:
            document = plan.document()
            request.session[PLAN] = {
                "group": group.pk, "id": _plan_id(document),
                "name": request.FILES["file"].name[:200], "document": document,
            }
            request.session.pop(RESULT, None)
            return redirect("bgstats_confirm", group_id=group.pk)
    return render(request, "companion/history/bgstats_upload.html",
                  {"group": group, "form": form})


def _kept_plan(request: HttpRequest, group: Group) -> tuple[dict[str, Any], ImportPlan] | None:
    """The plan uploaded for ``group`` in this session, read again against the group as
    it is now (its roster, the plays it has meanwhile); None without one."""
    kept = request.session.get(PLAN)
    if not isinstance(kept, dict) or kept.get("group") != group.pk:
        return None
    try:
        return kept, bgstats_plan(json.dumps(kept["document"]), group=group)
    except (BGStatsError, KeyError, TypeError):  # kept by an older release: upload again
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


def _download(content: str, content_type: str, group: Group, suffix: str) -> HttpResponse:
    response = HttpResponse(content, content_type=content_type)
    stem = slugify(group.name) or "group"
    name = f"kartenrunde-{stem}-{timezone.localdate().isoformat()}-{suffix}"
    response["Content-Disposition"] = f'attachment; filename="{name}"'
    return response


@login_required
@require_GET
def bgstats_export(request: HttpRequest, group_id: int) -> HttpResponse:
    """The group's finished matches as a BG Stats export (JSON)."""
    group = get_group_for_user(request.user, group_id)
    return _download(bgstats_export_json(group), "application/json; charset=utf-8", group,
                     "bgstats.json")


@login_required
@require_GET
def matches_export(request: HttpRequest, group_id: int) -> HttpResponse:
    """Every match and player score as CSV (UTF-8 with a byte order mark for Excel)."""
    group = get_group_for_user(request.user, group_id)
    return _download("\ufeff" + matches_csv(group), "text/csv; charset=utf-8", group,
                     "matches.csv")

"""What the games' table helpers (``GameApp.tool``) share: each is a view in its game's
folder (``companion/games/<game>/tool.py``), served at ``/tools/<key>/`` by
:func:`companion.views.rules.tool`. A helper keeps its whole state in the URL, so a page
can be bookmarked, shared, reloaded and linked from the score sheet with
``?players=Anna,Ben,Cem`` (and ``?back=``, the sheet whose deal form it can fill).
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlencode

from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import Resolver404, resolve, reverse
from django.utils.translation import get_language
from django_htmx.http import push_url
from django_htmx.middleware import HtmxDetails

from companion.games import game_app
from companion.games.rules_text import RuleRef, language_of, rule_ref


class HtmxHttpRequest(HttpRequest):
    htmx: HtmxDetails


def tool_url(key: str) -> str:
    """The address of the helper ``key`` (``Tool.key``)."""
    return reverse("tool", args=[key])


def rule_refs(slug: str) -> dict[str, RuleRef]:
    """Every rule of a game by anchor (hyphens as underscores, for templates)."""
    language = language_of(get_language())
    text = game_app(slug).rules[language]
    return {
        section.anchor.replace("-", "_"): rule_ref(slug, section.anchor, language)
        for section in text.sections
    }


def back_to_sheet(request: HttpRequest) -> str:
    """``?back=``: the score sheet that opened a helper, where its result can be
    taken over. Only the path of a score sheet of this site is accepted."""
    raw = request.GET.get("back", "")
    if not raw.startswith("/") or raw.startswith("//"):
        return ""
    try:
        found = resolve(raw)
    except Resolver404:
        return ""
    return raw if found.url_name == "match_sheet" else ""


def after_action(
    request: HtmxHttpRequest, key: str, template: str, query: dict[str, str],
    context: dict[str, Any],
) -> HttpResponse:
    """After an action: htmx swaps the tool and pushes the new state URL; without
    JavaScript the browser is redirected to it. Either way a reload repeats nothing."""
    url = f"{tool_url(key)}?{urlencode(query)}"
    if request.htmx:
        response = render(request, f"{template}#tool", context)
        return push_url(response, url)
    return HttpResponseRedirect(url)


def answer(request: HtmxHttpRequest, template: str, context: dict[str, Any]) -> HttpResponse:
    """The helper's page, or only its ``tool`` partial for htmx."""
    if request.htmx:
        return render(request, f"{template}#tool", context)
    return render(request, template, context)

"""Views of the rules area: rules pages, search, legality checks, live helpers.

Everything here is public and read-only: nothing is stored. The checks post
their input and get the engine's answer back; the two live helpers keep their
whole state in the URL, so a page can be bookmarked, shared, reloaded and
linked from the score sheet with ``?players=Anna,Ben,Cem``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any
from urllib.parse import urlencode

from django import forms
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import get_language
from django.views.decorators.http import require_GET, require_http_methods
from django_htmx.http import push_url
from django_htmx.middleware import HtmxDetails

from companion.forms import rules as check_forms
from companion.rules_content import game_text, language_of
from companion.selectors.rules import (
    MIN_QUERY,
    RuleRef,
    known_game,
    rule_ref,
    search_rules,
)
from scoring import GAMES, x_nimmt

CHECK_FORMS: dict[str, dict[str, type[forms.Form]]] = {
    "drei-sind-einer-zuviel": {"place": check_forms.DreiCheckForm},
    "x-nimmt": {"round": check_forms.XRoundForm, "xrow": check_forms.XRowForm},
    "freaky": {"place": check_forms.FreakyPlaceForm, "collect": check_forms.FreakyCollectForm},
    "elf-nimmt": {"play": check_forms.ElfPlayForm, "take": check_forms.ElfTakeForm},
    "dreizehn": {"play": check_forms.DreizehnCheckForm},
}
"""Per game, the check forms on its check page, keyed by their form prefix."""

class HtmxHttpRequest(HttpRequest):
    htmx: HtmxDetails


TOOLS = {"elf-nimmt": "tool_bulls", "dreizehn": "tool_targets"}
"""The live helper of a game, by URL name."""


def _language() -> str:
    return language_of(get_language())


def _game_or_404(game: str) -> str:
    if not known_game(game):
        raise Http404("Unknown game")
    return game


def _rule_refs(slug: str) -> dict[str, RuleRef]:
    """Every rule of a game by anchor (hyphens as underscores, for templates)."""
    language = _language()
    text = game_text(slug, language)
    return {
        section.anchor.replace("-", "_"): rule_ref(slug, section.anchor, language)
        for section in text.sections
    }


def _players(request: HtmxHttpRequest) -> list[str]:
    """``?players=Anna,Ben,Cem`` as a list of names (blank names dropped)."""
    raw = request.GET.get("players", "")
    names: list[str] = []
    for name in raw.split(","):
        name = name.strip()[:40]
        if name and name not in names:
            names.append(name)
    return names[:7]


# ------------------------------------------------------------------------- pages


@require_GET
def rules_index(request: HtmxHttpRequest) -> HttpResponse:
    """The five games with their key rule, and the search."""
    language = _language()
    games = [
        {"text": game_text(slug, language), "info": info, "tool": TOOLS.get(slug)}
        for slug, info in GAMES.items()
    ]
    return render(request, "rules/index.html", {"games": games, "query": ""})


@require_GET
def rules_game(request: HtmxHttpRequest, game: str) -> HttpResponse:
    """One game's rules, every heading with an anchor."""
    slug = _game_or_404(game)
    text = game_text(slug, _language())
    return render(request, "rules/game.html", {
        "text": text, "info": GAMES[slug], "tool": TOOLS.get(slug),
        "players": ",".join(_players(request)),
    })


@require_GET
def rules_search(request: HtmxHttpRequest) -> HttpResponse:
    """Search all rules in the current language; htmx gets only the results."""
    query = request.GET.get("q", "").strip()[:100]
    hits = search_rules(query, _language())
    context = {"query": query, "hits": hits, "too_short": 0 < len(query) < MIN_QUERY}
    if request.htmx:
        return render(request, "rules/search.html#results", context)
    return render(request, "rules/search.html", context)


# ------------------------------------------------------------------------ checks


@dataclass(frozen=True, slots=True)
class XStepView:
    """One step of an X nimmt! round with the rule that decided it."""

    step: x_nimmt.Step
    row_card: int
    rule: RuleRef


X_RULE_ANCHORS = {
    x_nimmt.PlacementRule.ASCENDING: "rule-lowest-difference",
    x_nimmt.PlacementRule.FULL_ROW: "rule-full-row",
    x_nimmt.PlacementRule.LOW_CARD: "rule-low-card",
}


def _x_nimmt_context(form: forms.Form) -> dict[str, Any]:
    answer = getattr(form, "answer", None)
    if not isinstance(answer, x_nimmt.RoundResolution):
        return {}
    language = _language()
    steps = [
        XStepView(step, check_forms.X_ROW_CARDS[step.row],
                  rule_ref("x-nimmt", X_RULE_ANCHORS[step.rule], language))
        for step in answer.steps
    ]
    options: list[dict[str, Any]] = []
    pending = answer.pending
    if pending is not None and pending.kind is x_nimmt.ChoiceKind.ROW:
        options = [
            {"value": f"{pending.card}:{index}", "row_card": check_forms.X_ROW_CARDS[index],
             "takes": answer.rows[index]}
            for index in pending.options
        ]
    elif pending is not None:
        options = [{"value": f"{pending.card}:{card}", "card": card} for card in pending.options]
    return {
        "x_steps": steps, "x_options": options,
        "x_rows_after": [
            (check_forms.X_ROW_CARDS[i], row) for i, row in enumerate(answer.rows)
        ],
    }


@require_http_methods(["GET", "POST"])
def rules_check(request: HtmxHttpRequest, game: str) -> HttpResponse:
    """A game's legality checks: post the situation, get the engine's answer."""
    slug = _game_or_404(game)
    which = request.POST.get("check") if request.method == "POST" else None
    players = _players(request)
    bound: dict[str, forms.Form] = {}
    for key, form_class in CHECK_FORMS[slug].items():
        data = request.POST if key == which else None
        kwargs: dict[str, Any] = {"prefix": key}
        if form_class is check_forms.XRoundForm:
            kwargs["players"] = players or ["Anna", "Ben", "Cem"]
        bound[key] = form_class(data, **kwargs)
    extra: dict[str, Any] = {}
    if which in bound:
        form = bound[which]
        form.is_valid()
        if slug == "x-nimmt" and which == "round":
            if request.POST.get("round-next") and isinstance(form, check_forms.XRoundForm) \
                    and form.answer is not None and form.answer.complete:
                bound["round"] = check_forms.next_round_form(form)
            else:
                extra = _x_nimmt_context(form)
    module = GAMES[slug].module.rsplit(".", 1)[1]
    context = {
        "info": GAMES[slug], "text": game_text(slug, _language()), "forms": bound,
        "which": which, "rules": _rule_refs(slug), "tool": TOOLS.get(slug),
        "players": ",".join(players), **extra,
    }
    template = f"rules/check_{module}.html"
    if request.htmx and which in bound:
        return render(request, f"{template}#{which}", context)
    return render(request, template, context)


# -------------------------------------------------------------------- live helpers


def _after_action(
    request: HtmxHttpRequest, url_name: str, template: str, query: dict[str, str],
    context: dict[str, Any],
) -> HttpResponse:
    """After an action: htmx swaps the tool and pushes the new state URL; without
    JavaScript the browser is redirected to it. Either way a reload repeats nothing."""
    url = f"{reverse(url_name)}?{urlencode(query)}"
    if request.htmx:
        response = render(request, f"{template}#tool", context)
        return push_url(response, url)
    return HttpResponseRedirect(url)


@require_GET
def tool_bulls(request: HtmxHttpRequest) -> HttpResponse:
    """11 nimmt!: who holds how many of the 10 bull cards in the running deal."""
    players = _players(request)
    form = check_forms.BullsForm(request.GET, players=players)
    form.is_valid()
    state = form.state_query()
    state.pop("ev", None)
    context = {"form": form, "rules": _rule_refs("elf-nimmt"), "players": players,
               "base_query": urlencode(state)}
    template = "rules/tool_bulls.html"
    if form.acted:
        return _after_action(request, "tool_bulls", template, form.state_query(), context)
    if request.htmx:
        return render(request, f"{template}#tool", context)
    return render(request, template, context)


@require_GET
def tool_targets(request: HtmxHttpRequest) -> HttpResponse:
    """13: the running total of each target, and who has taken what this deal."""
    players = _players(request)
    form = check_forms.TargetsForm(request.GET, players=players)
    form.is_valid()
    context = {"form": form, "rules": _rule_refs("dreizehn"), "players": players}
    template = "rules/tool_targets.html"
    if form.acted:
        return _after_action(request, "tool_targets", template,
                             {**form.state_query(), **form.event_query()}, context)
    if request.htmx:
        return render(request, f"{template}#tool", context)
    return render(request, template, context)

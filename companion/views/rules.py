"""Views of the rules area: rules pages, search, legality checks, live helpers.

Everything here is public and read-only: nothing is stored. The checks post
their input, the game's forms parse it and its check answers (with the rule
that decides, linked on the page; both in the game's folder, see
:mod:`companion.games`); the two live helpers keep their whole state in the URL,
so a page can be bookmarked, shared, reloaded and linked from the score sheet
with ``?players=Anna,Ben,Cem``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any
from urllib.parse import urlencode

from django.core.exceptions import ValidationError
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.module_loading import import_string
from django.utils.translation import get_language
from django.views.decorators.http import require_GET, require_http_methods
from django_htmx.middleware import HtmxDetails

from companion.games import GAME_APPS, GameApp, game_app
from companion.games.check_forms import CheckForm, parse_players
from companion.games.tools import back_to_sheet, rule_refs
from companion.rules_content import language_of
from companion.rules_search.answers import MAX_QUESTION, MIN_QUESTION, search
from companion.selectors.rules import rule_ref


class HtmxHttpRequest(HttpRequest):
    htmx: HtmxDetails


def _language() -> str:
    return language_of(get_language())


def _game_or_404(game: str) -> GameApp:
    try:
        return game_app(game)
    except KeyError:
        raise Http404("Unknown game") from None


def _players(request: HtmxHttpRequest) -> list[str]:
    """``?players=Anna,Ben,Cem`` to pass on in links (the pages that use the names
    check them: :func:`companion.games.check_forms.parse_players`)."""
    raw = request.GET.get("players", "")[:1000].replace("\x00", "")
    return [name.strip() for name in raw.split(",") if name.strip()]


# ------------------------------------------------------------------------- pages


@require_GET
def rules_index(request: HtmxHttpRequest) -> HttpResponse:
    """The games with their key rule, and the search."""
    language = _language()
    games = [
        {"text": app.rules[language], "info": app.info, "tool": app.tool}
        for app in GAME_APPS.values()
    ]
    return render(request, "rules/index.html", {"games": games, "query": ""})


@require_GET
def rules_game(request: HtmxHttpRequest, game: str) -> HttpResponse:
    """One game's rules, every heading with an anchor."""
    app = _game_or_404(game)
    return render(request, "rules/game.html", {
        "text": app.rules[_language()], "info": app.info, "tool": app.tool,
        "players": ",".join(_players(request)),
    })


@require_GET
def rules_search(request: HtmxHttpRequest) -> HttpResponse:
    """A rules question answered from all games' rules in the current language, the game
    of ``?game=`` (the page it was asked on) preferred; htmx gets only the answers."""
    query = request.GET.get("q", "").strip()[:MAX_QUESTION]
    game = request.GET.get("game", "")
    prefer = game if game in GAME_APPS else None
    context = {
        "query": query, "game": prefer or "", "answers": search(query, _language(), prefer=prefer),
        "too_short": 0 < len(query) < MIN_QUESTION,
    }
    if request.htmx:
        return render(request, "rules/search.html#results", context)
    return render(request, "rules/search.html", context)


# ------------------------------------------------------------------------ checks


def _check_players(request: HtmxHttpRequest, slug: str) -> tuple[list[str], str]:
    """The players a check page was opened with (``?players=``), and the message when they
    cannot play this game (then the page starts with no names)."""
    raw = request.GET.get("players", "")
    if not raw.strip():
        return [], ""
    try:
        return parse_players(raw[:1000], slug), ""
    except ValidationError as err:
        return [], " ".join(err.messages)


def _prefilled(request: HtmxHttpRequest, form: CheckForm) -> dict[str, Any]:
    """The values a link put in the URL for one check (``?play-tops=18&play-hand=23``, from
    a rules question that names cards), each read by the form's own field. A value its
    field refuses is left out: the page opens filled in, with no errors, nothing checked."""
    if request.method != "GET":
        return {}
    initial: dict[str, Any] = {}
    for name, field in form.fields.items():
        key = form.add_prefix(name)
        if key not in request.GET:
            continue
        value = field.widget.value_from_datadict(request.GET, {}, key)
        try:
            field.clean(value)
        except ValidationError:
            continue
        initial[name] = value
    return initial


@require_http_methods(["GET", "POST"])
def rules_check(request: HtmxHttpRequest, game: str) -> HttpResponse:
    """A game's legality checks: post the situation, get the answer of the game's check."""
    app = _game_or_404(game)
    slug = app.slug
    which = request.POST.get("check") if request.method == "POST" else None
    if request.method == "POST" and which not in app.check_forms:
        # Only a forged or garbled request names no check of this game: our 400 page,
        # not the whole page again (which htmx would put inside the answer's box).
        return render(request, "400.html", status=400)
    players, players_error = _check_players(request, slug)
    bound: dict[str, CheckForm] = {}
    for key, form_class in app.check_forms.items():
        form = form_class.on_page(request.POST if key == which else None, prefix=key,
                                  players=players, query=request.GET)
        if key != which and (prefilled := _prefilled(request, form)):
            form.initial = {**form.initial, **prefilled}
        bound[key] = form
    if which in bound:
        form = bound[which]
        form.is_valid()
        bound[which] = form.next_form() or form
    language = _language()
    decided = {
        key: rule_ref(slug, form.answer.rule, language)
        for key, form in bound.items() if form.answer is not None
    }
    # The sheet that opened the check (``?back=``): a way back to it, kept while checking.
    back = back_to_sheet(request)
    context = {
        "info": app.info, "text": app.rules[language], "forms": bound,
        "which": which, "rules": rule_refs(slug), "tool": app.tool,
        "players": ",".join(players), "players_error": players_error, "decided": decided,
        "back": back, "check_query": urlencode({
            key: value for key, value in (("players", ",".join(players)), ("back", back))
            if value
        }),
    }
    template = app.check_template
    if request.htmx and which in bound:
        return render(request, f"{template}#{which}", context)
    return render(request, template, context)


# -------------------------------------------------------------------- live helpers


@require_GET
def tool(request: HtmxHttpRequest, key: str) -> HttpResponse:
    """A game's table helper (``GameApp.tool``): its view is in the game's folder."""
    for app in GAME_APPS.values():
        if app.tool is not None and app.tool.key == key:
            view: Callable[[HtmxHttpRequest], HttpResponse] = import_string(app.tool.view)
            return view(request)
    raise Http404("Unknown tool")

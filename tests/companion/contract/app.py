"""Strafpunkte in the app: everything a game's folder brings, in one module (the contract
test registers it with :func:`register`; it is never shipped)."""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from django import forms
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import ngettext

import scoring
from companion import games
from companion.games.app import GameApp, Tool
from companion.games.check_forms import CheckForm, number_field
from companion.games.checks import Refusal
from companion.games.entry import (
    CARD_MODES,
    EntryFormat,
    Mode,
    cards_field,
    count_field,
    parse_cards,
)
from companion.games.rules_text import GameText, Section
from companion.games.search_words import GameSearch
from companion.models import Seat
from companion.selectors.stats import Figure, Tallies, ratio
from scoring.common import ScorePart
from tests.companion.contract import engine

SLUG = engine.SLUG
OPTION = "last_deal_doubled"
"""The game's match option, set by its own field on the new-match form."""


# ------------------------------------------------------------------- the deal form

class StrafpunkteFormat(EntryFormat):
    modes = (Mode("counts", "Strafpunkte"), Mode("cards", "Karten"))
    cards = engine.CARDS
    cards_label = "Karten (Strafpunkte):"

    def card_value(self, card: int) -> int:
        return engine.card_points(card)

    def player_fields(self, mode: str) -> dict[str, forms.Field]:
        if mode in CARD_MODES:
            return {"cards": cards_field("Karten auf der Hand", self.cards)}
        return {"penalty": count_field("Strafpunkte")}

    def entry_data(self, values: Mapping[str, Any], deal: Mapping[str, Any], seat: Seat,
                   mode: str) -> dict[str, object]:
        if mode in CARD_MODES:
            return {"cards": parse_cards(values.get("cards") or "", self.cards)}
        return {"penalty": values.get("penalty") or 0}

    def initial(self, data: Mapping[str, Any], mode: str) -> dict[str, Any]:
        if mode in CARD_MODES:
            return {"cards": ", ".join(str(card) for card in data.get("cards") or ())}
        return {"penalty": engine.entry_from_dict(data).points() if data else 0}

    def mode_for(self, datas: Sequence[Mapping[str, Any]]) -> str:
        return "cards" if any("cards" in data for data in datas) else "counts"


# ------------------------------------------------------------------- the check page

@dataclass(frozen=True, slots=True)
class Answer:
    goes_out: bool
    rule: str


class DealCheckForm(CheckForm):
    penalty = number_field("Strafpunkte", minimum=0, maximum=99)

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        if "penalty" in cleaned:
            self.answer = self.ask(lambda: Answer(cleaned["penalty"] == 0, "scoring"))
        return cleaned


# ----------------------------------------------------------------- the table helper

def tool_view(request: HttpRequest) -> HttpResponse:
    return render(request, "games/strafpunkte/tool.html",
                  {"players": request.GET.get("players", "")[:200]})


# ------------------------------------------------------------- options and numbers

def check_doubled(value: Any) -> None:
    if not isinstance(value, bool):
        raise Refusal("the option “last_deal_doubled” is yes or no.")


def start_fields() -> dict[str, forms.Field]:
    return {OPTION: forms.BooleanField(label="Strafpunkte: letzte Runde doppelt",
                                       required=False)}


def start_options(cleaned: Mapping[str, Any]) -> dict[str, object]:
    return {OPTION: bool(cleaned.get(OPTION))}


def tally(entry: Any) -> dict[str, int]:
    return {"penalties": entry.points()}


def figures(data: Tallies) -> tuple[Figure, ...]:
    return (Figure("Strafpunkte je Spieler und Runde",
                   ratio(data.total("penalties"), data.total("entries")), "number",
                   data.per_player("penalties")),)


def part_text(part: ScorePart) -> str:
    return ngettext("%(count)s Strafpunkt", "%(count)s Strafpunkte", part.count) % {
        "count": part.count}


# ---------------------------------------------------------------------- the rules

def _text(language: str) -> GameText:
    words = {"de": ("Strafpunkte", "Wer die wenigsten Strafpunkte hat, gewinnt."),
             "en": ("Strafpunkte", "Whoever has the fewest penalty points wins.")}[language]
    sections = (
        Section("overview", "Überblick", "<p>Strafpunkte sammeln, so wenige wie möglich.</p>"),
        Section("material", "Material", "<p>Dreißig Zahlenkarten.</p>"),
        Section("setup", "Vorbereitung", "<p>Jeder bekommt Karten.</p>"),
        Section("turn", "Spielzug", "<p>Karten ablegen, bis einer keine mehr hat.</p>"),
        Section("scoring", "Wertung", "<p>Jede Handkarte bringt Strafpunkte: Quittenmus.</p>"),
        Section("end", "Spielende", "<p>Nach drei Runden.</p>"),
        Section("special-cases", "Sonderfälle", "<p>Keine.</p>"),
        Section("app-decides", "So entscheidet die App", "<p>Eine Entscheidung.</p>",
                decision=True),
        Section("app-decides-out", "Einer geht raus", "<p>Jede Runde hat 0.</p>", level=3,
                decision=True),
    )
    return GameText(SLUG, words[0], words[1], words[1], sections)


SEARCH = GameSearch(names=("strafpunkte",), move_sections=("turn",))

APP = GameApp(
    slug=SLUG,
    info=engine.INFO,
    rules={"de": _text("de"), "en": _text("en")},
    check_forms={"penalty": DealCheckForm},
    check_template="games/strafpunkte/check.html",
    tally=tally,
    figures=figures,
    entry=StrafpunkteFormat(),
    search=SEARCH,
    tool=Tool("strafpunkte", "Strafpunkte-Zettel", "tests.companion.contract.app.tool_view"),
    option_checks={OPTION: check_doubled},
    start_fields=start_fields,
    start_options=start_options,
    demo_players=(3, 4),
    part_texts={engine.PART: part_text},
    bgstats_names=("Strafpunkte",),
)


@contextmanager
def registered() -> Iterator[GameApp]:
    """Strafpunkte in both registries while the block runs."""
    scoring.register(engine.INFO)
    try:
        games.register(APP)
        try:
            yield APP
        finally:
            games.unregister(SLUG)
    finally:
        scoring.unregister(SLUG)

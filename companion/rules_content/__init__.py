"""The rules texts shown in the app, written by the project in its own words.

One module per game holds two :class:`GameText` values, ``DE`` and ``EN``.
The texts are per-language content, not gettext strings: a whole rules page
is written once per language. Section anchors are the same in both
languages, so a link such as ``/rules/x-nimmt/#rule-full-row`` points to the
same rule whatever language the reader has chosen.

Bodies are trusted HTML written by the project (paragraphs, lists, <strong>);
user input never goes into them.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from types import ModuleType

from scoring import GAMES

LANGUAGES = ("de", "en")
"""Languages the rules are written in; German is the default."""


@dataclass(frozen=True, slots=True)
class Section:
    """One heading of a rules page and the text below it."""

    anchor: str
    """Stable id of the heading, the same in every language."""
    title: str
    body: str
    """Trusted HTML written by the project."""
    level: int = 2
    """2 for a main heading, 3 for a rule inside it."""
    decision: bool = False
    """True for a point the rulebook leaves open and the app decides."""


@dataclass(frozen=True, slots=True)
class GameText:
    """A game's rules page in one language."""

    slug: str
    title: str
    summary: str
    """One sentence: what the game is about (plain text)."""
    key_rule: str
    """The rule players forget most, shown at the top (plain text)."""
    sections: tuple[Section, ...]

    def section(self, anchor: str) -> Section:
        """The section with ``anchor``; ``KeyError`` if there is none."""
        for section in self.sections:
            if section.anchor == anchor:
                return section
        raise KeyError(anchor)


_MODULES = {
    "drei-sind-einer-zuviel": "companion.rules_content.drei_sind_einer_zuviel",
    "x-nimmt": "companion.rules_content.x_nimmt",
    "freaky": "companion.rules_content.freaky",
    "elf-nimmt": "companion.rules_content.elf_nimmt",
    "dreizehn": "companion.rules_content.dreizehn",
}


def _module(slug: str) -> ModuleType:
    return importlib.import_module(_MODULES[slug])


def language_of(code: str | None) -> str:
    """The rules language for a Django language code ("de-at" → "de", "fr" → "de")."""
    base = (code or "de").split("-")[0].lower()
    return base if base in LANGUAGES else LANGUAGES[0]


def game_text(slug: str, language: str) -> GameText:
    """The rules of one game in ``language``; ``KeyError`` for an unknown slug."""
    text: GameText = getattr(_module(slug), language_of(language).upper())
    return text


def all_texts(language: str) -> tuple[GameText, ...]:
    """The rules of all five games in the engine's order."""
    return tuple(game_text(slug, language) for slug in GAMES)

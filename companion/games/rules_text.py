"""The shape of the rules texts shown in the app, written by the project in its own words.

Each game's folder has a ``rules_text`` module with two :class:`GameText` values,
``DE`` and ``EN``, registered in its ``GameApp.rules``.
The texts are per-language content, not gettext strings: a whole rules page
is written once per language. Section anchors are the same in both
languages, so a link such as ``/rules/x-nimmt/#rule-full-row`` points to the
same rule whatever language the reader has chosen.

Bodies are trusted HTML written by the project (paragraphs, lists, <strong>);
user input never goes into them.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.urls import reverse

LANGUAGES = ("de", "en")
"""Languages the rules are written in; German is the default."""

SKELETON = ("overview", "material", "setup", "turn", "scoring", "end", "special-cases",
            "app-decides")
"""The anchors every rules page has (its main headings; a game adds its own sections
around and under them): readers find the same heading on every game's page. The
points the app decides are level-3 sections with ``decision=True`` after
``app-decides``."""


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


def language_of(code: str | None) -> str:
    """The rules language for a Django language code ("de-at" → "de", "fr" → "de").

    >>> language_of("de-at"), language_of("en"), language_of("fr"), language_of(None)
    ('de', 'en', 'de', 'de')
    """
    base = (code or "de").split("-")[0].lower()
    return base if base in LANGUAGES else LANGUAGES[0]


@dataclass(frozen=True, slots=True)
class RuleRef:
    """A link to one rule: the heading's title in the reader's language and its URL."""

    slug: str
    anchor: str
    title: str
    url: str


def rule_ref(slug: str, anchor: str, language: str | None) -> RuleRef:
    """The link to a rule of a game; ``KeyError`` for an unknown game or anchor."""
    from companion.games import game_app  # the games' texts are built from this module

    section = game_app(slug).rules[language_of(language)].section(anchor)
    url = reverse("rules_game", args=[slug])
    return RuleRef(slug, anchor, section.title, f"{url}#{anchor}")

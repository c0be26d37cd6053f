"""Reads for the rules area: rules texts by language and rule links (the search is
:mod:`companion.rules_search`)."""

from __future__ import annotations

from dataclasses import dataclass
from html import unescape

from django.urls import reverse
from django.utils.html import strip_tags

from companion.games.rules_text import Section
from companion.rules_content import game_text, language_of


@dataclass(frozen=True, slots=True)
class RuleRef:
    """A link to one rule: the heading's title in the reader's language and its URL."""

    slug: str
    anchor: str
    title: str
    url: str


def game_url(slug: str) -> str:
    return reverse("rules_game", args=[slug])


def rule_ref(slug: str, anchor: str, language: str | None) -> RuleRef:
    """The link to a rule of a game; ``KeyError`` for an unknown anchor."""
    text = game_text(slug, language_of(language))
    section = text.section(anchor)
    return RuleRef(slug, anchor, section.title, f"{game_url(slug)}#{anchor}")


def plain_text(section: Section) -> str:
    """A section's body as plain text, whitespace collapsed, HTML entities resolved."""
    return " ".join(unescape(strip_tags(section.body)).split())

"""Reads for the rules area: rules texts by language and rule links (the search is
:mod:`companion.rules_search`)."""

from __future__ import annotations

from html import unescape

from django.urls import reverse
from django.utils.html import strip_tags

from companion.games.rules_text import RuleRef, Section, rule_ref

__all__ = ["RuleRef", "game_url", "plain_text", "rule_ref"]


def game_url(slug: str) -> str:
    return reverse("rules_game", args=[slug])


def plain_text(section: Section) -> str:
    """A section's body as plain text, whitespace collapsed, HTML entities resolved."""
    return " ".join(unescape(strip_tags(section.body)).split())

"""Reads for the rules area: rules texts by language, rule links, search."""

from __future__ import annotations

import re
from dataclasses import dataclass
from html import unescape

from django.urls import reverse
from django.utils.html import escape, strip_tags
from django.utils.safestring import SafeString, mark_safe

from companion.games.rules_text import GameText, Section
from companion.rules_content import all_texts, game_text, language_of

MIN_QUERY = 2
"""Shortest query that is searched ("13" must work)."""
MAX_QUERY = 100
SNIPPET_BEFORE = 60
SNIPPET_AFTER = 140


@dataclass(frozen=True, slots=True)
class RuleRef:
    """A link to one rule: the heading's title in the reader's language and its URL."""

    slug: str
    anchor: str
    title: str
    url: str


@dataclass(frozen=True, slots=True)
class SearchHit:
    """One rules section that matches a search, with the matches marked."""

    game: GameText
    section: Section
    url: str
    title_html: SafeString
    snippet_html: SafeString


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


def _terms(query: str) -> tuple[str, ...]:
    words = query.split()
    unique: list[str] = []
    for word in words:
        if word.casefold() not in (w.casefold() for w in unique):
            unique.append(word)
    return tuple(unique)


def _mark(text: str, pattern: re.Pattern[str]) -> SafeString:
    """``text`` escaped, each match wrapped in <mark>."""
    parts: list[str] = []
    last = 0
    for match in pattern.finditer(text):
        parts.append(escape(text[last : match.start()]))
        parts.append(f"<mark>{escape(match.group(0))}</mark>")
        last = match.end()
    parts.append(escape(text[last:]))
    return mark_safe("".join(parts))  # every piece of text was escaped above


def _snippet(text: str, pattern: re.Pattern[str]) -> str:
    first = pattern.search(text)
    if first is None:
        return text[: SNIPPET_BEFORE + SNIPPET_AFTER] + ("…" if len(text) > 200 else "")
    start = max(0, first.start() - SNIPPET_BEFORE)
    end = min(len(text), first.end() + SNIPPET_AFTER)
    if start > 0:
        space = text.find(" ", start)
        start = space + 1 if 0 <= space < first.start() else start
    if end < len(text):
        space = text.rfind(" ", first.end(), end)
        end = space if space > first.end() else end
    return ("…" if start > 0 else "") + text[start:end] + ("…" if end < len(text) else "")


def search_rules(query: str, language: str | None) -> tuple[SearchHit, ...]:
    """Sections of all games' rules in ``language`` that contain every word of ``query``.

    Case does not matter. Titles and snippets come back as HTML with the
    matching words in <mark>; everything else, the query included, is escaped.
    """
    terms = _terms(query.strip()[:MAX_QUERY])
    if not terms or len(" ".join(terms)) < MIN_QUERY:
        return ()
    folded = [term.casefold() for term in terms]
    pattern = re.compile(
        "|".join(re.escape(term) for term in sorted(terms, key=len, reverse=True)),
        re.IGNORECASE,
    )
    hits: list[SearchHit] = []
    for text in all_texts(language_of(language)):
        for section in text.sections:
            body = plain_text(section)
            haystack = f"{section.title} {body}".casefold()
            if not all(term in haystack for term in folded):
                continue
            hits.append(
                SearchHit(
                    game=text,
                    section=section,
                    url=f"{game_url(text.slug)}#{section.anchor}",
                    title_html=_mark(section.title, pattern),
                    snippet_html=_mark(_snippet(body, pattern), pattern),
                )
            )
    phrase = " ".join(folded)

    def rank(hit: SearchHit) -> int:
        """Whole phrase in the title first, then in the text, then scattered words."""
        if phrase in hit.section.title.casefold():
            return 0
        return 1 if phrase in plain_text(hit.section).casefold() else 2

    return tuple(sorted(hits, key=rank))

"""Rules questions answered: the sections of all games' rules that answer a question,
best first, with the answering sentence and, where the question names cards, the game's
check with them filled in.

>>> answers = search("darf ich eine Bullenkarte zweimal benutzen?", "de")
>>> answers[0].game.slug, answers[0].section.anchor
('elf-nimmt', 'app-decides-bull-cards-kept')
"""

from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import urlencode

from django.urls import reverse

from companion.games.rules_text import GameText, Section
from companion.rules_content import language_of
from companion.rules_search.card_questions import prefill
from companion.rules_search.index import Passage, index_for
from companion.rules_search.ranking import rank, read_question

MIN_QUESTION = 2
"""Shortest question that is searched ("13" must work)."""
MAX_QUESTION = 100
SNIPPET = 220
"""Longest answering sentence shown whole; a longer one is cut around its first match."""


@dataclass(frozen=True, slots=True)
class Segment:
    """A piece of a heading or sentence, marked when it matched the question."""

    text: str
    marked: bool = False


@dataclass(frozen=True, slots=True)
class CheckOffer:
    """The game's legality check with the question's cards filled in."""

    url: str
    fields: dict[str, str]


@dataclass(frozen=True, slots=True)
class OwnWord:
    """A sibling game's word in a question about a game that says it otherwise: "Reihe"
    asked about 11 nimmt!, searched as its "Stapel"."""

    asked: str
    own: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Answer:
    """One section that answers a question."""

    game: GameText
    section: Section
    url: str
    title: tuple[Segment, ...]
    sentence: tuple[Segment, ...]
    score: float
    check: CheckOffer | None = None
    own_words: tuple[OwnWord, ...] = ()
    """On the first answer: the words of the question searched as this game's words."""
    other_games: bool = False
    """On the first answer: nothing in the page's game answered, so all games did (not when
    the question names another game: then that game's answers are the ones asked for)."""


def segments(passage: Passage, marked: frozenset[str], *, limit: int = 0) -> tuple[Segment, ...]:
    """``passage`` cut into marked and plain pieces; with ``limit``, a long passage is cut
    to about that many characters around its first marked word."""
    text = passage.text
    hits = [word for word in passage.words if marked.intersection(word.terms)]
    start, end = 0, len(text)
    if limit and len(text) > limit:
        first = hits[0].start if hits else 0
        start = max(0, first - limit // 3)
        start = text.find(" ", start) + 1 if start else 0
        end = min(len(text), start + limit)
        end = text.rfind(" ", start, end) if end < len(text) else end
        end = max(end, hits[0].end if hits else end)
    pieces: list[Segment] = [Segment("…")] if start else []
    last = start
    for word in hits:
        if word.start < start or word.end > end:
            continue
        if word.start > last:
            pieces.append(Segment(text[last:word.start]))
        pieces.append(Segment(text[word.start:word.end], marked=True))
        last = word.end
    if end > last:
        pieces.append(Segment(text[last:end]))
    if end < len(text):
        pieces.append(Segment("…"))
    return tuple(pieces)


def _check_offer(slug: str, words: tuple[str, ...]) -> CheckOffer | None:
    found = prefill(slug, words)
    if found is None:
        return None
    query = urlencode({f"{found.check}-{name}": value for name, value in found.fields.items()})
    url = f"{reverse('rules_check', args=[slug])}?{query}#check-{found.check}"
    return CheckOffer(url, found.fields)


def search(question: str, language: str | None, *, prefer: str | None = None,
           limit: int = 8) -> tuple[Answer, ...]:
    """The sections of all games' rules in ``language`` that answer ``question``, best first.

    ``prefer`` (a game's slug) is the game being played: only its sections answer,
    unless the question names another game (then that game's) or nothing in it answers
    (then all games'). A game named in the question keeps the answers to that game.
    Where the question names cards of a move and the game has a check for it, the game's
    first answer offers the check with the cards filled in.
    """
    question = question.strip()[:MAX_QUESTION]
    if len(question) < MIN_QUESTION:
        return ()
    index = index_for(language_of(language))
    read = read_question(question, index, prefer=prefer)
    ranked = rank(read, index, prefer=prefer, limit=limit)
    other_games = False
    if not ranked and prefer and not read.games:
        # Nothing in the page's game ("Bullenkarte" on the Freaky sheet): the others answer.
        read = read_question(question, index)
        ranked = rank(read, index, limit=limit)
        other_games = True
    if not ranked:
        return ()
    offered_game = read.games[0] if len(read.games) == 1 else ranked[0].document.game.slug
    offer = _check_offer(offered_game, read.words)
    answers: list[Answer] = []
    own_words = tuple(OwnWord(asked, own) for asked, own in read.own_words)
    for item in ranked:
        document = item.document
        check = None
        if offer is not None and document.game.slug == offered_game:
            check, offer = offer, None
        sentence = segments(item.sentence, item.marked, limit=SNIPPET) if item.sentence else ()
        answers.append(Answer(
            game=document.game, section=document.section, url=document.url,
            title=segments(document.title, item.marked), sentence=sentence,
            score=item.score, check=check, own_words=() if answers else own_words,
            other_games=other_games and not answers,
        ))
    return tuple(answers)

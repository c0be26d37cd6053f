"""The search index of one language: every rules section of every game, its
sentences, its words as stems, and the vocabulary typos are matched against.

Built once per process and language, on the first question (about 0.1 s),
from :func:`companion.rules_content.all_texts`: the texts are code, the same
in every process, so nothing here needs sharing or invalidating.
"""

from __future__ import annotations

import math
import re
import threading
from collections import defaultdict
from dataclasses import dataclass
from html import unescape

from django.urls import reverse
from django.utils.html import strip_tags

from companion.games.rules_text import GameText, Section
from companion.rules_content import all_texts
from companion.rules_search.synonyms import find_phrases, thesaurus
from companion.rules_search.text import COUNT, is_number, is_stop_word, stem, tokens

TITLE_WEIGHT = 3.0
"""A word in a section's heading counts as much as three in its text."""
PARENT_WEIGHT = 0.4
"""Words of the heading above (a rule under "Legeregeln", a decision under "So
entscheidet die App") count a little for the rules under it."""
PART_WEIGHT = 0.5
"""A part of a compound ("Karten" in "Handkarten") counts half a word."""
MIN_PART = 3
"""Shortest head of a compound ("End" of "Endwertung")."""
MIN_LOOSE_HEAD = 5
"""Shortest head that the texts need not have as a word of its own ("Bullen|karte")."""
MIN_TAIL = 4
"""Shortest last part of a compound ("Hand" + "karten", not "Schachte" + "l")."""

_BLOCKS = re.compile(r"</?(?:p|li|ul|ol)\b[^>]*>")
_SENTENCE_END = re.compile(
    r"(?<=[.!?])(?<![\s\xa0][^\W\d_]\.)(?<!\.[^\W\d_]\.)[\s\xa0]+(?=[^\W_]|[„“\"(])")
"""After ., ! or ? and before the next word; not after "z. B." or "e.g."."""


@dataclass(frozen=True, slots=True)
class Word:
    """A word of a sentence or heading: its place in the text and what it matches."""

    start: int
    end: int
    stem: str
    also: tuple[str, ...] = ()
    """Other terms it stands for in full: a participle's verb, its synonym groups, what
    it counts (after a number)."""
    parts: tuple[str, ...] = ()
    """The stems of a compound's parts (counted half)."""

    @property
    def terms(self) -> tuple[str, ...]:
        return (self.stem, *self.also, *self.parts)


@dataclass(frozen=True, slots=True)
class Passage:
    """A heading or one sentence of a section, as shown in a result."""

    text: str
    words: tuple[Word, ...]
    terms: frozenset[str]


@dataclass(frozen=True, slots=True)
class Document:
    """One section of a game's rules."""

    game: GameText
    section: Section
    url: str
    title: Passage
    sentences: tuple[Passage, ...]
    length: float
    """Its weighted number of words (BM25's document length)."""


@dataclass(slots=True)
class Index:
    """Everything a question is compared with, in one language."""

    language: str
    documents: tuple[Document, ...]
    postings: dict[str, dict[int, float]]
    """Stem → document number → weighted frequency (heading words count more)."""
    idf: dict[str, float]
    average_length: float
    words: tuple[str, ...]
    """Folded words that typos are matched against: the texts' and the synonyms'."""
    word_stems: frozenset[str]
    """Stems of :attr:`words`: a question word with such a stem is no typo."""
    known: frozenset[str] = frozenset()
    """Stems of the texts' own words: what compounds and participles are split into."""

    def forms(self, word: str) -> WordForms:
        """Other forms of a question's word that the texts may use (German only)."""
        return analyse(word, self.language, self.known)


def plain_blocks(section: Section) -> list[str]:
    """The paragraphs and list items of a section as plain text."""
    blocks = (" ".join(unescape(strip_tags(piece)).split()) for piece in _BLOCKS.split(
        section.body))
    return [block for block in blocks if block]


def sentences(block: str) -> list[str]:
    """
    >>> sentences("Eine Reihe nimmt 3 Karten. Dann z.\xa0B. viermal die 3! Fertig?")
    ['Eine Reihe nimmt 3 Karten.', 'Dann z.\\xa0B. viermal die 3!', 'Fertig?']
    """
    return [part for part in _SENTENCE_END.split(block) if part]


@dataclass(frozen=True, slots=True)
class WordForms:
    """What a German word also is: a verb's participle, a compound's parts."""

    bases: tuple[str, ...] = ()
    """The same word in the stem the texts use elsewhere ("ausgespielt" → "ausspiel",
    "spiel")."""
    parts: tuple[str, ...] = ()
    """The stems of a compound's head and last part ("Handkarten" → "hand", "kart")."""


SEPARABLE = ("", "ab", "an", "auf", "aus", "ein", "mit", "nach", "um", "vor", "weg", "zu",
             "zurück", "hin", "her")
"""Prefixes a participle's "ge" may follow ("aus-ge-spielt", "um-ge-dreht")."""


def _verb_bases(word: str) -> list[str]:
    """Where Snowball leaves a German verb's ending on: "gelegt", "ausgespielt", "passt",
    "legst" (the verb without it, to be stemmed)."""
    for prefix in SEPARABLE:
        if word.startswith(prefix + "ge") and len(word) >= len(prefix) + 6:
            rest = word[len(prefix) + 2:]
            rest = rest[:-1] if rest.endswith("t") else rest
            return [prefix + rest, rest] if prefix else [rest]
    found = []
    if word.endswith("st") and not word.endswith("sst") and len(word) >= 5:
        found.append(word[:-2])
    if word.endswith("t"):
        found.append(word[:-1])
    return found


def analyse(word: str, language: str, known: frozenset[str]) -> WordForms:
    """A German verb's other forms and a compound's parts, when the texts or the synonyms
    know them ("kriegt" is "kriegen", "zuerst" is no verb "zuer").

    The longest known last part wins ("Nachzieh|stapel", "Hand|karten"); a head's
    linking "s" ("Zwischenwertungs-") goes with the stemmer.

    >>> known = frozenset({"hand", "kart", "ausspiel", "spiel", "pass"})
    >>> analyse("ausgespielt", "de", known)
    WordForms(bases=('ausspiel', 'spiel'), parts=())
    >>> analyse("passt", "de", known), analyse("handkarten", "de", known)
    (WordForms(bases=('pass',), parts=()), WordForms(bases=(), parts=('hand', 'kart')))
    """
    if language != "de" or not word.isalpha() or len(word) < 4:
        return WordForms()
    own = stem(word, language)
    bases = tuple(dict.fromkeys(
        base for base in (stem(form, language) for form in _verb_bases(word))
        if len(base) >= 3 and base != own
        and (base in known or base in thesaurus(language).groups_of)))
    for cut in range(MIN_PART, len(word) - MIN_TAIL + 1):
        tail = stem(word[cut:], language)
        if tail not in known or len(tail) < MIN_TAIL - 1:
            continue
        head = stem(word[:cut], language)
        if is_stop_word(word[:cut], language) or (head not in known and cut < MIN_LOOSE_HEAD):
            continue  # "Bei|spiel", "Erg|eben": no compounds
        return WordForms(bases, (head, tail))
    return WordForms(bases)


def _passage(text: str, language: str, known: frozenset[str]) -> Passage:
    """A sentence or heading read into words: stems, other forms, synonym groups (a
    phrase's group goes to its first word that is no stop word), counts."""
    found = list(tokens(text))
    stems = [stem(token.word, language) for token in found]
    also: dict[int, list[str]] = defaultdict(list)
    groups_of = thesaurus(language).groups_of
    for start, end, term in find_phrases(stems, language):
        words = [i for i in range(start, end) if not is_stop_word(found[i].word, language)]
        also[words[0] if words else start].append(term)
    for position, token in enumerate(found):
        if not is_number(token.word):
            continue
        counted = 0
        for after in range(position + 1, min(position + 4, len(found))):
            word = found[after].word
            if is_number(word) or is_stop_word(word, language) or word in NUMBER_LINKS:
                if counted:
                    break
                continue
            also[after].append(COUNT + stems[after])
            counted += 1
            if counted == COUNTED_WORDS[language]:
                break
    words: list[Word] = []
    for position, token in enumerate(found):
        if is_stop_word(token.word, language) and position not in also:
            continue
        forms = analyse(token.word, language, known)
        extra = [*forms.bases, *also[position]]
        for own in (stems[position], *forms.bases):
            extra.extend(groups_of.get(own, ()))
        if COUNT + stems[position] in also[position]:
            extra.extend(COUNT + part for part in forms.parts)
        words.append(Word(token.start, token.end, stems[position],
                          tuple(t for t in dict.fromkeys(extra) if t != stems[position]),
                          forms.parts))
    return Passage(text, tuple(words), frozenset(t for w in words for t in w.terms))


COUNTED_WORDS = {"de": 1, "en": 2}

NUMBER_LINKS = frozenset({"mehr", "weniger", "more", "fewer", "less"})
"""Part of a number, not what it counts: "3 oder mehr Karten", "two or more players"."""
"""How many words after a number it counts: English puts a word before the thing counted
("20 face-down cards", "5 hand cards"), German makes one word of them ("5 Handkarten")."""


FACTS = "at-a-glance"
"""The anchor of the Steckbrief: each of its items ("Spieler: 2 bis 4") is searched as a
section of its own, its label a heading, so a short fact is not lost in the list."""


def _documents(section: Section) -> list[tuple[str, list[str]]]:
    """The heading and sentences of each document a section is searched as: the section,
    or each item of the Steckbrief."""
    blocks = plain_blocks(section)
    if section.anchor != FACTS:
        return [(section.title, [sentence for block in blocks for sentence in sentences(block)])]
    found = []
    for block in blocks:
        label, _colon, fact = block.partition(":")
        found.append((f"{section.title}: {label}", sentences(fact.strip())))
    return found


def build_index(language: str) -> Index:
    """Read every section of every game in ``language`` into a fresh index."""
    texts = all_texts(language)
    # First pass: every word of the texts, so that compounds split into known words only.
    raw: list[tuple[GameText, Section, Section | None, str, list[str]]] = []
    vocabulary: set[str] = set()
    for text in texts:
        parent: Section | None = None
        for section in text.sections:
            if section.level == 2:
                parent = None
            for title, found in _documents(section):
                raw.append((text, section, parent, title, found))
                for piece in (title, *found):
                    vocabulary.update(t.word for t in tokens(piece)
                                      if not is_stop_word(t.word, language))
            if section.level == 2:
                parent = section
    known = frozenset(stem(word, language) for word in vocabulary)

    documents: list[Document] = []
    postings: dict[str, dict[int, float]] = defaultdict(dict)
    for number, (text, section, parent, heading, found) in enumerate(raw):
        title = _passage(heading, language, known)
        passages = tuple(_passage(sentence, language, known) for sentence in found)
        counts: dict[str, float] = defaultdict(float)
        length = 0.0
        weighted = [(title, TITLE_WEIGHT), *((p, 1.0) for p in passages)]
        if parent is not None:
            weighted.append((_passage(parent.title, language, known), PARENT_WEIGHT))
        for passage, weight in weighted:
            for word in passage.words:
                for term in (word.stem, *word.also):
                    counts[term] += weight
                for part in word.parts:
                    counts[part] += weight * PART_WEIGHT
                length += weight
        for term, count in counts.items():
            postings[term][number] = count
        url = f"{reverse('rules_game', args=[text.slug])}#{section.anchor}"
        documents.append(Document(text, section, url, title, passages, length))

    total = len(documents)
    idf = {term: math.log(1 + (total - len(docs) + 0.5) / (len(docs) + 0.5))
           for term, docs in postings.items()}
    synonym_words = thesaurus(language).words
    words = tuple(sorted(w for w in vocabulary | synonym_words if len(w) >= 4 and w.isalpha()))
    return Index(
        language=language, documents=tuple(documents), postings=dict(postings), idf=idf,
        average_length=sum(d.length for d in documents) / max(total, 1), words=words,
        word_stems=frozenset(stem(w, language) for w in vocabulary | synonym_words),
        known=known,
    )


_LOCK = threading.Lock()
_INDEXES: dict[str, Index] = {}


def index_for(language: str) -> Index:
    """The index of ``language``, built on first use; threads asking at once wait for one
    build instead of each building their own."""
    index = _INDEXES.get(language)
    if index is None:
        with _LOCK:
            index = _INDEXES.get(language)
            if index is None:
                index = _INDEXES[language] = build_index(language)
    return index

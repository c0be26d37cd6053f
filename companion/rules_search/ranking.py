"""From a question to ranked sections: what the question asks, BM25 over the
sections, and the sentence of each section that answers best.

A question becomes *concepts*, one per word that means something (stop
words and the game's name removed). A concept matches any of its
alternatives: the word's stem, its synonyms, the words it could be a typo
of, the parts of a compound. A section's score is BM25 (heading words
counted three times) summed over the concepts, each by its best
alternative; the section's sentence that holds most of the question is the
answer shown (a bonus for that sentence ranked worse, so there is none).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass

from rapidfuzz import process
from rapidfuzz.distance import OSA

from companion.games import GAME_APPS
from companion.rules_search.card_questions import is_move, move_games
from companion.rules_search.index import FACTS, Document, Index, Passage
from companion.rules_search.names import find_games
from companion.rules_search.synonyms import find_phrases, thesaurus
from companion.rules_search.text import (
    COUNT,
    is_number,
    is_stop_word,
    stem,
    tokens,
    umlaut_spellings,
    word_set,
)

MAX_QUESTION = 200
"""Characters of a question that are read (a question at the table is short)."""
K1 = 1.2
B = 0.75
SYNONYM_WEIGHT = 0.8
TYPO_WEIGHT = 0.75
PART_WEIGHT = 0.7
NUMBER_WEIGHT = 0.4
"""Card numbers are mostly examples: they decide little."""
MOVE_NUMBER_WEIGHT = 0.1
"""The cards of a move ("die 23 auf die 18") only break ties: the rule is asked for."""
PREFERRED_BOOST = 1.4
"""The game of the page the question was asked on, or named only by a number."""
TIE_BREAKER = 0.1
DECISION_WEIGHT = 0.85
"""An app's decision settles a detail of a rule: asked in general, the rule comes first."""
SUMMARIES = (FACTS, "overview")
"""The Steckbrief and the overview sum the rules up in a line each."""
FACT_WEIGHT = 0.75
"""A section that says a rule in full comes before a summary of it when both answer
about as well (the box's facts, age or playing time, are the Steckbrief's alone)."""
MOVE_PRIOR = 0.6
"""For a question about one move, the sections on where a card may go get this share of
the best section's score, the game's overview of them most (a move's numbers and "legen"
say little about which rule decides)."""
HOW_MANY_BONUS = 3.0
"""A question for a number is answered by a sentence with one, even where another matches
one more word ("how many deals do we play": "as many deals as players, six with three",
not "a deal ends when all cards have been played")."""
RELATIVE_CUTOFF = 0.3
"""Sections scoring less than this share of the best one are not shown."""


@dataclass(frozen=True, slots=True)
class Concept:
    """One thing the question asks about, and every term that counts for it."""

    word: str
    weight: float
    alternatives: dict[str, float]
    """Stem in the index → how much a match through it counts (1 for the word itself)."""


@dataclass(frozen=True, slots=True)
class Question:
    concepts: tuple[Concept, ...]
    games: tuple[str, ...]
    """Games named in the question: only their sections answer."""
    preferred: tuple[str, ...]
    """Games named only by a number that may be a sum ("über 13")."""
    move: bool
    """It asks about one move ("wohin kommt die 52"): the sections on where a card may go
    answer it."""
    move_games: tuple[str, ...]
    """The games whose words the move is put in ("auf die 18": 11 nimmt!'s piles)."""
    words: tuple[str, ...]
    """The folded words of the question, game names left out (for the card checks)."""
    scope: tuple[str, ...] = ()
    """The games whose sections answer: those named, else the page's game, else all."""
    own_words: tuple[tuple[str, tuple[str, ...]], ...] = ()
    """A sibling game's words asked about the game in scope, as typed, and the game's
    words they were searched as ("Reihe" → "Stapel" in 11 nimmt!)."""
    how_many: bool = False
    """It asks for a number ("wie viele Durchgänge"): a sentence with one answers."""


@dataclass(frozen=True, slots=True)
class Ranked:
    document: Document
    score: float
    sentence: Passage | None
    marked: frozenset[str]


def _typos(word: str, index: Index) -> list[str]:
    """Words of the index one edit away (two for long words), transpositions included."""
    limit = 1 if len(word) <= 7 else 2
    found = process.extract(word, index.words, scorer=OSA.distance, score_cutoff=limit,
                            limit=6)
    if not found:
        return []
    best = min(distance for _word, distance, _position in found)
    return [match for match, distance, _position in found if distance == best]


def _alternatives(term: str, weight: float, index: Index, into: dict[str, float]) -> None:
    """``term`` and the terms of its synonym groups, those in the index, at ``weight``."""
    groups = thesaurus(index.language).groups_of.get(term, ())
    for alternative, factor in ((term, 1.0), *((group, SYNONYM_WEIGHT) for group in groups)):
        if alternative in index.postings:
            into[alternative] = max(into.get(alternative, 0.0), weight * factor)


def _concepts_of(word: str, index: Index) -> list[Concept]:
    """The concepts of one question word: itself with its synonyms; if the texts do not
    have it, its other forms, the words it may be a typo of, and a compound's parts."""
    language = index.language
    term = stem(word, language)
    alternatives: dict[str, float] = {}
    _alternatives(term, 1.0, index, alternatives)
    grouped = term in thesaurus(language).groups_of
    weight = NUMBER_WEIGHT if word.isdigit() and not grouped else 1.0
    forms = index.forms(word)
    for base in forms.bases:
        _alternatives(base, 1.0, index, alternatives)
    if word.isdecimal() and int(word) in DIGIT_WORDS[language]:
        _alternatives(stem(DIGIT_WORDS[language][int(word)], language), 1.0, index, alternatives)
    if term in index.postings or word.isdigit():
        return [Concept(word, weight, alternatives)]
    if (not alternatives and term not in index.word_stems and word.isalpha() and len(word) >= 4
            and not is_number(word)):
        for typo in _typos(word, index):
            _alternatives(stem(typo, language), TYPO_WEIGHT, index, alternatives)
    concepts = [Concept(word, weight, alternatives)] if alternatives else []
    for part in forms.parts:
        part_alternatives: dict[str, float] = {}
        _alternatives(part, PART_WEIGHT, index, part_alternatives)
        if part_alternatives:
            concepts.append(Concept(part, weight, part_alternatives))
    return concepts


HOW_MANY = (("wie", "viele"), ("wie", "vielen"), ("wie", "viel"), ("wieviele",), ("wievielen",),
            ("wieviel",), ("anzahl",), ("wie", "oft"), ("how", "many"), ("how", "much"),
            ("how", "often"))
"""Words that ask for a number: the word after them is looked for after a number
("wie viele Farben" → "sieben Farben")."""


PER = {"de": frozenset({"pro", "je"}), "en": frozenset({"per"})}
"""Said in questions ("Karten pro Reihe", "minus points per bullhead"), not searched: "pro
Durchgang und Spieler" / "per deal and player" begin the recording decisions, and "pro" /
"per" pulled them first. (They stay in the texts: taken out there, "per" changed which
English sections answer other questions.)"""


DIGIT_WORDS = {
    "de": dict(enumerate(("fünf", "sechs", "sieben", "acht", "neun", "zehn", "elf", "zwölf"),
                         start=5)),
    "en": dict(enumerate(("five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve"),
                         start=5)),
}
"""A number asked as a digit is also its word in the texts ("all 7 colours": "all seven
colours"), in questions only ("drei"/"3" and "vier"/"4" are synonym groups)."""


THERE_ARE = {"de": (("gibt", "es"), ("existieren",)),
             "en": (("are", "there"), ("is", "there"), ("exist",))}
"""With a "how many", they ask how many of a thing the game has ("wie viele Bullenkarten
gibt es", "how many rows are there"): what is in the box answers (the material group).
Not when it is for something: "wie viele Punkte gibt es für zwei Karten" asks what one
gets."""
FOR = umlaut_spellings(frozenset({"für", "for"}))
THERE_ARE_WORD = {"de": "material", "en": "components"}
"""A word of the group of what is in the box, in each language."""


THERE_ARE_AFTER = word_set("spiel spielen game insgesamt total altogether schachtel box deck")
"""Words that may follow "gibt es" when it asks what there is ("... gibt es im Spiel")."""


def _asks_what_there_is(words: Sequence[str], counted: set[int], names: frozenset[int],
                        language: str) -> bool:
    """Whether the thing counted is followed by "gibt es" / "are there" and nothing else
    that asks ("wie viele Farben gibt es", not "ab wie vielen Karten gibts eine
    Bullenkarte": that asks when one gets one)."""
    if not FOR.isdisjoint(words):
        return False
    for position in counted:  # the thing counted, of one or two words ("bull cards")
        for start, phrase in ((start, phrase) for start in (position + 1, position + 2)
                              for phrase in THERE_ARE[language]):
            end = start + len(phrase)
            if tuple(words[start:end]) == phrase and all(
                    is_stop_word(word, language) or word in THERE_ARE_AFTER or at in names
                    for at, word in enumerate(words[end:], start=end)):
                return True
    return False


MODALS = umlaut_spellings(frozenset({"muss", "musst", "müssen", "must"}))
MODAL_WEIGHT = 0.5
""""Must" decides a little: "muss ich einen Stapel nehmen" asks when one has to ("und musst
es, wenn keine deiner Karten passt"), not how taking a pile goes. Counted in full, it
pulled every rule with a "muss" ("welche Karten muss ich nehmen" lost its rule)."""


def _counted(words: Sequence[str], language: str) -> set[int]:
    """Positions of the words a "how many" asks about."""
    found: set[int] = set()
    for start in range(len(words)):
        for phrase in HOW_MANY:
            if tuple(words[start:start + len(phrase)]) != phrase:
                continue
            for after in range(start + len(phrase), min(start + len(phrase) + 3, len(words))):
                if (not is_stop_word(words[after], language) and not is_number(words[after])
                        and words[after] not in MODALS):
                    found.add(after)
                    break
    return found


def _own_word(word: str, own: tuple[str, ...], index: Index) -> Concept | None:
    """One concept for a sibling game's word: its own alternatives and those of the
    game's words for it ("stapel" in X nimmt!: X-Stapel, and Reihe)."""
    alternatives: dict[str, float] = {}
    parts = [word, *(token.word for name in own for token in tokens(name))]
    for part in parts:
        if is_stop_word(part, index.language):
            continue
        for concept in _concepts_of(part, index):
            for term, weight in concept.alternatives.items():
                alternatives[term] = max(alternatives.get(term, 0.0), weight)
    return Concept(word, 1.0, alternatives) if alternatives else None


def read_question(text: str, index: Index, *, prefer: str | None = None) -> Question:
    """What ``text`` asks, as concepts of ``index``'s language; ``prefer`` is the game of
    the page it is asked on (its sections answer unless the question names a game)."""
    language = index.language
    read = list(tokens(text[:MAX_QUESTION]))
    words = [token.word for token in read]
    named = find_games(words)
    used = set(named.used)
    scope = named.games or ((prefer,) if prefer in GAME_APPS else ())
    siblings = (GAME_APPS[scope[0]].search.own_words.get(language, {})
                if len(scope) == 1 else {})
    own_words: list[tuple[str, tuple[str, ...]]] = []
    stems = [stem(word, language) for word in words]
    concepts: list[Concept] = []
    # Phrases are read with the game's name taken out: "when is 11 nimmt over".
    kept = [position for position in range(len(words)) if position not in used]
    for start, end, term in find_phrases([stems[p] for p in kept], language):
        if term in index.postings:
            used.update(kept[start:end])
            concepts.append(Concept(" ".join(words[p] for p in kept[start:end]), 1.0,
                                    {term: 1.0}))
    asked = thesaurus(language).asked
    for position, own in enumerate(stems):
        groups = [term for term in asked.get(own, ()) if term in index.postings]
        if position not in used and groups:
            used.add(position)
            concepts.append(Concept(words[position], 1.0, dict.fromkeys(groups, 1.0)))
    counted = _counted(words, language)
    for position, word in enumerate(words):
        if position in used or is_stop_word(word, language) or word in PER[language]:
            continue
        if len(word) == 1 and not word.isdigit() and word != "x":
            continue
        if word in siblings:
            concept = _own_word(word, siblings[word], index)
            if concept is not None:
                concepts.append(concept)
                own_words.append((text[read[position].start:read[position].end],
                                  siblings[word]))
            continue
        found = _concepts_of(word, index)
        if word in MODALS:
            found = [Concept(c.word, c.weight * MODAL_WEIGHT, c.alternatives) for c in found]
        concepts.extend(found)
        if position in counted:
            counts = {COUNT + term: 1.0 for term in (stems[position],
                                                     *index.forms(word).parts)
                      if COUNT + term in index.postings}
            if counts:
                concepts.append(Concept(f"#{word}", 1.0, counts))
    if _asks_what_there_is(words, counted, named.used, language):
        box = thesaurus(language).groups_of.get(stem(THERE_ARE_WORD[language], language), ())
        found_box = {term: 1.0 for term in box if term in index.postings}
        if found_box:
            concepts.append(Concept("#there", 1.0, found_box))
    if not concepts and named.used:
        # Nothing but a game's name ("13", "Freaky"): its words are the question.
        for position in sorted(named.used):
            if not is_stop_word(words[position], language):
                concepts.extend(_concepts_of(words[position], index))
    unique: dict[frozenset[str], Concept] = {}
    for concept in concepts:
        if concept.alternatives:
            unique.setdefault(frozenset(concept.alternatives), concept)
    rest = tuple(word for position, word in enumerate(words) if position not in named.used)
    moves = move_games(rest)
    if moves:
        unique = {key: Concept(c.word, MOVE_NUMBER_WEIGHT, c.alternatives)
                  if c.word.isdigit() and c.weight == NUMBER_WEIGHT else c
                  for key, c in unique.items()}
    return Question(tuple(unique.values()), named.games, named.preferred, is_move(rest),
                    moves, rest, scope, tuple(dict.fromkeys(own_words)), bool(counted))


def answering_sentence(document: Document, question: Question,
                       index: Index) -> Passage | None:
    """The sentence of ``document`` that holds the most of the question (rare words
    counting more), the first one on a tie or when none matches."""
    best, best_value = None, 0.0
    for passage in document.sentences:
        value = 0.0
        for concept in question.concepts:
            value += concept.weight * max(
                (weight * index.idf[term] for term, weight in concept.alternatives.items()
                 if term in passage.terms), default=0.0)
        if question.how_many and any(is_number(token.word) for token in tokens(passage.text)):
            value *= HOW_MANY_BONUS
        if value > best_value:
            best, best_value = passage, value
    return best or (document.sentences[0] if document.sentences else None)


def _one_game_words(question: Question, index: Index) -> set[str]:
    """The games a question names by a word of their own ("X-Reihe", "Zielscheibe", in
    one game's synonyms only): with no game named, such a game is preferred."""
    if question.scope:
        return set()
    game_of = thesaurus(index.language).game_of
    return {game_of[term] for concept in question.concepts
            for term in concept.alternatives if term in game_of}


def rank(question: Question, index: Index, *, prefer: str | None = None,
         limit: int = 8) -> list[Ranked]:
    """The sections that answer ``question`` best, best first: BM25 with the heading's
    words weighted up, the question's games only, the preferred game and the rules
    before the app's decisions."""
    scores: dict[int, float] = defaultdict(float)
    average = index.average_length
    for concept in question.concepts:
        # The best alternative counts, the others a little (a disjunction max with a tie
        # breaker): "beginnt" and "jüngste" in one section beat either alone, yet a
        # section full of loose synonyms does not beat one with the word itself.
        best: dict[int, float] = {}
        total: dict[int, float] = defaultdict(float)
        for term, weight in concept.alternatives.items():
            idf = index.idf[term]
            for number, frequency in index.postings[term].items():
                length = index.documents[number].length
                value = weight * idf * frequency * (K1 + 1) / (
                    frequency + K1 * (1 - B + B * length / average))
                total[number] += value
                if value > best.get(number, 0.0):
                    best[number] = value
        for number, value in best.items():
            scores[number] += concept.weight * (value + TIE_BREAKER * (total[number] - value))
    preferred = {*question.preferred, *question.move_games, *_one_game_words(question, index)}
    moves = question.games or question.move_games or tuple(GAME_APPS)
    if prefer and not question.games:
        # Asked on a game's page: a move is a move of that game, whatever its words.
        preferred, moves = {*question.preferred, prefer}, (prefer,)
    if question.move:
        top = max(scores.values(), default=1.0)
        for number, document in enumerate(index.documents):
            rules = GAME_APPS[document.game.slug].search.move_sections
            if document.game.slug in moves and document.section.anchor in rules:
                order = rules.index(document.section.anchor)
                scores[number] += MOVE_PRIOR * top * (1 - order / (2 * len(rules)))
    if not scores and question.games and not question.concepts:
        # Only a game was named: its page from the top, the way into its rules.
        return [Ranked(document, 0.0, document.sentences[0] if document.sentences else None,
                       frozenset())
                for document in index.documents if document.game.slug in question.games
                ][:limit]
    ranked: list[tuple[float, Document]] = []
    for number, score in scores.items():
        document = index.documents[number]
        if question.scope and document.game.slug not in question.scope:
            continue
        if document.section.decision:
            score *= DECISION_WEIGHT
        elif document.section.anchor in SUMMARIES:
            score *= FACT_WEIGHT
        if document.game.slug in preferred:
            score *= PREFERRED_BOOST
        ranked.append((score, document))
    if not ranked:
        return []
    ranked.sort(key=lambda item: -item[0])
    seen: set[str] = set()  # a section once, at its best place (the Steckbrief's items)
    ranked = [item for item in ranked if not (item[1].url in seen or seen.add(item[1].url))]
    floor = ranked[0][0] * RELATIVE_CUTOFF
    marked = frozenset(term for concept in question.concepts for term in concept.alternatives)
    return [Ranked(document, score, answering_sentence(document, question, index), marked)
            for score, document in ranked[:limit] if score >= floor]

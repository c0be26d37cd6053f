"""How players name the games in a question: title, number, nickname, typo.

A name found in the question narrows the answers to that game and is not
searched for itself ("nimmt" of "11 nimmt" is no rule about taking). Names
are compared word by word after folding, with one typo allowed in words of
five letters or more ("nimt" is short: it is listed).

The names are each game's (``GameApp.search.names`` and ``number_names``, in
``companion/games/<game>/search.py``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from rapidfuzz.distance import OSA

from companion.games import GAME_APPS
from companion.rules_search.text import word_set

AS_NUMBER = word_set("""
    über ueber uber genau exakt summe auf bis als unter mehr weniger die der den ab zu
    over exactly total sum on onto to than under more less the a from reach reaches
""")
"""Words that make a game's number name a number: "13: wer fängt an", "bei 13" and "wer
gewinnt 13" name the game, "über 13", "genau 13" and "die 13" are the number (it stays in
the question as a word and the game is preferred)."""

COMPARING = word_set("""
    wie als anders ähnlich aehnlich like than unlike as
""")
"""Words that make a named game a comparison: "legen alle gleichzeitig wie bei 6 nimmt",
"like in 6 nimmt" ask about the game of the page or the other game named, not this one."""
COMPARING_LINKS = word_set("bei beim in im")

SAME_IN_NAMES = {"sechs": "6", "six": "6", "elf": "11", "eleven": "11", "drei": "3",
                 "three": "3", "takes": "nimmt"}
"""Words of a name that players swap, in either language: "six nimmt", "sechs takes",
"eleven nimmt" name the game like "6 nimmt" and "11 nimmt" (the games list one spelling
of each; in a name only, never in the rest of a question)."""


def _in_names(word: str) -> str:
    return SAME_IN_NAMES.get(word, word)


_PHRASES = sorted(
    {(slug, tuple(map(_in_names, name.split())))
     for slug, app in GAME_APPS.items() for name in app.search.names},
    key=lambda item: (-len(item[1]), item),
)


@dataclass(frozen=True, slots=True)
class Named:
    """The games a question names and the positions of the words that named them."""

    games: tuple[str, ...]
    used: frozenset[int]
    preferred: tuple[str, ...]
    """Games named only weakly (a number that is also a game's name)."""


def _same(typed: str, name: str) -> bool:
    if typed == name:
        return True
    # A name with a digit is typed as it is: one letter off "take6" or "6nimmt" is "take",
    # "nimmt", plain words of questions about other games.
    if len(name) < 5 or any(character.isdigit() for character in name):
        return False
    # Nor is a typo in the first letter: "xnimmt" less its "x" is "nimmt", in every question
    # about taking ("wer nimmt die Reihe" named X nimmt! on any game's sheet).
    return typed[:1] == name[:1] and OSA.distance(typed, name, score_cutoff=1) <= 1


def _compared(words: Sequence[str], start: int) -> bool:
    """Whether the name starting at ``start`` follows "wie (bei)", "like (in)", "than"..."""
    before = start - 1
    if before >= 0 and words[before] in COMPARING_LINKS:
        before -= 1
    return before >= 0 and words[before] in COMPARING


def find_games(words: Sequence[str]) -> Named:
    """The games named by the folded ``words`` of a question.

    >>> find_games("wer fängt an bei 11 nimmt".split()).games
    ('elf-nimmt',)
    >>> find_games("freeky nachziehen".split()).games
    ('freaky',)
    >>> find_games("ist genau 13 erlaubt".split()).preferred
    ('dreizehn',)
    >>> find_games("wer bekommt bei 13 null punkte".split()).games
    ('dreizehn',)
    >>> find_games("can i take a pile".split()).games
    ()
    >>> find_games("wer nimmt die reihe".split()).games, find_games("xnimt wer".split()).games
    ((), ('x-nimmt',))
    >>> find_games("x nimmt legen alle gleichzeitig wie bei 6 nimmt".split()).games
    ('x-nimmt',)
    >>> find_games("dreizen wer fängt an".split()).games
    ('dreizehn',)
    >>> find_games("six nimmt age".split()).games, find_games("eleven nimmt".split()).games
    (('sechs-nimmt',), ('elf-nimmt',))
    >>> find_games("dreizehn summe genau dreizehn".split())
    Named(games=('dreizehn',), used=frozenset({0}), preferred=())
    """
    used: set[int] = set()
    games: list[str] = []
    for slug, phrase in _PHRASES:
        size = len(phrase)
        for start in range(len(words) - size + 1):
            span = range(start, start + size)
            if used.intersection(span):
                continue
            if all(_same(_in_names(words[i]), part)
                   for i, part in zip(span, phrase, strict=True)):
                used.update(span)
                if not _compared(words, start) and slug not in games:
                    games.append(slug)
    preferred: list[str] = []
    for slug, app in GAME_APPS.items():
        names = app.search.number_names
        for position, word in enumerate(words):
            if position in used or not any(_same(word, name) for name in names):
                continue
            if position > 0 and words[position - 1] in AS_NUMBER:
                preferred.append(slug)
            else:
                used.add(position)
                games.append(slug)
    games = list(dict.fromkeys(games))
    return Named(tuple(games), frozenset(used),
                 tuple(dict.fromkeys(p for p in preferred if p not in games)))

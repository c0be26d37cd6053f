"""How players name the five games in a question: title, number, nickname, typo.

A name found in the question narrows the answers to that game and is not
searched for itself ("nimmt" of "11 nimmt" is no rule about taking). Names
are compared word by word after folding, with one typo allowed in words of
five letters or more ("nimt" is short: it is listed).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from rapidfuzz.distance import OSA

from companion.rules_search.text import word_set

NAMES: dict[str, tuple[str, ...]] = {
    "drei-sind-einer-zuviel": (
        "3 sind einer zuviel", "drei sind einer zuviel", "3 sind einer zu viel",
        "drei sind einer zu viel", "sind einer zuviel", "sind einer zu viel", "einer zuviel",
        "einer zu viel", "three is one too many", "three are one too many", "one too many",
        "3 sind", "drei sind",
    ),
    "x-nimmt": ("x nimmt", "xnimmt", "x nimt", "x takes"),
    "freaky": ("freaky", "freaki", "freeky", "freakie"),
    "elf-nimmt": ("11 nimmt", "elf nimmt", "11nimmt", "elfnimmt", "11 nimt", "elf nimt",
                  "eleven takes", "11 takes", "eleven nimmt"),
    "dreizehn": ("13er",),
}
"""Every way of naming a game, longest first within a game (folded words)."""

NUMBER_NAMES: dict[str, tuple[str, ...]] = {"dreizehn": ("13", "dreizehn", "thirteen")}
"""Names that are also numbers: "13" names the game ("13: wer fängt an", "bei 13", "wer
gewinnt 13"), except after a word that makes it a number ("über 13", "genau 13", "die
13"); then it stays in the question as a word and the game is preferred."""
AS_NUMBER = word_set("""
    über ueber uber genau exakt summe auf bis als unter mehr weniger die der den ab zu
    over exactly total sum on onto to than under more less the a from reach reaches
""")

_PHRASES = sorted(
    ((slug, tuple(name.split())) for slug, names in NAMES.items() for name in names),
    key=lambda item: -len(item[1]),
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
    return len(name) >= 5 and not name.isdigit() and OSA.distance(typed, name, score_cutoff=1) <= 1


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
            if all(_same(words[i], part) for i, part in zip(span, phrase, strict=True)):
                used.update(span)
                if slug not in games:
                    games.append(slug)
    preferred: list[str] = []
    for slug, names in NUMBER_NAMES.items():
        for position, word in enumerate(words):
            if word not in names or position in used:
                continue
            if position > 0 and words[position - 1] in AS_NUMBER:
                preferred.append(slug)
            else:
                used.add(position)
                games.append(slug)
    games = list(dict.fromkeys(games))
    return Named(tuple(games), frozenset(used),
                 tuple(dict.fromkeys(p for p in preferred if p not in games)))

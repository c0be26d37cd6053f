"""What the games' question readers share, and :class:`GameSearch`: what a game's folder
tells the rules search (``companion/games/<game>/search.py``, ``GameApp.search``).

This module imports no game and nothing that imports the registry
(:mod:`companion.games`): the game folders import it while the registry is being
built, so an import of the registry from here would be a cycle.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field


def word_set(text: str) -> frozenset[str]:
    """The words of a list written as running text (one word per blank)."""
    return frozenset(text.split())


PLACING = word_set("""
    auf an hinter neben zwischen in legen lege legt spielen spiele spielt kommt komme kommen
    passt passen wohin anlegen ablegen on onto after behind play put place goes go fit fits
    where lay
""")
"""Words that make a question about playing a card (not about counting cards)."""

COUNTED = word_set("""
    karten handkarten punkte minuspunkte spieler farben mal runden durchgänge stapel reihen
    hornochsen bullenkarten cards points players colours colors times rounds deals piles rows
    bullheads minus
""")
"""A number before one of these counts things ("2 Karten"), it names no card."""

SUM_BEFORE = word_set("über ueber uber over above past bis until till")
"""A number after these is a total or a target ("über 66 kommen", "bis 100 spielen"), not a
card."""

BEFORE = word_set("auf an hinter neben nach on onto after behind to")
"""The word between the card played and the card it goes on."""

ON = word_set("auf on onto")
"""The word of a move phrased as one thing on another ("die 23 auf die 18")."""

COLOURS = {
    "gelb": "yellow", "gelbe": "yellow", "gelben": "yellow", "yellow": "yellow",
    "grün": "green", "grüne": "green", "grünen": "green", "gruen": "green", "gruene": "green",
    "green": "green",
    "blau": "blue", "blaue": "blue", "blauen": "blue", "blue": "blue",
    "rot": "red", "rote": "red", "roten": "red", "red": "red",
}
"""Colour words (folded) and the colour they name; a colour makes a question a move too."""


LOW_CARD_DE = ("niedrige karte", "niedriger als alle", "kleiner als alle", "niedriger als jede",
               "kleiner als jede", "passt nirgends", "zu niedrig", "zu klein")
LOW_CARD_EN = ("low card", "lower than all", "lower than every", "lower than any",
               "smaller than all", "smaller than every", "smaller than any", "fits nowhere",
               "too low", "too small")
"""The row games' "low card" rule (X nimmt!, 6 nimmt!) as players say it: a card lower
than every row's end. Without the group, "kleiner" met the "Kleinster Abstand" heading
and the rule on the nearest row came first."""


@dataclass(frozen=True, slots=True)
class Prefill:
    """The check to open (its form prefix) and the values of its fields."""

    check: str
    fields: dict[str, str]


CardReader = Callable[[Sequence[str]], Prefill | None]
"""A game's reader of a question naming cards: the question's folded words (game names
left out) → its check's form prefix and field values, or ``None`` when they name no move.
The check page reads the values through its own forms, so nothing a reader returns has
to be right for the page to be safe."""


@dataclass(frozen=True, slots=True, kw_only=True)
class GameSearch:
    """What the rules search knows of one game beside its rules text."""

    names: tuple[str, ...]
    """Every way players name the game in a question: title, number, nickname, typo
    (folded words, longest first). A name found narrows the answers to the game."""
    number_names: tuple[str, ...] = ()
    """Names that are also numbers ("13"): they name the game unless a word before them
    makes them a number ("über 13"), then the game is only preferred."""
    synonyms: Mapping[str, tuple[tuple[str, ...], ...]] = field(default_factory=dict)
    """The game's own words per language, in groups of words that answer the same question
    (the shape of :data:`companion.rules_search.synonyms.GROUPS`; a group two games both
    list counts once)."""
    move_sections: tuple[str, ...] = ()
    """The anchors of the sections that say where a card may go, best first: what a
    question about one move ("wohin kommt die 52") asks for."""
    read_cards: CardReader | None = None
    """The reader of a question naming cards, if the game has a check for one move."""
    move_phrased: Callable[[Sequence[str]], bool] | None = None
    """Whether an unnamed question's move is phrased the way only this game's moves are
    ("a card on a card"); such a question prefers the game."""
    own_words: Mapping[str, Mapping[str, tuple[str, ...]]] = field(default_factory=dict)
    """Per language, the words of sibling games (folded) and this game's words for the
    same thing: asked about this game, "Reihe" in 11 nimmt! means its "Stapel". The
    question is searched with the game's word, and the answer says so."""


def card_numbers(words: Sequence[str], low: int, high: int) -> list[tuple[int, int]]:
    """(position, value) of the numbers in ``low..high`` that name cards.

    >>> card_numbers("2 karten auf die 18".split(), 1, 100)
    [(4, 18)]
    >>> card_numbers("was wenn zwei über 66 kommen".split(), 1, 104)
    []
    """
    found = []
    for position, word in enumerate(words):
        if not word.isdecimal() or len(word) > 3:
            continue
        following = words[position + 1] if position + 1 < len(words) else ""
        before = words[position - 1] if position else ""
        if following in COUNTED or before in SUM_BEFORE or not low <= int(word) <= high:
            continue
        found.append((position, int(word)))
    return found


def played_on(words: Sequence[str],
              numbers: list[tuple[int, int]]) -> tuple[list[int], list[int]]:
    """The cards played and the cards they go on: "23 auf 18", "97 on 95", "auf die 18 die 23"."""
    for position, word in enumerate(words):
        if word not in BEFORE:
            continue
        played = [value for at, value in numbers if at < position]
        under = [value for at, value in numbers if at > position]
        if played and under:
            return played, under
        if under and not played:
            return under[1:], under[:1]
    return [value for _at, value in numbers[:1]], [value for _at, value in numbers[1:]]


def cards_text(cards: Sequence[int]) -> str:
    """Cards as a check form's field holds them: "46 57"."""
    return " ".join(str(card) for card in cards)


def on_positions(words: Sequence[str]) -> list[int]:
    """Where a question says "on" ("auf", "onto"): for :attr:`GameSearch.move_phrased`."""
    return [position for position, word in enumerate(words) if word in ON]

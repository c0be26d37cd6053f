"""Questions that name cards ("darf ich die 23 auf die 18 legen", "can I play 97
on 95"): the cards as the fields of the game's legality check, so the answer
can offer that check with them filled in.

One reader per game that has a check for single moves, in :data:`READERS`;
each gets the question's folded words (game names left out) and returns the
check's form prefix and field values, or ``None`` when the question names no
move. The check page reads the values through its own forms
(``rules_check``), so nothing here has to be right for the page to be safe.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from companion.rules_search.text import word_set

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

BEFORE = word_set("auf an hinter neben nach on onto after behind to")
"""The word between the card played and the card it goes on."""

COLOURS = {
    "gelb": "yellow", "gelbe": "yellow", "gelben": "yellow", "yellow": "yellow",
    "grün": "green", "grüne": "green", "grünen": "green", "gruen": "green", "gruene": "green",
    "green": "green",
    "blau": "blue", "blaue": "blue", "blauen": "blue", "blue": "blue",
    "rot": "red", "rote": "red", "roten": "red", "red": "red",
}
VALUE_WORDS = {"eins": 1, "one": 1, "zwei": 2, "two": 2, "vier": 4, "four": 4, "fünf": 5,
               "five": 5, "sieben": 7, "seven": 7}


@dataclass(frozen=True, slots=True)
class Prefill:
    """The check to open (its form prefix) and the values of its fields."""

    check: str
    fields: dict[str, str]


def _numbers(words: Sequence[str], low: int, high: int) -> list[tuple[int, int]]:
    """(position, value) of the numbers in ``low..high`` that name cards."""
    found = []
    for position, word in enumerate(words):
        if not word.isdigit() or len(word) > 3:
            continue
        following = words[position + 1] if position + 1 < len(words) else ""
        if following in COUNTED or not low <= int(word) <= high:
            continue
        found.append((position, int(word)))
    return found


def _on(words: Sequence[str], numbers: list[tuple[int, int]]) -> tuple[list[int], list[int]]:
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


def _text(cards: Sequence[int]) -> str:
    return " ".join(str(card) for card in cards)


def elf_nimmt(words: Sequence[str]) -> Prefill | None:
    """
    >>> elf_nimmt("darf ich die 23 auf die 18 legen".split())
    Prefill(check='play', fields={'tops': '18', 'hand': '23'})
    """
    numbers = _numbers(words, 1, 100)
    played, under = _on(words, numbers)
    if not played or not under:
        return None
    return Prefill("play", {"tops": _text(under), "hand": _text(played)})


def x_nimmt(words: Sequence[str]) -> Prefill | None:
    """The X-Reihe check when the question is about the X-Reihe, else the round.

    >>> x_nimmt("wohin kommt die 18 wenn 12 15 und 54 liegen".split())
    Prefill(check='round', fields={'card_1': '18', 'row_3': '12', 'row_4': '15', 'row_5': '54'})
    >>> x_nimmt("darf die 30 in meine x reihe mit der 40".split())
    Prefill(check='xrow', fields={'card': '30', 'x_row': '40'})
    """
    numbers = _numbers(words, 1, 100)
    if not numbers:
        return None
    x_row = "xreihe" in words or any(
        word == "x" and tuple(words[position + 1:position + 2]) in (("reihe",), ("row",))
        for position, word in enumerate(words))
    played, under = _on(words, numbers)
    if not played:
        return None
    if x_row:
        return Prefill("xrow", {"card": str(played[0]), "x_row": _text(under)})
    fields = {"card_1": str(played[0])}
    fields.update({f"row_{size}": str(card) for size, card in zip((3, 4, 5), under,
                                                                   strict=False)})
    return Prefill("round", fields)


def drei_sind_einer_zuviel(words: Sequence[str]) -> Prefill | None:
    """The card played and the cards named besides it, each in the row its number picks.

    >>> drei_sind_einer_zuviel("wohin kommt die 40 wenn 46 und 57 liegen".split())
    Prefill(check='place', fields={'card': '40', 'row_2': '46 57'})
    """
    numbers = [(at, value) for at, value in _numbers(words, 0, 89) if value % 30]
    if not numbers:
        return None
    card = numbers[0][1]
    fields = {"card": str(card)}
    for row, (low, high) in enumerate(((1, 29), (31, 59), (61, 89)), start=1):
        lying = sorted(value for _at, value in numbers[1:] if low <= value <= high)
        if lying:
            fields[f"row_{row}"] = _text(lying)
    return Prefill("place", fields)


def dreizehn(words: Sequence[str]) -> Prefill | None:
    """The colour and value of the card and the target it goes on.

    >>> dreizehn("darf ich eine gelbe 5 auf blau legen".split())
    Prefill(check='play', fields={'colour': 'yellow', 'value': '5', 'target': 'blue'})
    """
    fields: dict[str, str] = {}
    after_on = False
    for word in words:
        if word in BEFORE:
            after_on = True
        elif word in COLOURS:
            if after_on and COLOURS[word] != "red":
                fields.setdefault("target", COLOURS[word])
            else:
                fields.setdefault("colour", COLOURS[word])
        elif (word.isdigit() and int(word) in (1, 2, 4, 5, 7)) or word in VALUE_WORDS:
            fields.setdefault("value", str(VALUE_WORDS.get(word) or int(word)))
    if fields.get("colour") == "red":
        fields["value"] = "4"
    if "colour" not in fields and "value" not in fields:
        return None
    return Prefill("play", fields)


READERS: dict[str, Callable[[Sequence[str]], Prefill | None]] = {
    "drei-sind-einer-zuviel": drei_sind_einer_zuviel,
    "x-nimmt": x_nimmt,
    "elf-nimmt": elf_nimmt,
    "dreizehn": dreizehn,
}
"""Per game with a check for one move, the reader of its cards. Freaky has none: its
cards are three features each, which a question rarely spells out."""


ON = word_set("auf on onto")

MOVE_RULES: dict[str, tuple[str, ...]] = {
    "drei-sind-einer-zuviel": ("placement", "row-by-number", "ascending-order", "fifth-card",
                               "fifth-card-highest", "fifth-card-lower"),
    "x-nimmt": ("placement", "rule-ascending", "rule-lowest-difference", "rule-full-row",
                "rule-low-card", "x-row"),
    "freaky": ("joining-a-row", "new-row"),
    "elf-nimmt": ("playing", "rule-ascending", "rule-difference", "rule-wrap-around",
                  "bull-cards"),
    "dreizehn": ("colours", "red-fours", "over-13"),
}
"""Per game, the sections that say where a card may go: what a question about one
move ("wohin kommt die 52", "darf die rote 4 auf gelb") asks for."""


def is_move(words: Sequence[str]) -> bool:
    """Whether a question asks where a named card goes or whether it may go there.

    >>> is_move("wohin kommt die 52".split()), is_move("wie viele hornochsen hat die 55".split())
    (True, False)
    """
    if PLACING.isdisjoint(words):
        return False
    return bool(_numbers(words, 0, 100)) or any(word in COLOURS for word in words)


def move_games(words: Sequence[str]) -> tuple[str, ...]:
    """The game a move is phrased in when the question does not name one: a card "on"
    another card is 11 nimmt!'s pile ("die 23 auf die 18"), a colour "on" a colour is
    13's target ("gelbe 5 auf blau").

    >>> move_games("can i play 97 on 95".split()), move_games("rote 4 auf gelb".split())
    (('elf-nimmt',), ('dreizehn',))
    """
    games: list[str] = []
    numbers = [at for at, _value in _numbers(words, 1, 100)]
    colours = [at for at, word in enumerate(words) if word in COLOURS]
    for position, word in enumerate(words):
        if word not in ON:
            continue
        if any(at < position for at in numbers) and any(at > position for at in numbers):
            games.append("elf-nimmt")
        if any(at < position for at in colours + numbers) and any(at > position
                                                                  for at in colours):
            games.append("dreizehn")
    return tuple(dict.fromkeys(games))


def prefill(slug: str, words: Sequence[str]) -> Prefill | None:
    """The check of ``slug`` filled from a question's words, if it is about playing cards."""
    reader = READERS.get(slug)
    if reader is None or PLACING.isdisjoint(words):
        return None
    return reader(words)

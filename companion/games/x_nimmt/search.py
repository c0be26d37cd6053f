"""How players ask about X nimmt! (the rules search: :mod:`companion.rules_search`)."""

from __future__ import annotations

from collections.abc import Sequence

from companion.games.search_words import (
    LOW_CARD_DE,
    LOW_CARD_EN,
    GameSearch,
    Prefill,
    card_numbers,
    cards_text,
    played_on,
)


def read_cards(words: Sequence[str]) -> Prefill | None:
    """The X-Reihe check when the question is about the X-Reihe, else the round.

    >>> read_cards("wohin kommt die 18 wenn 12 15 und 54 liegen".split())
    Prefill(check='round', fields={'card_1': '18', 'row_3': '12', 'row_4': '15', 'row_5': '54'})
    >>> read_cards("darf die 30 in meine x reihe mit der 40".split())
    Prefill(check='xrow', fields={'card': '30', 'x_row': '40'})
    """
    numbers = card_numbers(words, 1, 100)
    if not numbers:
        return None
    x_row = "xreihe" in words or any(
        word == "x" and tuple(words[position + 1:position + 2]) in (("reihe",), ("row",))
        for position, word in enumerate(words))
    played, under = played_on(words, numbers)
    if not played:
        return None
    if x_row:
        return Prefill("xrow", {"card": str(played[0]), "x_row": cards_text(under)})
    fields = {"card_1": str(played[0])}
    fields.update({f"row_{size}": str(card) for size, card in zip((3, 4, 5), under,
                                                                   strict=False)})
    return Prefill("round", fields)


SEARCH = GameSearch(
    names=("x nimmt", "xnimmt", "x nimt", "x takes"),
    synonyms={
        "de": (
            # The same group as 11 nimmt!'s (both count Hornochsen); it counts once.
            ("hornochse", "minuspunkt", "strafpunkt", "ochse", "hornochsenpunkt", "minus"),
            # Rule 4 as players put it: "meine Karte ist kleiner als alle Reihen".
            LOW_CARD_DE,
            ("x reihe", "xreihe", "x row", "eigene reihe"),
        ),
        "en": (
            ("hornochse", "hornochsen", "bullhead", "bull head", "minus point", "penalty",
             "penalty point", "ox", "cow"),
            LOW_CARD_EN,
            ("x reihe", "xreihe", "x row", "own row"),
        ),
    },
    move_sections=("placement", "rule-ascending", "rule-lowest-difference", "rule-full-row",
                   "rule-low-card", "x-row"),
    read_cards=read_cards,
    own_words={
        # Points, in a game that counts Hornochsen: "wie viele Punkte zählt der X-Stapel".
        "de": {"stapel": ("Reihe", "X-Stapel"), "stapeln": ("Reihe", "X-Stapel"),
               "punkte": ("Hornochsen",), "punkt": ("Hornochsen",)},
        "en": {"pile": ("row", "X-Stapel"), "piles": ("row", "X-Stapel"),
               "stack": ("row", "X-Stapel"), "points": ("Hornochsen",),
               "point": ("Hornochsen",)},
    },
)

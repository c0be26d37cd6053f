"""How players ask about 6 nimmt! (the rules search: :mod:`companion.rules_search`)."""

from __future__ import annotations

from collections.abc import Sequence

from companion.games.search_words import (
    LOW_CARD_DE,
    LOW_CARD_EN,
    GameSearch,
    Prefill,
    card_numbers,
    played_on,
)


def read_cards(words: Sequence[str]) -> Prefill | None:
    """The round check with the card played and the row ends it is compared with.

    >>> read_cards("wohin kommt die 35 wenn 12 31 50 und 70 liegen".split())
    Prefill(check='round', fields={'card_1': '35', 'row_1': '12', 'row_2': '31', \
'row_3': '50', 'row_4': '70'})
    """
    numbers = card_numbers(words, 1, 104)
    if not numbers:
        return None
    played, under = played_on(words, numbers)
    if not played:
        return None
    fields = {"card_1": str(played[0])}
    fields.update({f"row_{number}": str(card)
                   for number, card in enumerate(under[:4], start=1)})
    return Prefill("round", fields)


SEARCH = GameSearch(
    names=("6 nimmt", "sechs nimmt", "6nimmt", "sechsnimmt", "6 nimt", "sechs nimt",
           "take 6", "take6", "category 5", "six takes"),
    synonyms={
        "de": (
            # The same group as X nimmt!'s and 11 nimmt!'s (all count Hornochsen).
            ("hornochse", "minuspunkt", "strafpunkt", "ochse", "hornochsenpunkt", "minus"),
            # Rule 4 as players put it: "meine Karte ist kleiner als alle Reihen".
            LOW_CARD_DE,
        ),
        "en": (
            ("hornochse", "hornochsen", "bullhead", "bull head", "minus point", "penalty",
             "penalty point", "ox", "cow"),
            LOW_CARD_EN,
        ),
    },
    move_sections=("placement", "rule-ascending", "rule-lowest-difference", "rule-sixth-card",
                   "rule-low-card"),
    read_cards=read_cards,
    # Points, in a game that counts Hornochsen: "bis wie viel Punkte spielt man".
    own_words={
        "de": {"punkte": ("Hornochsen",), "punkt": ("Hornochsen",)},
        "en": {"points": ("Hornochsen",), "point": ("Hornochsen",)},
    },
)

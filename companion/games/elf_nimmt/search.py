"""How players ask about 11 nimmt! (the rules search: :mod:`companion.rules_search`)."""

from __future__ import annotations

from collections.abc import Sequence

from companion.games.search_words import (
    GameSearch,
    Prefill,
    card_numbers,
    cards_text,
    on_positions,
    played_on,
)


def read_cards(words: Sequence[str]) -> Prefill | None:
    """
    >>> read_cards("darf ich die 23 auf die 18 legen".split())
    Prefill(check='play', fields={'tops': '18', 'hand': '23'})
    """
    numbers = card_numbers(words, 1, 100)
    played, under = played_on(words, numbers)
    if not played or not under:
        return None
    return Prefill("play", {"tops": cards_text(under), "hand": cards_text(played)})


def move_phrased(words: Sequence[str]) -> bool:
    """A card "on" another card is a pile's top card: "die 23 auf die 18", "97 on 95".

    >>> move_phrased("can i play 97 on 95".split()), move_phrased("rote 4 auf gelb".split())
    (True, False)
    """
    cards = [at for at, _value in card_numbers(words, 1, 100)]
    return bool(cards) and any(cards[0] < at < cards[-1] for at in on_positions(words))


SEARCH = GameSearch(
    names=("11 nimmt", "elf nimmt", "11nimmt", "elfnimmt", "11 nimt", "elf nimt",
           "eleven takes", "11 takes", "eleven nimmt", "elfnimmt"),
    synonyms={
        "de": (
            # The same group as X nimmt!'s (both count Hornochsen); it counts once.
            ("hornochse", "minuspunkt", "strafpunkt", "ochse", "hornochsenpunkt", "minus"),
            ("bullenkarte", "bulle", "bullen", "stier", "bullkarte"),
            ("kreis", "im kreis", "von vorne", "umlaufen", "100"),
        ),
        "en": (
            ("hornochse", "hornochsen", "bullhead", "bull head", "minus point", "penalty",
             "penalty point", "ox", "cow"),
            ("bull card", "bullenkarte", "bull", "bulls"),
            ("circle", "wrap", "wraps", "wrap around", "loop", "100"),
        ),
    },
    move_sections=("playing", "rule-ascending", "rule-difference", "rule-wrap-around",
                   "bull-cards"),
    read_cards=read_cards,
    move_phrased=move_phrased,
    own_words={
        # Points, in a game that counts Hornochsen: "wie viele Punkte kriegt man".
        "de": {"reihe": ("Stapel",), "reihen": ("Stapel",), "punkte": ("Hornochsen",),
               "punkt": ("Hornochsen",)},
        "en": {"row": ("pile",), "rows": ("pile",), "points": ("Hornochsen",),
               "point": ("Hornochsen",)},
    },
)

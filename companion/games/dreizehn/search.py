"""How players ask about 13 (the rules search: :mod:`companion.rules_search`)."""

from __future__ import annotations

from collections.abc import Sequence

from companion.games.search_words import (
    BEFORE,
    COLOURS,
    GameSearch,
    Prefill,
    card_numbers,
    on_positions,
)

VALUE_WORDS = {"eins": 1, "one": 1, "zwei": 2, "two": 2, "vier": 4, "four": 4, "fünf": 5,
               "five": 5, "sieben": 7, "seven": 7}
"""The values of 13's cards written as words."""


def read_cards(words: Sequence[str]) -> Prefill | None:
    """The colour and value of the card and the target it goes on.

    >>> read_cards("darf ich eine gelbe 5 auf blau legen".split())
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
        elif (word.isdecimal() and int(word) in (1, 2, 4, 5, 7)) or word in VALUE_WORDS:
            fields.setdefault("value", str(VALUE_WORDS.get(word) or int(word)))
    if fields.get("colour") == "red":
        fields["value"] = "4"
    if "colour" not in fields and "value" not in fields:
        return None
    return Prefill("play", fields)


def move_phrased(words: Sequence[str]) -> bool:
    """A card (a colour or a number) "on" a colour is a move onto a target: "gelbe 5 auf
    blau", "rote 4 auf gelb".

    >>> move_phrased("rote 4 auf gelb".split()), move_phrased("can i play 97 on 95".split())
    (True, False)
    """
    colours = [at for at, word in enumerate(words) if word in COLOURS]
    cards = colours + [at for at, _value in card_numbers(words, 1, 100)]
    return bool(colours) and any(min(cards) < at < colours[-1] for at in on_positions(words))


SEARCH = GameSearch(
    names=("13er",),
    number_names=("13", "dreizehn", "thirteen"),
    synonyms={
        "de": (
            ("zielscheibe", "scheibe", "ziel", "zielfeld"),
            ("joker", "fiese", "fies", "vieren"),
            ("dreizehn", "13"),
        ),
        "en": (
            ("target", "disc", "board"),
            ("joker", "wild", "wildcard", "nasty", "fours"),
            ("thirteen", "13"),
        ),
    },
    move_sections=("colours", "red-fours", "over-13"),
    read_cards=read_cards,
    move_phrased=move_phrased,
    own_words={
        "de": {"reihe": ("Zielscheibe",), "reihen": ("Zielscheibe",)},
        "en": {"row": ("target",), "rows": ("target",)},
    },
)

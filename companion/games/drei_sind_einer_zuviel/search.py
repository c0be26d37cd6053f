"""How players ask about 3 sind einer zuviel! (the rules search: :mod:`companion.rules_search`)."""

from __future__ import annotations

from collections.abc import Sequence

from companion.games.search_words import GameSearch, Prefill, card_numbers, cards_text


def read_cards(words: Sequence[str]) -> Prefill | None:
    """The card played and the cards named besides it, each in the row its number picks.

    >>> read_cards("wohin kommt die 40 wenn 46 und 57 liegen".split())
    Prefill(check='place', fields={'card': '40', 'row_2': '46 57'})
    """
    numbers = [(at, value) for at, value in card_numbers(words, 0, 89) if value % 30]
    if not numbers:
        return None
    card = numbers[0][1]
    fields = {"card": str(card)}
    for row, (low, high) in enumerate(((1, 29), (31, 59), (61, 89)), start=1):
        lying = sorted(value for _at, value in numbers[1:] if low <= value <= high)
        if lying:
            fields[f"row_{row}"] = cards_text(lying)
    return Prefill("place", fields)


SEARCH = GameSearch(
    names=(
        "3 sind einer zuviel", "drei sind einer zuviel", "3 sind einer zu viel",
        "drei sind einer zu viel", "sind einer zuviel", "sind einer zu viel", "einer zuviel",
        "einer zu viel", "three is one too many", "three are one too many", "one too many",
        "3 sind", "drei sind", "dreisind", "dreisindeinerzuviel",
        "3sindeinerzuviel", "drei sind einer", "3 sind einer",
    ),
    synonyms={
        # The three black cards that begin the rows, as players call them.
        "de": (("startkarte", "startkarten", "schwarze karte", "schwarze karten",
                "anfangskarte", "anfangskarten"),),
        "en": (("start card", "start cards", "starting card", "starting cards", "black card",
                "black cards"),),
    },
    move_sections=("placement", "row-by-number", "ascending-order", "fifth-card",
                   "fifth-card-highest", "fifth-card-lower"),
    read_cards=read_cards,
)

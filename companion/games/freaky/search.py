"""How players ask about Freaky (the rules search: :mod:`companion.rules_search`).

No card reader: a Freaky card is three features, which a question rarely spells out.
"""

from __future__ import annotations

from companion.games.search_words import GameSearch

SEARCH = GameSearch(
    names=("freaky", "freaki", "freeky", "freakie"),
    synonyms={
        "de": (("merkmal", "eigenschaft", "symbol", "attribut"),),
        "en": (("feature", "attribute", "property", "symbol", "characteristic", "trait"),),
    },
    move_sections=("joining-a-row", "new-row"),
    own_words={
        "de": {"stapel": ("Reihe",)},
        "en": {"pile": ("row",), "piles": ("row",), "stack": ("row",)},
    },
)

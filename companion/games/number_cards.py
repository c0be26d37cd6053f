"""The number cards 1–100 with Hornochsen on the score sheet (X nimmt!, 11 nimmt!; the
engine's side is :mod:`scoring.number_cards`): the cards, the value the card grid shows
on each, and the grid's words for them."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from scoring.number_cards import CARDS, STANDARD_DECK


class HornochsenCards:
    """Mixed into a game's :class:`~companion.games.entry.EntryFormat` (before it)."""

    cards = range(CARDS[0], CARDS[-1] + 1)
    grid_hint = _("Tap the cards each player took. The small number is the card’s "
                  "Hornochsen; grey cards belong to someone else.")
    cards_label = _("cards (Hornochsen):")

    def card_value(self, card: int) -> int:
        return STANDARD_DECK.of(card)

    def card_value_text(self, value: int) -> str:
        """The words read out with each card of this value.

        >>> HornochsenCards().card_value_text(7)
        '7 Hornochsen'
        """
        return ngettext("%(counter)s Hornochse", "%(counter)s Hornochsen",
                        value) % {"counter": value}

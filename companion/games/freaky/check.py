"""Freaky: where a card may go, and whether a row may be collected."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from django.utils.translation import gettext, ngettext, pgettext_lazy
from django.utils.translation import gettext_lazy as _

from companion.games.checks import Refusal, names_and
from scoring import freaky

COLOUR_NAMES = {
    "red": pgettext_lazy("freaky colour", "red"),
    "orange": pgettext_lazy("freaky colour", "orange"),
    "yellow": pgettext_lazy("freaky colour", "yellow"),
    "green": pgettext_lazy("freaky colour", "green"),
    "blue": pgettext_lazy("freaky colour", "blue"),
    "violet": pgettext_lazy("freaky colour", "violet"),
}
FEATURE_NAMES = {
    "background": _("background colour"),
    "circle": _("circle colour"),
    "number": _("number"),
}

MAX_ROWS = freaky.MAX_ON_TABLE - 1
"""The most rows a place check takes: every card on the table could head its own row, and
the card being checked is still in the hand."""
MAX_ROW_CARDS = freaky.MAX_ON_TABLE
"""The most cards a collect check takes in one row: all the table can hold."""


@dataclass(frozen=True, slots=True)
class FreakyJoin:
    row: int
    """Row number as shown (1-based)."""
    shared: tuple[str, ...]
    """Names of the features the card shares with the row's last card."""

    @property
    def shared_text(self) -> str:
        """The shared features in words: "circle colour", "background colour and number"."""
        return names_and(self.shared)


@dataclass(frozen=True, slots=True)
class FreakyPlaceAnswer:
    card: freaky.Card
    joins: tuple[FreakyJoin, ...]
    rows: int
    must_open: bool
    rule: str


def check_freaky_place(
    row_ends: Sequence[tuple[int, freaky.Card]], card: freaky.Card
) -> FreakyPlaceAnswer:
    """Which rows ``card`` may join, given ``(row number, last card)`` of each row on the table.

    >>> ends = [(1, freaky.Card("yellow", "red", 1)), (2, freaky.Card("green", "blue", 2))]
    >>> answer = check_freaky_place(ends, freaky.Card("yellow", "blue", 4))
    >>> [join.row for join in answer.joins], answer.must_open, answer.rule
    ([1, 2], False, 'joining-a-row')
    """
    if len(row_ends) > MAX_ROWS:
        raise Refusal(ngettext(
            "The table holds at most %(most)d row here.",
            "The table holds at most %(most)d rows here.", MAX_ROWS) % {"most": MAX_ROWS})
    ends = [end for _number, end in row_ends]
    joins = tuple(
        FreakyJoin(row_ends[index][0], tuple(
            str(FEATURE_NAMES[f]) for f in freaky.FEATURES
            if card.feature(f) == ends[index].feature(f)))
        for index in freaky.placement_options(card, ends)
    )
    must_open = freaky.may_open_row(card, ends)
    if joins:
        rule = "joining-a-row"
    elif ends:
        rule = "new-row"
    else:
        rule = "app-decides-empty-table"
    return FreakyPlaceAnswer(card, joins, len(ends), must_open, rule)


@dataclass(frozen=True, slots=True)
class FreakyMatch:
    feature: str
    value: str
    count: int
    css: str


@dataclass(frozen=True, slots=True)
class FreakyCollectAnswer:
    cards: int
    matches: tuple[FreakyMatch, ...]
    rule: str = "collecting"

    @property
    def collectable(self) -> bool:
        return bool(self.matches)


def check_freaky_collect(row: Sequence[freaky.Card]) -> FreakyCollectAnswer:
    """Whether ``row`` (first card first) may be collected, and which values appear 4 times.

    A row that could not have been built (a card that does not fit the card
    before it) is refused with a :class:`Refusal` naming that card's position
    as its ``field`` (``"c_<n>"``).

    >>> row = [freaky.Card("yellow", "blue", n) for n in (1, 2, 3, 4)]
    >>> [(m.count, m.css) for m in check_freaky_collect(row).matches]
    [(4, '#fcbf49'), (4, '#1d4e89')]
    """
    if len(row) > MAX_ROW_CARDS:
        raise Refusal(ngettext(
            "A row holds at most %(most)d card.", "A row holds at most %(most)d cards.",
            MAX_ROW_CARDS) % {"most": MAX_ROW_CARDS})
    broken = freaky.broken_link(row)
    if broken is not None:
        raise Refusal(gettext(
            "Card %(position)s cannot lie there: it shares no feature with card %(before)s "
            "before it, so it could not have joined the row.") % {
            "position": broken + 1, "before": broken}, field=f"c_{broken + 1}",
            code="row_broken")
    matches = freaky.collectable_features(row)
    return FreakyCollectAnswer(len(row), tuple(
        FreakyMatch(
            str(FEATURE_NAMES[m.feature]),
            str(COLOUR_NAMES[str(m.value)]) if m.feature != "number" else str(m.value),
            m.count,
            freaky.COLOUR_SWATCHES[str(m.value)] if m.feature != "number" else "",
        ) for m in matches))

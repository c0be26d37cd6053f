"""Why a deal scores what it does, in the user's words.

The engine splits each player's deal score into parts
(``scoring.<game>.explain_deal``, :class:`scoring.common.ScorePart`); here
each part becomes one line of text with its points, for the sheet's
breakdown behind a tapped score. No arithmetic happens here: the numbers are
the engine's.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.utils.translation import get_language, gettext, ngettext

from companion.games import game_app
from companion.games.messages import colour_word
from scoring import ScoringError
from scoring.common import PartKind, ScorePart, rules_for


@dataclass(frozen=True, slots=True)
class WhyLine:
    """One line of a breakdown: what was counted, and the points it gives."""

    text: str
    points: str
    cards: str = ""
    """The card numbers behind the line with their values, e.g. "3 (1), 55 (7)"."""
    cards_label: str = ""
    """What heads ``cards`` (the game's ``EntryFormat.cards_label``): "cards (Hornochsen):"."""


def _colour(part: ScorePart) -> str:
    return colour_word(part.colour) or part.colour


def _hand(part: ScorePart) -> str:
    return ngettext("%(count)s Hornochse in hand", "%(count)s Hornochsen in hand",
                    part.count) % {"count": part.count}


def _x_stack(part: ScorePart) -> str:
    return ngettext("2 × %(count)s Hornochse in the X-stack",
                    "2 × %(count)s Hornochsen in the X-stack", part.count) % {"count": part.count}


def _went_out(part: ScorePart) -> str:
    return gettext("went out: no cards left")


def _open(part: ScorePart) -> str:
    return ngettext("%(colour)s: %(count)s open card", "%(colour)s: %(count)s open cards",
                    part.count) % {"colour": _colour(part), "count": part.count}


def _face_down(part: ScorePart) -> str:
    triples = part.count // 3
    return ngettext(
        "%(colour)s: %(triples)s triple flipped (%(count)s cards face down)",
        "%(colour)s: %(triples)s triples flipped (%(count)s cards face down)", triples,
    ) % {"colour": _colour(part), "triples": triples, "count": part.count}


def _final_bonus(part: ScorePart) -> str:
    return ngettext(
        "%(count)s colour open at the end (bonus from 6)",
        "%(count)s colours open at the end (bonus from 6)", part.count,
    ) % {"count": part.count}


def _interim_bonus(part: ScorePart) -> str:
    return gettext("Interim scoring card (Zwischenwertung) %(value)s") % {"value": part.count}


def _colour_cards(part: ScorePart) -> str:
    text = ngettext("%(colour)s: %(count)s card", "%(colour)s: %(count)s cards",
                    part.count) % {"colour": _colour(part), "count": part.count}
    if part.tied:
        text += " " + gettext("(tied for the most: nobody is spared)")
    return text


def _most(part: ScorePart) -> str:
    return ngettext("%(colour)s: %(count)s card, the most: spared",
                    "%(colour)s: %(count)s cards, the most: spared",
                    part.count) % {"colour": _colour(part), "count": part.count}


def _red(part: ScorePart) -> str:
    return ngettext("2 × %(count)s red 4", "2 × %(count)s red 4s", part.count) % {
        "count": part.count}


def _collected(part: ScorePart) -> str:
    return ngettext("%(count)s card collected", "%(count)s cards collected", part.count) % {
        "count": part.count}


TEXTS: Mapping[str, Callable[[ScorePart], str]] = {
    "hand": _hand, "x_stack": _x_stack, "went_out": _went_out, "open": _open,
    "face_down": _face_down, "final_bonus": _final_bonus, "interim_bonus": _interim_bonus,
    "colour": _colour_cards, "most": _most, "red": _red, "collected": _collected,
}
"""The words for the shared kinds of part (``scoring.common.SHARED_PART_KINDS``); a game's
own kinds have theirs in its folder (``GameApp.part_texts``)."""


def text_of(game: str, kind: PartKind) -> Callable[[ScorePart], str]:
    """The words for a kind of part of ``game``: the game's own, else the shared ones.

    A kind that has neither is a defect of the game's folder (the game contract's test
    finds it): ``KeyError`` naming the game and the kind.
    """
    words = game_app(game).part_texts.get(kind) or TEXTS.get(kind)
    if words is None:
        raise KeyError(f"{game}: no text for the score part {kind!r} (GameApp.part_texts)")
    return words


def _points(part: ScorePart, *, signed: bool) -> str:
    if signed:
        return f"+{part.points}" if part.points > 0 else f"−{-part.points}" if part.points else "0"
    return str(part.points)


@functools.lru_cache(maxsize=4096)
def _text(
    language: str | None, game: str, kind: PartKind, count: int, colour: str, tied: bool
) -> str:
    """The words of one part in ``language``: a sheet says the same ones in deal after deal,
    so they are put together once (the words depend on nothing else)."""
    return text_of(game, kind)(ScorePart(kind, count, 0, colour=colour, tied=tied))


def lines_for(game: str, parts: Sequence[ScorePart], *, signed: bool) -> tuple[WhyLine, ...]:
    """The lines of one player's breakdown; ``signed`` shows +/− (games scoring points)."""
    language = get_language()
    cards_label = str(game_app(game).entry.cards_label)
    return tuple(
        WhyLine(
            text=_text(language, game, part.kind, part.count, part.colour, part.tied),
            points=_points(part, signed=signed),
            cards=", ".join(f"{card.card} ({card.hornochsen})" for card in part.cards),
            cards_label=cards_label if part.cards else "",
        )
        for part in parts
    )


def explain(
    game: str, datas: Mapping[str, Mapping[str, Any]], *, signed: bool
) -> dict[str, tuple[WhyLine, ...]]:
    """Per player name, the lines explaining their score in one recorded deal.

    ``datas`` are the stored entry dicts by player name. Data the engine
    cannot read (it never stores such) gets no breakdown rather than an error
    page: the score itself is still shown.
    """
    rules = rules_for(game)
    try:
        parts = rules.explain_deal({name: rules.entry_from_dict(data)
                                    for name, data in datas.items()})
    except ScoringError:
        return {}
    return {name: lines_for(game, player_parts, signed=signed)
            for name, player_parts in parts.items()}

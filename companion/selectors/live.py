"""The live board page's read: the game's board (``GameApp.live``) with what every board
shows (the revision each tap names, the cards on it, whether the sheet has its result)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.utils.functional import Promise

from companion.games import GAME_APPS, game_app
from companion.games.live import LiveMode, live_steps
from companion.models import Match
from companion.selectors.sheet import seats_of

LIVE_GAMES = frozenset(slug for slug, app in GAME_APPS.items() if app.live is not None)
"""Games with a live board."""


@dataclass(frozen=True, slots=True)
class LivePage:
    match: Match
    game: Any
    """The game's own board (``LiveMode.board``), shown by :attr:`template`."""
    template: str
    undo_label: str | Promise
    revision: int
    """The board's change counter: every tap names it and is refused when it moved on."""
    cards: int
    deal_recorded: bool


def live_mode(match: Match) -> LiveMode | None:
    return game_app(match.game).live


def live_revision(match: Match) -> int:
    return int(match.options.get("live_rev", 0))


def live_board_for(match: Match) -> LivePage:
    """The live board of ``match`` (whose game has one) from its stored steps."""
    live = game_app(match.game).live
    assert live is not None, "only games with a live board"
    steps = live_steps(match, live.option)
    return LivePage(
        match=match, game=live.board(steps, seats_of(match)), template=live.template,
        undo_label=live.undo_label, revision=live_revision(match), cards=live.cards(steps),
        deal_recorded=match.deals.filter(number=1).exists(),
    )


def live_cards(match: Match) -> int:
    """Cards on the match's live board (0 for a game without one)."""
    live = game_app(match.game).live
    return 0 if live is None else live.cards(live_steps(match, live.option))

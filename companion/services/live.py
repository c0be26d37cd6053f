"""The live boards' steps: a tap, undo, and the board's result put on the sheet.

What a tap means is the game's (``GameApp.live``, :mod:`companion.games.live`); here is
what every board shares: the match row locked, the revision every tap names checked
(``Match.options["live_rev"]``: a tap based on a board another phone has changed since is
refused as stale), the new steps stored and the sheet's revision moved on.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from companion.games.live import LiveMode, LiveStep, live_steps
from companion.models import Deal, Match, Seat
from companion.selectors.live import live_mode, live_revision
from companion.services.deals import deal_edit, deal_record
from companion.services.sheet import (
    ConfirmationNeeded,
    StaleData,
    check_open,
    lock_match,
    match_seats,
    touch,
)


def _live_change(match: Match, revision: int) -> tuple[Match, LiveMode, list[Seat]]:
    live = live_mode(match)
    if live is None:
        raise ValidationError(_("This game has no live mode."), code="no_live")
    match = lock_match(match)
    check_open(match)
    if live_revision(match) != revision:
        raise StaleData(
            _("Another phone recorded a card meanwhile; your tap was not saved. "
              "Here is the current state."),
            code="stale",
        )
    return match, live, match_seats(match)


def _live_store(match: Match, live: LiveMode, steps: list[LiveStep]) -> None:
    match.options = {**match.options, live.option: steps, "live_rev": live_revision(match) + 1}
    match.save(update_fields=["options"])
    touch(match=match)


def live_step(*, match: Match, revision: int, action: str, data: Mapping[str, Any]) -> None:
    """A tap on the board: the game's ``action`` with its form ``data``; nothing is stored
    when the game refuses it."""
    with transaction.atomic():
        match, live, seats = _live_change(match, revision)
        if action not in live.actions:
            raise ValidationError(_("This tap is not part of this match's live board."),
                                  code="no_action")
        _live_store(match, live, live.actions[action](live_steps(match, live.option), seats, data))


def live_undo(*, match: Match, revision: int) -> None:
    """Take back the last tap."""
    with transaction.atomic():
        match, live, _seats = _live_change(match, revision)
        steps = live_steps(match, live.option)
        if not steps:
            raise ValidationError(_("There is nothing to undo."), code="nothing")
        _live_store(match, live, live.undo(steps))


def live_save(*, match: Match, revision: int, user: Any = None, confirm: bool = False) -> Deal:
    """Put the live result on the sheet as the game's deal (recorded or corrected).

    Replacing a result already on the sheet, or putting an empty board (no card
    taken) on it, needs ``confirm``: otherwise :class:`ConfirmationNeeded`.
    """
    with transaction.atomic():
        match, live, seats = _live_change(match, revision)
        steps = live_steps(match, live.option)
        entries = live.entries(steps, seats)
        empty = not steps
        existing = match.deals.filter(number=1).first()
        if not confirm and empty and existing is not None:
            raise ConfirmationNeeded(
                _("No card is on the live board: the sheet's result would be replaced "
                  "by zeros. Replace it anyway?"),
                code="confirm_replace",
            )
        if not confirm and empty:
            raise ConfirmationNeeded(
                _("No card is on the live board: the sheet would get a deal of zeros. "
                  "Put it on the sheet anyway?"),
                code="confirm_empty",
            )
        if not confirm and existing is not None:
            raise ConfirmationNeeded(
                _("The sheet already has a result for this match. Replace it with the "
                  "live board's?"),
                code="confirm_replace",
            )
        if existing is None:
            return deal_record(match=match, number=1, entries=entries, user=user)
        return deal_edit(
            match=match, number=1, version=existing.version, entries=entries, user=user
        )

"""The live boards: 3 sind einer zuviel! and Freaky recorded while they are played.

The page survives reloads and every phone of the group sees the same state:

- 3 sind einer zuviel!, turn by turn: ``Match.options["live_turns"]`` holds
  ``[player_id, [colour, ...], closed]`` per turn. The engine's live API
  (``live_replay``/``live_entries``) does the bookkeeping: open and face-down
  cards, interim bonuses in order, the final bonus.
- Freaky, row by row: ``Match.options["live_rows"]`` holds ``[player_id, cards]``
  per collected row.

``Match.options["live_rev"]`` counts the changes: every step names the revision it was
based on and is refused as stale otherwise. Every step is validated by the engine before
it is stored; :func:`live_save` puts the board's result on the sheet as the game's deal.
"""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from companion.models import Deal, Match, Seat
from companion.selectors.live import (
    LIVE_GAMES,
    check_player,
    freaky_collected,
    live_entries,
    live_rows,
    live_state,
    live_turns,
)
from companion.services.deals import deal_edit, deal_record
from companion.services.sheet import (
    ConfirmationNeeded,
    StaleData,
    check_open,
    lock_match,
    match_seats,
    touch,
)
from scoring import freaky


def _live_change(
    match: Match, revision: int, *, game: str | None = None
) -> tuple[Match, list[Seat]]:
    if match.game not in LIVE_GAMES or (game is not None and match.game != game):
        raise ValidationError(_("This game has no live mode."), code="no_live")
    match = lock_match(match)
    check_open(match)
    if int(match.options.get("live_rev", 0)) != revision:
        raise StaleData(
            _("Another phone recorded a card meanwhile; your tap was not saved. "
              "Here is the current state."),
            code="stale",
        )
    return match, match_seats(match)

def _live_store(match: Match, key: str, value: list[Any]) -> None:
    match.options = {
        **match.options, key: value, "live_rev": int(match.options.get("live_rev", 0)) + 1
    }
    match.save(update_fields=["options"])
    touch(match=match)

def live_take(*, match: Match, player_id: int, colour: str, revision: int) -> None:
    """3 sind einer zuviel!: ``player_id`` took a card of ``colour`` in their current turn.

    Cards tapped for the same player one after the other belong to one turn
    until the turn is closed (:func:`live_end_turn`), another player takes a
    card, or the turn has three cards (a turn takes at most three).
    """
    with transaction.atomic():
        match, seats = _live_change(match, revision, game="drei-sind-einer-zuviel")
        turns = live_turns(match)
        last = turns[-1] if turns else None
        if last is not None and last[0] == player_id and not last[2] and len(last[1]) < 3:
            last[1] = [*last[1], colour]
        else:
            if last is not None:
                last[2] = True
            turns.append([player_id, [colour], False])
        live_state(match, seats, turns)  # raises ScoringError: nothing is stored
        _live_store(match, "live_turns", turns)

def live_end_turn(*, match: Match, revision: int) -> None:
    """3 sind einer zuviel!: close the current turn; the next card starts a new one."""
    with transaction.atomic():
        match, _ = _live_change(match, revision, game="drei-sind-einer-zuviel")
        turns = live_turns(match)
        if not turns or turns[-1][2]:
            raise ValidationError(_("No turn is open."), code="no_turn")
        turns[-1][2] = True
        _live_store(match, "live_turns", turns)

def live_collect(*, match: Match, player_id: int, cards: int, revision: int) -> None:
    """Freaky: ``player_id`` collected a row of ``cards`` cards."""
    with transaction.atomic():
        match, seats = _live_change(match, revision, game="freaky")
        if cards < freaky.COLLECT_AT:
            raise ValidationError(
                _("A collected row has at least %(least)s cards.") % {"least": freaky.COLLECT_AT},
                code="short_row",
            )
        rows = [*live_rows(match), [check_player(seats, player_id), cards]]
        freaky_collected(seats, rows)  # raises ScoringError: nothing is stored
        _live_store(match, "live_rows", rows)

def live_undo(*, match: Match, revision: int) -> None:
    """Take back the last tapped card or row (or reopen the last closed turn)."""
    with transaction.atomic():
        match, _ = _live_change(match, revision)
        if match.game == "freaky":
            rows = live_rows(match)
            if not rows:
                raise ValidationError(_("There is nothing to undo."), code="nothing")
            _live_store(match, "live_rows", rows[:-1])
            return
        turns = live_turns(match)
        if not turns:
            raise ValidationError(_("There is nothing to undo."), code="nothing")
        last = turns[-1]
        if last[2]:
            last[2] = False
        else:
            last[1] = last[1][:-1]
            if not last[1]:
                turns.pop()
        _live_store(match, "live_turns", turns)

def live_save(*, match: Match, revision: int, user: Any = None, confirm: bool = False) -> Deal:
    """Put the live result on the sheet as the game's deal (recorded or corrected).

    Replacing a result already on the sheet, or putting an empty board (no card
    taken) on it, needs ``confirm``: otherwise :class:`ConfirmationNeeded`.
    """
    with transaction.atomic():
        match, seats = _live_change(match, revision)
        entries = live_entries(match, seats)
        empty = not (live_rows(match) if match.game == "freaky" else live_turns(match))
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
                _("The sheet already has a result for this game. Replace it with the "
                  "live board's?"),
                code="confirm_replace",
            )
        if existing is None:
            return deal_record(match=match, number=1, entries=entries, user=user)
        return deal_edit(
            match=match, number=1, version=existing.version, entries=entries, user=user
        )

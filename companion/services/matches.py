"""A match's life: start, finish, reopen (or resume), abandon, delete, and the rematch.

What the steps share (the locked match row, the log, the seats' totals) is in
:mod:`companion.services.sheet`; the deals' own steps are in
:mod:`companion.services.deals`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from companion.changes import announce
from companion.models import GameNight, Group, Match, MatchChange, Player, Seat
from companion.selectors.sheet import rematch_plan
from companion.services.groups import game_night_for_today
from companion.services.results import match_counted, match_results_update
from companion.services.sheet import (
    acting_user,
    check_open,
    deals_needed,
    lock_match,
    log_change,
    refresh_seats,
)
from scoring import GAMES, error


def match_start(
    *,
    group: Group,
    game: str,
    players: Sequence[Player],
    first_dealer: int = 0,
    options: Mapping[str, object] | None = None,
    game_night: GameNight | None = None,
    user: Any = None,
) -> Match:
    """Start a match of ``game`` with ``players`` in seat order.

    Without ``game_night`` the match goes into today's game night of the group.
    ``first_dealer`` is the seat (0-based) that deals or starts first.
    """
    info = GAMES.get(game)
    if info is None:
        raise error("unknown_game", "Unknown game {game!r}.", game=game)
    info.check_players(len(players))
    if len({player.pk for player in players}) != len(players):
        raise ValidationError(_("Every player can take only one seat."), code="seat_twice")
    if any(player.group_id != group.pk for player in players):
        raise ValidationError(_("Every player must be on the group's roster."), code="roster")
    if not 0 <= first_dealer < len(players):
        raise ValidationError(_("The first dealer must be one of the players."), code="dealer")
    if game_night is not None and game_night.group_id != group.pk:
        raise ValidationError(_("The game night belongs to another group."), code="night")
    with transaction.atomic():
        if game_night is None:
            game_night = game_night_for_today(group=group)
        match = Match.objects.create(
            group=group, game_night=game_night, game=game, options=dict(options or {}),
            first_dealer=first_dealer, created_by=acting_user(user),
        )
        match_counted(match=match, delta=1)
        Seat.objects.bulk_create(
            Seat(match=match, player=player, number=number)
            for number, player in enumerate(players)
        )
        refresh_seats(match=match)
    return match

def match_finish(*, match: Match, user: Any = None) -> Match:
    """Finish a complete match: the winners are the players on the engine's place 1."""
    with transaction.atomic():
        match = lock_match(match)
        check_open(match)
        players = match.seats.count()
        recorded = match.deals.count()
        needed = deals_needed(match, players, recorded)
        if recorded < needed:
            raise ValidationError(
                ngettext(
                    "The match is not complete yet: %(recorded)s of %(needed)s deal recorded.",
                    "The match is not complete yet: %(recorded)s of %(needed)s deals recorded.",
                    needed,
                ) % {"recorded": recorded, "needed": needed},
                code="incomplete",
            )
        match.status = Match.Status.FINISHED
        match.finished_at = timezone.now()
        match.save(update_fields=["status", "finished_at"])
        log_change(match, MatchChange.Kind.FINISH, None, None, user)
        refresh_seats(match=match)
        match_results_update(match=match)
    return match

def match_reopen(*, match: Match, user: Any = None) -> Match:
    """Reopen a finished match so that its deals can be corrected, or resume an abandoned one."""
    with transaction.atomic():
        match = lock_match(match)
        if match.status == Match.Status.OPEN:
            raise ValidationError(_("This match is still running."), code="open")
        if match.source != Match.Source.SHEET:
            # Its totals have no deals behind them: reopened, the sheet would count zeros.
            raise ValidationError(
                _("An imported match has final scores only; it cannot be reopened."),
                code="imported",
            )
        match.status = Match.Status.OPEN
        match.finished_at = None
        match.save(update_fields=["status", "finished_at"])
        log_change(match, MatchChange.Kind.REOPEN, None, None, user)
        refresh_seats(match=match)
        match_results_update(match=match)
    return match

def match_abandon(*, match: Match, user: Any = None) -> Match:
    """Stop a running match for good: it stays in the history, counts in no statistics."""
    with transaction.atomic():
        match = lock_match(match)
        if match.status != Match.Status.OPEN:
            raise ValidationError(
                _("Only a running match can be abandoned."), code="not_running"
            )
        match.status = Match.Status.ABANDONED
        match.save(update_fields=["status"])
        log_change(match, MatchChange.Kind.ABANDON, None, None, user)
        refresh_seats(match=match)
    return match

def can_delete(match: Match, user: Any) -> bool:
    """Only the group's owner and the one who started the match may delete it."""
    if user is None or not user.is_authenticated:
        return False
    return bool(user.pk in (match.group.owner_id, match.created_by_id))

def match_delete(*, match: Match, user: Any) -> None:
    """Delete the match with its deals and log (the group's owner or its starter only)."""
    if not can_delete(match, user):
        raise PermissionDenied(
            _("Only the group's owner and the one who started the match may delete it.")
        )
    with transaction.atomic():
        match = lock_match(match)
        match_results_update(match=match, counts=False)
        match_counted(match=match, delta=-1)
        announce(match.pk)  # the phones showing it learn at once that it is gone
        match.delete()

def match_rematch(*, match: Match, user: Any = None) -> Match:
    """Start the same game again with the same players, seats rotated by one.

    Who deals / starts first follows :func:`companion.selectors.sheet.rematch_plan`.
    The new match goes into today's game night and keeps the game's options
    (not the finished match's live board).
    """
    match = Match.objects.select_related("group").get(pk=match.pk)
    if match.status != Match.Status.FINISHED:
        raise ValidationError(
            _("A rematch can be started once the match is finished."), code="not_finished"
        )
    plan = rematch_plan(match)
    options = {
        key: value for key, value in match.options.items() if not key.startswith("live_")
    }
    return match_start(
        group=match.group, game=match.game, players=[seat.player for seat in plan.seats],
        first_dealer=plan.first_dealer, options=options, user=user,
    )

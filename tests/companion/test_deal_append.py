"""A new deal is worked out before its transaction, which only writes (issue 31: on SQLite a
transaction holds the database's one write lock from its start, so every read and every
engine call in it made every other save of the server wait), and a change that comes
between the read and the write is never lost."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest
from django.db import connection
from django.utils import translation

from companion.models import Group, Match, Player
from companion.services import deals as deal_services
from companion.services import matches as match_services
from companion.services import sheet as sheet_services


@pytest.fixture(autouse=True)
def english() -> Iterator[None]:
    with translation.override("en"):
        yield


def entries(players: list[Player], *hands: int) -> dict[int, dict[str, Any]]:
    return {player.pk: {"hand": hand} for player, hand in zip(players, hands, strict=True)}


def totals(match: Match) -> dict[str, tuple[int, int | None]]:
    return {seat.player.name: (seat.total, seat.place)
            for seat in match.seats.select_related("player")}


def started(players: list[Player]) -> Match:
    """An X nimmt! match with deal 1 on its sheet (Anna 5, Ben 3, Cem 0)."""
    match = match_services.match_start(group=players[0].group, game="x-nimmt", players=players)
    deal_services.deal_record(match=match, number=1, entries=entries(players, 5, 3, 0))
    return Match.objects.get(pk=match.pk)


def before_writing(monkeypatch: pytest.MonkeyPatch, meanwhile: Callable[[], None]) -> None:
    """``meanwhile`` (another phone's change) runs once, after the deal was worked out from
    its read and before its transaction writes."""
    work_out = deal_services._work_out
    calls = []

    def worked_out(*args: Any, **kwargs: Any) -> Any:
        result = work_out(*args, **kwargs)
        if not calls:
            calls.append(1)
            meanwhile()
        return result

    monkeypatch.setattr(deal_services, "_work_out", worked_out)


@pytest.mark.django_db(transaction=True)
def test_the_transaction_only_writes(group: Group, players: list[Player]) -> None:
    match = started(players)
    seats = sheet_services.match_seats(match)
    statements: list[tuple[bool, str]] = []

    def record(execute: Any, sql: str, params: Any, many: bool, context: Any) -> Any:
        statements.append((connection.in_atomic_block, sql.lstrip().split(None, 1)[0].upper()))
        return execute(sql, params, many, context)

    engine_in_transaction = []
    score_entries = deal_services.score_entries

    def scored(*args: Any, **kwargs: Any) -> Any:
        engine_in_transaction.append(connection.in_atomic_block)
        return score_entries(*args, **kwargs)

    with pytest.MonkeyPatch.context() as patch, connection.execute_wrapper(record):
        patch.setattr(deal_services, "score_entries", scored)
        deal_services.deal_append(match=match, number=2, seats=seats,
                                  entries=entries(players, 0, 2, 4))
    written = [verb for inside, verb in statements if inside]
    assert written and set(written) <= {"INSERT", "UPDATE"}, statements
    assert "SELECT" in [verb for inside, verb in statements if not inside]
    assert engine_in_transaction == [False]
    assert totals(match) == {"Anna": (5, 2), "Ben": (5, 2), "Cem": (4, 1)}


@pytest.mark.django_db
def test_a_correction_between_the_read_and_the_write_counts(
    monkeypatch: pytest.MonkeyPatch, group: Group, players: list[Player],
) -> None:
    match = started(players)
    seats = sheet_services.match_seats(match)
    # Another phone corrects deal 1 (Anna 5 → 9) after this phone's deal 2 was worked out
    # from totals without it: the deal is worked out again, from the corrected totals.
    before_writing(monkeypatch, lambda: deal_services.deal_edit(
        match=match, number=1, version=1, entries=entries(players, 9, 3, 0)))
    recorded = deal_services.deal_append(match=match, number=2, seats=seats,
                                         entries=entries(players, 0, 2, 4))
    assert totals(match) == {"Anna": (9, 3), "Ben": (5, 2), "Cem": (4, 1)}
    assert [(seat.player.name, seat.total) for seat in recorded.seats] == [
        ("Anna", 9), ("Ben", 5), ("Cem", 4)]
    assert recorded.revision == Match.objects.get(pk=match.pk).revision
    # What the engine gives for the whole sheet, read again.
    sheet_services.refresh_seats(match=match)
    assert totals(match) == {"Anna": (9, 3), "Ben": (5, 2), "Cem": (4, 1)}


@pytest.mark.django_db
def test_the_same_deal_from_another_phone_meanwhile_is_refused(
    monkeypatch: pytest.MonkeyPatch, group: Group, players: list[Player],
) -> None:
    match = started(players)
    before_writing(monkeypatch, lambda: deal_services.deal_record(
        match=match, number=2, entries=entries(players, 1, 0, 1)))
    with pytest.raises(sheet_services.StaleData, match="Deal 2 was recorded on another phone"):
        deal_services.deal_append(match=match, number=2, entries=entries(players, 0, 2, 4))
    assert match.deals.count() == 2
    assert totals(match) == {"Anna": (6, 3), "Ben": (3, 2), "Cem": (1, 1)}

"""The sheet reads its undo and redo targets in one query (selectors/sheet.py,
``undo_redo_targets``): always the changes ``undo_target`` and ``redo_target`` name."""

from __future__ import annotations

import random

import pytest
from django.contrib.auth.models import User
from django.utils import translation

from companion.models import Group, Match, Player
from companion.selectors import sheet as sheet_reads
from companion.services import deals as deal_services
from companion.services import matches as match_services
from scoring import GAMES
from scoring.common import rules_for

pytestmark = pytest.mark.django_db
LONG = {"deals": 100}


class Table:
    """A match of 100 deals (of a game that takes that option), and legal deals for it."""

    def __init__(self, group: Group, players: list[Player], seed: int = 31) -> None:
        self.rng = random.Random(seed)
        self.players = players
        for slug in GAMES:
            try:
                if rules_for(slug, LONG).deal_count(len(players)) == LONG["deals"]:
                    break
            except (TypeError, ValueError):
                continue
        else:
            pytest.fail("no game takes a fixed number of deals")
        self.rules = rules_for(slug, LONG)
        self.match = match_services.match_start(group=group, game=slug, players=players,
                                                options=LONG)

    def entries(self) -> dict[int, dict]:
        played = self.rules.random_game(len(self.players), self.rng)
        deal = played.deals[0]
        return {player.pk: self.rules.entry_to_dict(deal[name])
                for player, name in zip(self.players, played.players, strict=True)}

    def record(self) -> None:
        deal_services.deal_record(match=self.match, number=self.match.deals.count() + 1,
                                  entries=self.entries())


def expected(match: Match) -> tuple[int | None, int | None]:
    undo = sheet_reads.undo_target(match)
    redo = sheet_reads.redo_target(match)
    return (undo.pk if undo else None, redo.pk if redo else None)


def found(match: Match) -> tuple[int | None, int | None]:
    undo, redo = sheet_reads.undo_redo_targets(match)
    return (undo.pk if undo else None, redo.pk if redo else None)


@pytest.mark.parametrize("read", [sheet_reads.TARGETS_READ, 2])
def test_the_targets_match_undo_and_redo_through_records_edits_undos_and_redos(
    group: Group, players: list[Player], anna: User, read: int,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(sheet_reads, "TARGETS_READ", read)
    table = Table(group, players)
    rng, match = table.rng, table.match
    assert found(match) == expected(match) == (None, None)
    seen = {(True, True)}
    for _ in range(80):
        undo, redo = expected(match)
        moves = ["record"] + ["undo"] * 3 * bool(undo) + ["redo"] * bool(redo)
        moves += ["edit"] * bool(match.deals.exists())
        move = rng.choice(moves)
        if move == "record":
            table.record()
        elif move == "edit":
            deal = match.deals.order_by("-number").first()
            deal_services.deal_edit(match=match, number=deal.number, version=deal.version,
                                    entries=table.entries())
        elif move == "undo":
            deal_services.match_undo(match=match, change_id=undo, user=anna)
        else:
            deal_services.match_redo(match=match, change_id=redo, user=anna)
        assert found(match) == expected(match), move
        seen.add(tuple(value is None for value in expected(match)))
    # Both targets were there, either one alone, and neither.
    assert len(seen) == 4


def test_a_pile_of_undone_changes_is_read_to_its_end(
    group: Group, players: list[Player], anna: User,
) -> None:
    table = Table(group, players)
    match = table.match
    for _ in range(sheet_reads.TARGETS_READ + 3):
        table.record()
    for _ in range(sheet_reads.TARGETS_READ + 1):
        deal_services.match_undo(match=match, user=anna)
    assert found(match) == expected(match)
    assert found(match)[0] is not None and found(match)[1] is not None


def test_one_query_when_the_targets_are_among_the_newest(
    group: Group, players: list[Player], anna: User, django_assert_num_queries,
) -> None:
    table = Table(group, players)
    match = table.match
    for _ in range(3):
        table.record()
    deal_services.match_undo(match=match, user=anna)
    with django_assert_num_queries(1), translation.override("de"):
        undo, redo = sheet_reads.undo_redo_targets(match)
        # What the sheet shows of them is read with them (no query more).
        assert (undo.kind, undo.deal_number, undo.get_kind_display()) == ("record", 2, "erfasst")
        assert redo.deal_number == 3

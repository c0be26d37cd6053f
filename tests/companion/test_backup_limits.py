"""A backup of a database the app made always restores (issue 30, item 2).

The counts of ``companion/limits.py`` bound what an upload may cost (the group import,
a BG Stats file); the pages create without them. So ``restore`` checks a group's
history against the games' rules, but not against those counts: a member who starts
401 game nights in a year, or a guest who taps undo and redo a thousand times, does
not make the whole site's backup unrestorable. The group import still refuses such a
group's export (its own bound), as the last test shows.
"""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command
from django.utils import translation

from companion import limits
from companion.models import GameNight, Group, Match, Player
from companion.services import deals as deal_services
from companion.services import matches as match_services
from companion.services.transfer import TransferError
from companion.services.transfer.export import group_export
from companion.services.transfer.importer import group_import
from tests.companion.test_backups import everything
from tests.companion.test_history_helpers import freaky, night

pytestmark = pytest.mark.django_db(transaction=True)


def smaller(monkeypatch: pytest.MonkeyPatch, name: str, maximum: int) -> None:
    monkeypatch.setattr(limits, name, limits.Limit(maximum, getattr(limits, name).message))


def round_trip(tmp_path: Path) -> None:
    """Back the database up, empty it, restore it: every row comes back (the ratings,
    which the restore computes afresh, as many as before)."""
    rebuilt = ("companion.Rating", "companion.RatingStep")
    before = everything()
    path = tmp_path / "kartenrunde.json.gz"
    call_command("backup", str(path), verbosity=0)
    call_command("flush", interactive=False, verbosity=0)
    call_command("restore", str(path), verbosity=0)
    after = everything()
    assert {label: len(after.pop(label)) for label in rebuilt} == {
        label: len(before.pop(label)) for label in rebuilt}
    assert after == before


def test_401_game_nights_in_a_year_restore(group: Group, tmp_path: Path) -> None:
    """At the real limit: one more game night in a year than an import takes."""
    start = dt.date(2026, 1, 1)
    GameNight.objects.bulk_create(
        GameNight(group=group, date=start + dt.timedelta(days=index % 365))
        for index in range(limits.NIGHTS_PER_YEAR.maximum + 1)
    )
    round_trip(tmp_path)
    assert GameNight.objects.filter(group=group).count() == 401


def _over_every_count(group: Group, players: list[Player]) -> None:
    """The group beyond every count limit of the import, as lowered by the test: game
    nights (in all and per year), matches, deals, log entries in all and per match (a
    guest's undo and redo), options of a match."""
    for day in range(1, 4):
        freaky(group, f"2026-02-0{day}", Anna=30, Ben=20, Cem=10)
    match = match_services.match_start(group=group, game="dreizehn", players=players)
    entries = {players[0].pk: {"red": 2}, players[1].pk: {"blue": 1}, players[2].pk: {}}
    deal_services.deal_record(match=match, number=1, entries=entries)
    for _round in range(3):
        deal_services.match_undo(match=match)
        deal_services.match_redo(match=match)
    night(group, "2026-02-10")


@pytest.fixture
def lowered(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every count limit of the import made small, so that a small group breaks them all."""
    for name, maximum in (("NIGHTS", 2), ("NIGHTS_PER_YEAR", 2), ("MATCHES", 2), ("DEALS", 2),
                          ("CHANGES", 3), ("CHANGES_PER_MATCH", 3), ("OPTIONS_BYTES", 2)):
        smaller(monkeypatch, name, maximum)


def test_a_group_over_every_count_limit_restores(
    lowered: None, group: Group, players: list[Player], tmp_path: Path
) -> None:
    _over_every_count(group, players)
    round_trip(tmp_path)
    assert Match.objects.count() == 4


def test_the_import_still_refuses_that_groups_export(
    lowered: None, group: Group, players: list[Player]
) -> None:
    """The counts stay the import's bound: the same group, exported, is refused."""
    _over_every_count(group, players)
    document = group_export(group)
    with translation.override("en"), pytest.raises(TransferError) as refused:
        group_import(user=User.objects.create_user("bob", password="kartenrunde-bob-1"),
                     content=json.dumps(document))
    assert "an import takes at most" in str(refused.value)

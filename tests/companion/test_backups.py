"""manage.py backup / restore: everything round-trips into an empty database."""

from __future__ import annotations

import gzip
import json
from pathlib import Path
from typing import Any

import pytest
from axes.models import AccessAttempt
from django.contrib.auth.models import User
from django.contrib.sessions.models import Session
from django.core.cache import caches
from django.core.management import call_command
from django.core.management.base import CommandError
from django.test import Client
from django.urls import reverse

from companion import backups
from companion.models import (
    Group,
    GroupChange,
    Invite,
    Match,
    Membership,
    Player,
    SeatResult,
)
from companion.selectors import history
from companion.services import deals as deal_services
from companion.services import matches as match_services
from tests.companion.test_history_helpers import x_nimmt

pytestmark = pytest.mark.django_db(transaction=True)


def everything() -> dict[str, list[tuple[Any, ...]]]:
    """Every row of every backed-up model, as sorted tuples of all its fields."""
    return {
        model._meta.label: sorted(
            tuple(row.values()) for row in model._base_manager.values()
        )
        for model in backups.backed_up_models()
    }


@pytest.fixture
def evening(group: Group, players: list[Player]) -> Match:
    """Anna's group with Ben as a member, an invite, a group log line and a match of 13."""
    ben = User.objects.create_user("ben", password="kartenrunde-ben-1")
    Membership.objects.create(group=group, user=ben, role=Membership.Role.MEMBER)
    players[1].user = ben
    players[1].save(update_fields=["user"])
    Invite.objects.create(group=group, created_by=group.owner)
    GroupChange.objects.create(group=group, kind=GroupChange.Kind.RENAME, detail={"to": "X"})
    match = match_services.match_start(group=group, game="dreizehn", players=players)
    deal_services.deal_record(match=match, number=1, entries={
        players[0].pk: {"red": 2}, players[1].pk: {"blue": 1}, players[2].pk: {},
    })
    deal_services.deal_edit(match=match, number=1, version=1, entries={
        players[0].pk: {"red": 3}, players[1].pk: {"blue": 1}, players[2].pk: {},
    })
    return match


def test_a_backup_restored_into_an_empty_database_holds_everything(
    evening: Match, tmp_path: Path, client: Client
) -> None:
    AccessAttempt.objects.create(username="anna", ip_address="192.0.2.1", failures_since_start=1)
    Client().force_login(evening.group.owner)
    before = everything()
    path = tmp_path / "kartenrunde.json.gz"

    call_command("backup", str(path), verbosity=0)
    call_command("flush", interactive=False, verbosity=0)
    assert not User.objects.exists()
    caches["renders"].set("sheet:of-the-database-before", "<div>old</div>", 30)
    call_command("restore", str(path), verbosity=0)

    assert everything() == before
    # The sheets the server's processes shared were of the database before.
    assert caches["renders"].get("sheet:of-the-database-before") is None
    assert before["auth.User"] and before["companion.Deal"] and before["companion.Invite"]
    assert len(before["companion.MatchChange"]) == 2
    assert not AccessAttempt.objects.exists()
    assert not Session.objects.exists()
    response = client.post(
        reverse("login"), {"username": "anna", "password": "kartenrunde-anna-1"}
    )
    assert response.status_code == 302
    page = client.get(reverse("match_sheet", args=[evening.group_id, evening.pk]))
    assert page.status_code == 200
    assert "Donnerstagsrunde" in page.content.decode()
    # New rows get fresh ids after a restore (PostgreSQL's sequences moved on too).
    later = match_services.match_start(
        group=Group.objects.get(), game="x-nimmt", players=list(Player.objects.all())
    )
    assert later.pk > evening.pk


def test_the_backup_is_json_that_leaves_out_sessions_permissions_and_login_throttling(
    evening: Match, tmp_path: Path
) -> None:
    AccessAttempt.objects.create(username="anna", ip_address="192.0.2.1", failures_since_start=1)
    path = tmp_path / "kartenrunde.json.gz"
    call_command("backup", str(path), verbosity=0)
    labels = {row["model"] for row in json.loads(gzip.decompress(path.read_bytes()))}
    assert {"auth.user", "companion.membership", "companion.match", "companion.dealscore",
            "companion.matchchange", "companion.groupchange", "companion.invite"} <= labels
    assert not labels & {"axes.accessattempt", "sessions.session", "auth.permission",
                         "contenttypes.contenttype"}
    assert path.stat().st_mode & 0o777 == 0o600


def test_it_refuses_to_restore_into_a_database_that_holds_data(
    evening: Match, tmp_path: Path
) -> None:
    path = tmp_path / "kartenrunde.json"
    call_command("backup", str(path), verbosity=0)
    before = everything()
    with pytest.raises(CommandError) as refused:
        call_command("restore", str(path), verbosity=0)
    assert "The database is not empty (" in str(refused.value)
    assert "2 × auth.User" in str(refused.value)
    assert everything() == before


def test_a_failed_backup_leaves_the_previous_file_as_it_was(
    evening: Match, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "kartenrunde.json"
    path.write_text("[]")

    def half_written(stream: Any) -> None:
        stream.write('[{"model": "auth.user", ')
        raise OSError("disk full")

    monkeypatch.setattr(backups, "_write", half_written)
    with pytest.raises(OSError, match="disk full"):
        call_command("backup", str(path), verbosity=0)
    assert path.read_text() == "[]"
    assert [p.name for p in tmp_path.iterdir()] == ["kartenrunde.json"]


def test_a_restore_that_fails_half_way_leaves_the_database_empty(
    evening: Match, tmp_path: Path
) -> None:
    path = tmp_path / "kartenrunde.json"
    call_command("backup", str(path), verbosity=0)
    rows = json.loads(path.read_text())
    rows.append({"model": "companion.seat", "pk": 999, "fields": {
        "match": 12345, "player": 1, "number": 9, "total": 0,
    }})
    path.write_text(json.dumps(rows))
    call_command("flush", interactive=False, verbosity=0)
    with pytest.raises(Exception):  # noqa: B017 - the database's own integrity error
        call_command("restore", str(path), verbosity=0)
    assert all(rows == [] for rows in everything().values())


@pytest.mark.parametrize("name", ["kartenrunde.txt", "kartenrunde"])
def test_it_wants_a_json_file_name(db: None, tmp_path: Path, name: str) -> None:
    with pytest.raises(CommandError, match=r"a backup's file name ends with \.json"):
        call_command("backup", str(tmp_path / name), verbosity=0)


def test_a_restore_computes_the_statistics_kept_per_finished_match(
    group: Group, players: list[Player], tmp_path: Path
) -> None:
    x_nimmt(group, "2026-02-14", {"Anna": (5, 9), "Ben": (0, 1)}, {"Anna": (0, 1), "Ben": (3, 1)})
    game, anna = history.game_stats(group, "x-nimmt"), history.player_stats(players[0])
    path = tmp_path / "kartenrunde.json.gz"

    call_command("backup", str(path), verbosity=0)
    labels = {row["model"] for row in json.loads(gzip.decompress(path.read_bytes()))}
    call_command("flush", interactive=False, verbosity=0)
    call_command("restore", str(path), verbosity=0)

    assert not labels & {"companion.seatresult", "companion.playerrecord",
                         "companion.pairrecord", "companion.gamerecord"}
    assert SeatResult.objects.count() == 2
    assert history.game_stats(group, "x-nimmt") == game
    assert history.player_stats(Player.objects.get(pk=players[0].pk)) == anna
    assert (game.matches, game.deals, anna.matches, anna.wins) == (1, 2, 1, 0)

"""``manage.py restore`` of a hostile backup (issue 21): the same checks as the group
import, plus no staff or superuser accounts unless asked for, no sessions, no rows
pointing into another group, a cap on the unpacked size; a refused backup changes
nothing."""

from __future__ import annotations

import gzip
import json
import tracemalloc
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command
from django.core.management.base import CommandError

from companion.models import Group, Match, Membership, Player
from tests.companion.test_backups import evening, everything  # noqa: F401 - a fixture

pytestmark = pytest.mark.django_db(transaction=True)

Rows = list[dict[str, Any]]


@pytest.fixture
def backup(evening: Match, tmp_path: Path) -> Rows:  # noqa: F811 - the fixture imported above
    """The rows of a backup of Anna's evening, with Olaf's group beside it; the database
    is empty afterwards."""
    olaf = User.objects.create_user("olaf", password="kartenrunde-olaf-1")
    other = Group.objects.create(name="Andere Runde", owner=olaf)
    Membership.objects.create(group=other, user=olaf, role=Membership.Role.OWNER)
    Player.objects.create(group=other, name="Olaf")
    path = tmp_path / "kartenrunde.json"
    call_command("backup", str(path), verbosity=0)
    call_command("flush", interactive=False, verbosity=0)
    return json.loads(path.read_text())


def row(rows: Rows, model: str, **fields: Any) -> dict[str, Any]:
    """The first row of ``model`` whose fields have the given values."""
    return next(r for r in rows if r["model"] == model
                and all(r["fields"].get(k) == v for k, v in fields.items()))


def restore(rows: Rows, tmp_path: Path, *args: str) -> str:
    """Restore ``rows``; returns the command's refusal ("" when it restored)."""
    path = tmp_path / "hostile.json.gz"
    path.write_bytes(gzip.compress(json.dumps(rows).encode()))
    try:
        call_command("restore", str(path), *args, verbosity=0)
    except CommandError as refusal:
        assert all(found == [] for found in everything().values()), "nothing restored"
        return str(refusal)
    return ""


def test_the_untouched_backup_restores(backup: Rows, tmp_path: Path) -> None:
    assert restore(backup, tmp_path) == ""
    assert Group.objects.count() == 2


def test_a_superuser_is_refused_unless_asked_for(backup: Rows, tmp_path: Path) -> None:
    row(backup, "auth.user", username="anna")["fields"].update(is_superuser=True, is_staff=True)
    refusal = restore(backup, tmp_path)
    assert "holds 1 staff or superuser account(s) (anna)" in refusal
    assert "--allow-staff" in refusal and "nothing was restored" in refusal
    assert restore(backup, tmp_path, "--allow-staff") == ""
    assert User.objects.get(username="anna").is_superuser


def test_a_session_is_refused(backup: Rows, tmp_path: Path) -> None:
    backup.append({"model": "sessions.session", "pk": "x" * 32, "fields": {
        "session_data": "e30:1", "expire_date": "2999-01-01T00:00:00Z"}})
    assert "it holds sessions (logged-in browsers)" in restore(backup, tmp_path)


def test_statistics_rows_are_refused(backup: Rows, tmp_path: Path) -> None:
    backup.append({"model": "companion.gamecount", "pk": 1, "fields": {
        "group": 1, "game": "x-nimmt", "matches": 99}})
    assert "it holds rows of companion.gamecount" in restore(backup, tmp_path)


def test_a_group_name_of_a_megabyte_is_refused(backup: Rows, tmp_path: Path) -> None:
    row(backup, "companion.group", name="Donnerstagsrunde")["fields"]["name"] = "X" * 2**20
    assert ("the row companion.group 1 does not fit its columns (name: Ensure this value "
            "has at most 80 characters") in restore(backup, tmp_path)


def test_a_match_of_an_unknown_game_is_refused(backup: Rows, tmp_path: Path) -> None:
    row(backup, "companion.match")["fields"]["game"] = "bogus"
    assert "'bogus' is not a valid choice" in restore(backup, tmp_path)


def test_an_entry_the_engine_cannot_read_is_refused(backup: Rows, tmp_path: Path) -> None:
    row(backup, "companion.dealscore")["fields"]["data"] = {"red": "many"}
    refusal = restore(backup, tmp_path)
    assert "the history of group" in refusal and "deal 1, entry 1" in refusal


@pytest.mark.parametrize("change", [
    pytest.param(lambda rows, olaf: row(rows, "companion.seat").__setitem__(
        "fields", {**row(rows, "companion.seat")["fields"], "player": olaf}),
        id="seat"),
    pytest.param(lambda rows, olaf: row(rows, "companion.dealscore").__setitem__(
        "fields", {**row(rows, "companion.dealscore")["fields"], "player": olaf}),
        id="entry"),
])
def test_a_row_pointing_at_another_groups_player_is_refused(
    backup: Rows, tmp_path: Path, change: Callable[[Rows, int], None]
) -> None:
    olaf = row(backup, "companion.player", name="Olaf")["pk"]
    change(backup, olaf)
    assert "of a player of another group" in restore(backup, tmp_path)


def test_a_match_on_another_groups_game_night_is_refused(backup: Rows, tmp_path: Path) -> None:
    other = row(backup, "companion.group", name="Andere Runde")["pk"]
    backup.append({"model": "companion.gamenight", "pk": 999, "fields": {
        "group": other, "date": "2026-01-01", "place": "", "notes": "",
        "created_at": "2026-01-01T00:00:00Z"}})
    row(backup, "companion.match")["fields"]["game_night"] = 999
    assert "a match of one group on another group's game night" in restore(backup, tmp_path)


def test_a_log_entry_naming_a_player_of_another_group_is_refused(
    backup: Rows, tmp_path: Path
) -> None:
    olaf = row(backup, "companion.player", name="Olaf")["pk"]
    change = row(backup, "companion.matchchange", kind="record")
    change["fields"]["after"] = {str(olaf): {"red": 1}}
    assert "names a player who is not seated" in restore(backup, tmp_path)


@pytest.fixture
def bomb(tmp_path: Path) -> Path:
    """A backup of 200 KB that unpacks to 200 MB (of blanks around an empty list)."""
    path = tmp_path / "bomb.json.gz"
    path.write_bytes(gzip.compress(b"[" + b" " * (200 * 2**20) + b"]", compresslevel=9))
    assert path.stat().st_size < 300 * 1024
    return path


def test_a_small_file_that_unpacks_to_a_huge_one_is_read_no_further_than_the_cap(
    db: None, bomb: Path
) -> None:
    tracemalloc.start()
    with pytest.raises(CommandError) as refused:
        call_command("restore", str(bomb), verbosity=0)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert "unpacked, it is larger than 64 MB, the most a restore reads" in str(refused.value)
    assert peak < 100 * 2**20


def test_the_cap_is_named_on_the_command_line(db: None, bomb: Path) -> None:
    with pytest.raises(CommandError) as refused:
        call_command("restore", str(bomb), "--max-size", "8", verbosity=0)
    assert "unpacked, it is larger than 8 MB, the most a restore reads" in str(refused.value)
    assert "restore it with --max-size <megabytes>" in str(refused.value)


# --- issue 30, item 9: passes and receipts, deep options, the cheap checks first ----------


@pytest.fixture
def with_passes(evening: Match, tmp_path: Path) -> Rows:  # noqa: F811 - the fixture imported above
    """A backup of Anna's evening with a table pass for its match and a guest's receipt,
    and Olaf's group beside it with a game night; the database is empty afterwards."""
    from companion.models import ChangeReceipt, GameNight
    from companion.services.passes import table_pass_create

    table_pass = table_pass_create(match=evening, may_write=True, created_by=evening.group.owner)
    ChangeReceipt.objects.create(table_pass=table_pass, key="guest-key-1", action="edit",
                                 fingerprint="f", group=evening.group, match=evening)
    olaf = User.objects.create_user("olaf", password="kartenrunde-olaf-1")
    other = Group.objects.create(name="Andere Runde", owner=olaf)
    Membership.objects.create(group=other, user=olaf, role=Membership.Role.OWNER)
    GameNight.objects.create(group=other, date="2026-01-01")
    path = tmp_path / "kartenrunde.json"
    call_command("backup", str(path), verbosity=0)
    call_command("flush", interactive=False, verbosity=0)
    return json.loads(path.read_text())


def test_passes_and_receipts_of_their_own_group_restore(
    with_passes: Rows, tmp_path: Path
) -> None:
    assert restore(with_passes, tmp_path) == ""


@pytest.mark.parametrize(("change", "refusal"), [
    pytest.param(lambda rows, other, night: row(rows, "companion.tablepass")["fields"]
                 .update(group=other), "a table pass for a match of another group", id="pass"),
    pytest.param(lambda rows, other, night: row(rows, "companion.tablepass")["fields"]
                 .update(match=None, game_night=night),
                 "a table pass for a game night of another group", id="night-pass"),
    pytest.param(lambda rows, other, night: row(rows, "companion.changereceipt")["fields"]
                 .update(group=other), "a receipt of a table pass of another group",
                 id="receipt"),
])
def test_a_pass_or_receipt_pointing_into_another_group_is_refused(
    with_passes: Rows, tmp_path: Path, change: Callable[[Rows, int, int], None], refusal: str
) -> None:
    other = row(with_passes, "companion.group", name="Andere Runde")["pk"]
    night = row(with_passes, "companion.gamenight", group=other)["pk"]
    change(with_passes, other, night)
    assert refusal in restore(with_passes, tmp_path)


def test_a_receipt_for_another_groups_match_is_refused(with_passes: Rows, tmp_path: Path) -> None:
    receipt = row(with_passes, "companion.changereceipt")["fields"]
    receipt.update(table_pass=None, user=row(with_passes, "auth.user", username="olaf")["pk"],
                   group=row(with_passes, "companion.group", name="Andere Runde")["pk"])
    assert "a receipt for a match of another group" in restore(with_passes, tmp_path)


@pytest.mark.parametrize("depth", [20, 5_000])
def test_options_nested_deep_are_refused_in_one_line(
    backup: Rows, tmp_path: Path, depth: int
) -> None:
    row(backup, "companion.match")["fields"]["options"] = {"deep": "DEEP"}
    path = tmp_path / "deep.json"  # written by hand: json.dumps itself stops at ~1,000 levels
    path.write_text(json.dumps(backup).replace('"DEEP"', "[" * depth + "]" * depth))
    with pytest.raises(CommandError) as refused:
        call_command("restore", str(path), verbosity=0)
    refusal = str(refused.value)
    assert all(found == [] for found in everything().values()), "nothing restored"
    assert "nothing was restored" in refusal
    assert "levels deep" in refusal, refusal


def test_a_superuser_as_the_last_row_is_refused_before_any_row_is_loaded(
    backup: Rows, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from companion import backups

    loaded: list[int] = []
    monkeypatch.setattr(backups, "_load", lambda rows, **kwargs: loaded.append(len(rows)))
    backup.append({"model": "auth.user", "pk": 999, "fields": {
        "username": "root", "password": "!", "is_superuser": True, "is_staff": True,
        "is_active": True, "first_name": "", "last_name": "", "email": "",
        "date_joined": "2026-01-01T00:00:00Z", "last_login": None,
        "groups": [], "user_permissions": []}})
    assert "holds 1 staff or superuser account(s) (root)" in restore(backup, tmp_path)
    assert loaded == []

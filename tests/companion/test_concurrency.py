"""Eight phones at once against a running server: nothing lost, no 500.

Each phone is a thread with its own HTTP connection and login session, against
``live_server`` (a threaded server, one database connection per request thread;
on SQLite a database file in WAL mode, see tests/conftest.py). The same tests
run on PostgreSQL when DATABASE_URL points at one. Every scenario is bounded:
a phone that is not done within DEADLINE seconds fails the test.
"""

from __future__ import annotations

import http.client
import re
import threading
import urllib.parse
from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client

from companion.games.live import live_steps
from companion.models import Deal, Group, Match, MatchChange, Membership, Player
from companion.services import deals as deal_services
from companion.services import matches as match_services

PHONES = 8
DEADLINE = 60.0
CSRF = "k" * 32
"""A CSRF secret the phones send as cookie and header (Django accepts the bare secret)."""
VERSION = re.compile(r'name="version" value="(\d+)"')

pytestmark = pytest.mark.django_db(transaction=True)


class Phone:
    """One phone: a keep-alive connection to the live server with its own cookies."""

    def __init__(self, server_url: str, session: str = "") -> None:
        address = urllib.parse.urlparse(server_url)
        self.connection = http.client.HTTPConnection(address.hostname, address.port, timeout=30)
        self.cookies = {"csrftoken": CSRF, "django_language": "en"}
        if session:
            self.cookies["sessionid"] = session

    def request(
        self, method: str, path: str, data: dict[str, Any] | None = None, *, htmx: bool = False
    ) -> tuple[int, str]:
        headers = {"Cookie": "; ".join(f"{k}={v}" for k, v in self.cookies.items()),
                   "Accept-Language": "en", "X-CSRFToken": CSRF}
        body = None
        if data is not None:
            body = urllib.parse.urlencode(data)
            headers["Content-Type"] = "application/x-www-form-urlencoded"
        if htmx:
            headers["HX-Request"] = "true"
        self.connection.request(method, path, body=body, headers=headers)
        response = self.connection.getresponse()
        return response.status, response.read().decode()

    def post(self, path: str, data: dict[str, Any], *, htmx: bool = False) -> tuple[int, str]:
        return self.request("POST", path, data, htmx=htmx)


def session_of(user: User) -> str:
    client = Client()
    client.force_login(user)
    return client.cookies["sessionid"].value


def at_once(phone: Callable[[int], None], count: int = PHONES) -> None:
    """Run ``phone(0)`` … ``phone(count - 1)`` in threads that start together; re-raise."""
    barrier = threading.Barrier(count)
    failures: list[BaseException] = []

    def run(index: int) -> None:
        try:
            barrier.wait(DEADLINE)
            phone(index)
        except BaseException as failure:  # handed to the test thread below
            failures.append(failure)

    threads = [threading.Thread(target=run, args=(i,), daemon=True) for i in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(DEADLINE)
    assert not any(thread.is_alive() for thread in threads), f"not done in {DEADLINE} s"
    if failures:
        raise failures[0]


@pytest.fixture
def table(group: Group, players: list[Player]) -> list[str]:
    """Sessions of eight members of the group: Anna and seven more."""
    users = [group.owner] + [
        User.objects.create_user(f"phone{n}")  # no password: sessions come from force_login
        for n in range(1, PHONES)
    ]
    Membership.objects.bulk_create(
        Membership(group=group, user=user, role=Membership.Role.MEMBER) for user in users[1:]
    )
    return [session_of(user) for user in users]


def sheet_path(match: Match, rest: str) -> str:
    return f"/g/{match.group_id}/matches/{match.pk}/{rest}"


def test_eight_phones_recording_on_eight_matches_at_once_lose_nothing(
    live_server: Any, group: Group, players: list[Player], table: list[str]
) -> None:
    matches = [match_services.match_start(group=group, game="dreizehn", players=players)
               for _ in range(PHONES)]
    statuses: list[int] = []

    def phone(index: int) -> None:
        client, match = Phone(live_server.url, table[index]), matches[index]
        for number in (1, 2, 3):
            status, _ = client.post(sheet_path(match, "deals/new/"), {
                "number": number, "s0-red": "1", "s1-blue": "1",
            }, htmx=number % 2 == 0)
            statuses.append(status)
        for number in (1, 2, 3):
            status, _ = client.post(sheet_path(match, f"deals/{number}/"), {
                "version": 1, "s0-red": "2", "s2-blue": "1",
            }, htmx=number % 2 == 1)
            statuses.append(status)

    at_once(phone)

    assert sorted(set(statuses)) == [200, 302]
    assert len(statuses) == PHONES * 6
    deals = Deal.objects.filter(match__in=matches)
    assert sorted((d.match_id, d.number, d.version) for d in deals) == sorted(
        (m.pk, number, 2) for m in matches for number in (1, 2, 3)
    )
    assert MatchChange.objects.filter(match__in=matches).count() == PHONES * 6
    for match in matches:
        # Each deal: Anna 2 red (4 points); Cem has the most blue and is spared.
        assert [s.total for s in match.seats.order_by("number")] == [12, 0, 0]


def test_eight_phones_editing_one_deal_get_saves_or_409s_with_the_current_data(
    live_server: Any, group: Group, players: list[Player], table: list[str]
) -> None:
    match = match_services.match_start(group=group, game="dreizehn", players=players)
    deal_services.deal_record(match=match, number=1, entries={p.pk: {} for p in players})
    path = sheet_path(match, "deals/1/")
    saved: list[int] = []
    refusals: list[tuple[int, int]] = []
    others: list[int] = []

    def phone(index: int) -> None:
        client, version, attempts = Phone(live_server.url, table[index]), 1, 0
        while len([v for v in saved if v % PHONES == index]) < 2 and attempts < 40:
            attempts += 1
            status, page = client.post(path, {
                "version": version, "s0-red": str(index % 4), "s1-blue": "1",
            }, htmx=attempts % 2 == 0)
            if status in (200, 302):
                saved.append(version * PHONES + index)
                version += 1
            elif status == 409:
                current = int(VERSION.findall(page)[-1])
                refusals.append((version, current))
                version = current
            else:
                others.append(status)
                return

    at_once(phone)

    assert others == []
    assert len(saved) == PHONES * 2
    assert refusals, "eight phones at once: some edits must have been refused"
    assert all(current > sent for sent, current in refusals)
    deal = Deal.objects.get(match=match)
    assert deal.version == 1 + PHONES * 2
    assert sorted(v // PHONES for v in saved) == list(range(1, 1 + PHONES * 2))
    assert MatchChange.objects.filter(match=match, kind=MatchChange.Kind.EDIT).count() == (
        PHONES * 2
    )


def test_eight_phones_adding_the_same_name_at_once_get_one_player_and_seven_messages(
    live_server: Any, group: Group, players: list[Player], table: list[str]
) -> None:
    names = ["Dora", "dora", "DORA", "Dora", "dOra", "Dora", "dora", "DoRa"]
    answers: list[tuple[int, str]] = []

    def phone(index: int) -> None:
        status, page = Phone(live_server.url, table[index]).post(
            f"/g/{group.pk}/roster/", {"name": names[index]}
        )
        answers.append((status, page))

    at_once(phone)

    assert group.players.filter(name__iexact="dora").count() == 1
    assert sorted(status for status, _ in answers) == [200] * 7 + [302]
    refused = [page for status, page in answers if status == 200]
    assert all("There is already a player called “" in page for page in refused)


def test_eight_signups_with_one_username_at_once_make_one_account(
    live_server: Any, settings: Any
) -> None:
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]  # fast
    answers: list[tuple[int, str]] = []

    def phone(index: int) -> None:
        answers.append(Phone(live_server.url).post("/accounts/signup/", {
            "username": "zoe", "password1": "zoes-langes-passwort", "password2":
            "zoes-langes-passwort",
        }))

    at_once(phone)

    assert User.objects.filter(username="zoe").count() == 1
    assert sorted(status for status, _ in answers) == [200] * 7 + [302]
    refused = [page for status, page in answers if status == 200]
    assert all("A user with that username already exists." in page for page in refused)


def test_eight_phones_tapping_the_same_live_card_at_once_store_one_tap(
    live_server: Any, group: Group, players: list[Player], table: list[str]
) -> None:
    match = match_services.match_start(group=group, game="drei-sind-einer-zuviel", players=players)
    answers: list[tuple[int, str]] = []

    def phone(index: int) -> None:
        answers.append(Phone(live_server.url, table[index]).post(
            sheet_path(match, "live/"),
            {"revision": 0, "action": "take", "player": players[index % 3].pk, "colour": "rot"},
            htmx=index % 2 == 0,
        ))

    at_once(phone)

    statuses = sorted(status for status, _ in answers)
    assert statuses.count(409) == PHONES - 1
    assert len([s for s in statuses if s in (200, 302)]) == 1
    refused = [page for status, page in answers if status == 409]
    assert all("Another phone recorded a card meanwhile" in page for page in refused)
    match.refresh_from_db()
    assert match.options["live_rev"] == 1
    assert len(live_steps(match, "live_turns")) == 1

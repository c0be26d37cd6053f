"""Login throttling: 10 wrong passwords for one name from one address pause it for 15 minutes."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from axes.models import AccessAttempt
from django.contrib.auth.models import User
from django.test import Client, RequestFactory

from companion.logins import client_ip

PASSWORD = "kartenrunde-zoe-1"


@pytest.fixture
def zoe(db: None, settings: Any) -> User:
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]  # fast
    User.objects.create_user("ben", password="kartenrunde-ben-1")
    return User.objects.create_user("zoe", password=PASSWORD, is_staff=True, is_superuser=True)


def log_in(
    client: Client, password: str, *, username: str = "zoe", url: str = "/accounts/login/",
    address: str = "127.0.0.1", language: str = "en",
) -> Any:
    return client.post(
        url, {"username": username, "password": password},
        REMOTE_ADDR=address, HTTP_ACCEPT_LANGUAGE=language,
    )


def fail_ten_times(client: Client, **kwargs: Any) -> list[int]:
    return [log_in(client, "wrong", **kwargs).status_code for _ in range(10)]


def test_the_tenth_wrong_password_pauses_logins_and_says_for_how_long(
    client: Client, zoe: User
) -> None:
    assert fail_ten_times(client) == [200] * 9 + [429]
    response = log_in(client, PASSWORD)
    html = response.content.decode()
    assert response.status_code == 429
    assert "The password for “zoe” was wrong 10 times in a row from this address." in html
    assert "please try again in 15 minutes." in html
    assert "_auth_user_id" not in client.session


def test_the_pause_is_explained_in_german_by_default(client: Client, zoe: User) -> None:
    fail_ten_times(client)
    html = log_in(client, PASSWORD, language="de").content.decode()
    assert "Zu viele Anmeldeversuche" in html
    assert "Das Passwort für „zoe“ war 10-mal hintereinander falsch" in html
    assert "bitte versuch es in 15 Minuten wieder." in html


def test_nine_wrong_passwords_still_let_the_right_one_in(client: Client, zoe: User) -> None:
    for _ in range(9):
        log_in(client, "wrong")
    assert log_in(client, PASSWORD).status_code == 302
    assert client.session["_auth_user_id"] == str(zoe.pk)


def test_another_name_from_the_same_address_still_logs_in(client: Client, zoe: User) -> None:
    fail_ten_times(client)
    response = log_in(client, "kartenrunde-ben-1", username="ben")
    assert response.status_code == 302


def test_the_same_name_from_another_address_still_logs_in(client: Client, zoe: User) -> None:
    fail_ten_times(client, address="192.0.2.7")
    assert log_in(client, PASSWORD, address="192.0.2.8").status_code == 302


def test_the_admin_login_is_paused_as_well(client: Client, zoe: User) -> None:
    assert fail_ten_times(client, url="/admin/login/") == [200] * 9 + [429]
    response = log_in(client, PASSWORD, url="/admin/login/")
    assert response.status_code == 429
    assert "Too many login attempts" in response.content.decode()
    assert "_auth_user_id" not in client.session


def test_failures_on_the_admin_login_count_for_the_app_login_too(
    client: Client, zoe: User
) -> None:
    for _ in range(5):
        log_in(client, "wrong", url="/admin/login/")
    statuses = [log_in(client, "wrong").status_code for _ in range(5)]
    assert statuses == [200] * 4 + [429]


def test_after_fifteen_minutes_the_right_password_works_again(client: Client, zoe: User) -> None:
    fail_ten_times(client)
    AccessAttempt.objects.update(
        attempt_time=dt.datetime.now(dt.UTC) - dt.timedelta(minutes=14)
    )
    assert log_in(client, PASSWORD).status_code == 429
    AccessAttempt.objects.update(
        attempt_time=dt.datetime.now(dt.UTC) - dt.timedelta(minutes=15, seconds=1)
    )
    assert log_in(client, PASSWORD).status_code == 302


def test_the_test_clients_login_still_works(client: Client, zoe: User) -> None:
    assert client.login(username="zoe", password=PASSWORD)


@pytest.mark.parametrize(("proxies", "forwarded", "expected"), [
    (0, "10.9.9.9, 198.51.100.9", "203.0.113.5"),  # no proxy trusted: the header is ignored
    (1, "10.9.9.9, 198.51.100.9", "198.51.100.9"),  # the entry the one proxy added
    (2, "10.9.9.9, 198.51.100.9, 192.0.2.1", "198.51.100.9"),  # two proxies: second from right
    (2, "198.51.100.9", "203.0.113.5"),  # fewer entries than proxies: not through them all
    (1, "", "203.0.113.5"),
])
def test_the_address_is_the_entry_the_trusted_proxies_added(
    settings: Any, proxies: int, forwarded: str, expected: str
) -> None:
    settings.TRUSTED_PROXIES = proxies
    request = RequestFactory().post(
        "/accounts/login/", REMOTE_ADDR="203.0.113.5", HTTP_X_FORWARDED_FOR=forwarded,
    )
    assert client_ip(request) == expected


def test_thirty_wrong_passwords_with_a_fresh_forwarded_address_each_are_paused(
    client: Client, zoe: User, settings: Any
) -> None:
    """gunicorn reached directly (or the default setting): a client that makes up a new
    X-Forwarded-For for every try is still one address, and paused after ten."""
    settings.TRUSTED_PROXIES = 0
    statuses = [
        client.post("/accounts/login/", {"username": "zoe", "password": "wrong"},
                    REMOTE_ADDR="203.0.113.5", HTTP_X_FORWARDED_FOR=f"198.51.100.{n}").status_code
        for n in range(30)
    ]
    assert statuses == [200] * 9 + [429] * 21
    right = client.post("/accounts/login/", {"username": "zoe", "password": PASSWORD},
                        REMOTE_ADDR="203.0.113.5", HTTP_X_FORWARDED_FOR="198.51.100.99")
    assert right.status_code == 429


def test_behind_one_proxy_entries_a_client_puts_in_front_change_nothing(
    client: Client, zoe: User, settings: Any
) -> None:
    settings.TRUSTED_PROXIES = 1
    statuses = [
        client.post("/accounts/login/", {"username": "zoe", "password": "wrong"},
                    REMOTE_ADDR="127.0.0.1",  # the proxy
                    HTTP_X_FORWARDED_FOR=f"10.0.0.{n}, 203.0.113.5").status_code
        for n in range(12)
    ]
    assert statuses == [200] * 9 + [429] * 3
    # Another client behind the same proxy is not paused.
    other = client.post("/accounts/login/", {"username": "zoe", "password": PASSWORD},
                        REMOTE_ADDR="127.0.0.1", HTTP_X_FORWARDED_FOR="203.0.113.77")
    assert other.status_code == 302


# ------------------------------------------------- one address, many names (issue 21)


def hashed(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The passwords checked against a hash from now on (the CPU's work per attempt)."""
    from django.contrib.auth import hashers

    checked: list[str] = []
    real = hashers.MD5PasswordHasher.verify

    def verify(self: Any, password: str, encoded: str) -> bool:
        checked.append(password)
        return real(self, password, encoded)

    monkeypatch.setattr(hashers.MD5PasswordHasher, "verify", verify)
    return checked


def test_wrong_passwords_under_thirty_names_pause_the_address_before_any_hashing(
    client: Client, zoe: User, monkeypatch: pytest.MonkeyPatch
) -> None:
    statuses = [log_in(client, "wrong", username=f"random{index}", address="198.51.100.66")
                .status_code for index in range(30)]
    assert statuses == [200] * 30
    checked = hashed(monkeypatch)
    for index in range(20):
        assert log_in(client, "wrong", username=f"more{index}",
                      address="198.51.100.66").status_code == 429
    response = log_in(client, PASSWORD, address="198.51.100.66")
    assert response.status_code == 429
    assert checked == [], "no password is hashed for a paused address"
    html = response.content.decode()
    assert "Passwords were wrong 30 times from this address, under various names." in html
    assert "“zoe”" not in html
    assert "_auth_user_id" not in client.session


def test_zoe_on_another_address_logs_in_while_one_address_is_paused(
    client: Client, zoe: User
) -> None:
    for index in range(30):
        log_in(client, "wrong", username=f"random{index}", address="198.51.100.66")
    assert log_in(client, "wrong", address="198.51.100.66").status_code == 429
    assert log_in(client, PASSWORD, address="192.0.2.8").status_code == 302


def test_a_household_mistyping_now_and_then_is_not_paused(client: Client, zoe: User) -> None:
    for name in ("anna", "ben", "cem") * 9:  # 27 wrong passwords from one address
        assert log_in(client, "wrong", username=name).status_code == 200
    assert log_in(client, PASSWORD).status_code == 302


def test_the_address_pause_is_explained_in_german_by_default(client: Client, zoe: User) -> None:
    for index in range(30):
        log_in(client, "wrong", username=f"random{index}")
    html = log_in(client, PASSWORD, language="de").content.decode()
    assert ("Von dieser Adresse aus waren Passwörter 30-mal falsch, unter verschiedenen "
            "Namen.") in html


def test_the_address_pause_ends_after_fifteen_minutes(client: Client, zoe: User) -> None:
    for index in range(30):
        log_in(client, "wrong", username=f"random{index}")
    AccessAttempt.objects.update(
        attempt_time=dt.datetime.now(dt.UTC) - dt.timedelta(minutes=15, seconds=1)
    )
    assert log_in(client, PASSWORD).status_code == 302


# --- Forwarded addresses that are not bare addresses (issue 30, item 8) --------------------

LONG = "1" * 5000


@pytest.mark.parametrize(("forwarded", "expected"), [
    ("1.2.3.4:5678", "1.2.3.4"),
    ("[::1]", "::1"),
    ("[::1]:80", "::1"),
    ("[2001:DB8::1]:443", "2001:db8::1"),
    ("2001:db8::1", "2001:db8::1"),
    ("fe80::1%eth0", "fe80::1"),
    ("::ffff:198.51.100.9", "198.51.100.9"),
    ("not-an-ip", "203.0.113.5"),
    ("1.2.3.4:port", "203.0.113.5"),
    ("1.2.3.4:", "203.0.113.5"),
    ("[::1]x", "203.0.113.5"),
    ("[::1", "203.0.113.5"),
    ("[not-an-ip]:80", "203.0.113.5"),
    ("999.1.1.1", "203.0.113.5"),
    (" , ", "203.0.113.5"),
    ("", "203.0.113.5"),
    (LONG, "203.0.113.5"),
    ("unknown", "203.0.113.5"),
])
def test_a_forwarded_entry_is_read_as_an_address_or_not_at_all(
    settings: Any, forwarded: str, expected: str
) -> None:
    settings.TRUSTED_PROXIES = 1
    request = RequestFactory().post(
        "/accounts/login/", REMOTE_ADDR="203.0.113.5", HTTP_X_FORWARDED_FOR=forwarded,
    )
    assert client_ip(request) == expected


def test_a_connection_without_an_address_has_none(settings: Any) -> None:
    settings.TRUSTED_PROXIES = 1
    request = RequestFactory().post("/accounts/login/", REMOTE_ADDR="",
                                    HTTP_X_FORWARDED_FOR="garbage")
    assert client_ip(request) is None


@pytest.mark.parametrize("forwarded", [
    "1.2.3.4:5678", "[::1]", "[::1]:80", "not-an-ip", "", LONG, "[::1]:80, not-an-ip",
])
def test_a_login_behind_a_proxy_never_fails_on_the_forwarded_address(
    client: Client, zoe: User, settings: Any, forwarded: str
) -> None:
    """On PostgreSQL the address axes stores is an ``inet``: anything but a bare address
    used to fail the login with a server error."""
    settings.TRUSTED_PROXIES = 1
    wrong = client.post("/accounts/login/", {"username": "zoe", "password": "wrong"},
                        REMOTE_ADDR="203.0.113.5", HTTP_X_FORWARDED_FOR=forwarded)
    stored = AccessAttempt.objects.get().ip_address
    right = client.post("/accounts/login/", {"username": "zoe", "password": PASSWORD},
                        REMOTE_ADDR="203.0.113.5", HTTP_X_FORWARDED_FOR=forwarded)

    assert (wrong.status_code, right.status_code) == (200, 302)
    assert stored in {"1.2.3.4", "::1", "203.0.113.5"}

"""`make run` for the table: ``manage.py serve`` finds the LAN addresses, prints URL
and QR code for each, lets the app accept them and becomes gunicorn; invite links
and the QR codes in the app name an address the phones can reach."""

from __future__ import annotations

import io
import os
import subprocess
from pathlib import Path
from typing import Any

import pytest
import segno
from django.conf import settings
from django.core.management import CommandError, call_command
from django.test import Client, override_settings
from django.urls import reverse

from companion import lan
from companion import settings as project
from companion.management.commands import serve
from companion.models import Group, Invite
from companion.sharing import qr_svg, share_url
from tests.companion.test_history_helpers import play

IP_OUTPUT = """\
1: lo    inet 127.0.0.1/8 scope host lo\\       valid_lft forever preferred_lft forever
2: wlp3s0    inet 192.168.178.23/24 brd 192.168.178.255 scope global dynamic wlp3s0\\
3: docker0    inet 172.17.0.1/16 brd 172.17.255.255 scope global docker0\\
4: enp0s31f6    inet 169.254.10.2/16 scope link enp0s31f6\\
"""


@pytest.fixture
def started(monkeypatch: pytest.MonkeyPatch) -> list[list[str]]:
    """What ``serve`` would exec (nothing is started); the environment it sets is undone."""
    for name in ("DJANGO_ALLOWED_HOSTS", "DJANGO_CSRF_TRUSTED_ORIGINS", "KARTENRUNDE_LAN_URLS"):
        monkeypatch.delenv(name, raising=False)
    execs: list[list[str]] = []
    monkeypatch.setattr(serve.os, "execv", lambda path, args: execs.append(list(args)))
    monkeypatch.setattr(serve.socket, "gethostname", lambda: "spieltisch")
    return execs


def fake_ip(monkeypatch: pytest.MonkeyPatch, output: str = IP_OUTPUT) -> None:
    def run(*args: Any, **kwargs: Any) -> subprocess.CompletedProcess[str]:
        return subprocess.CompletedProcess(args, 0, stdout=output, stderr="")
    monkeypatch.setattr(lan.subprocess, "run", run)


def test_lan_addresses_are_the_interfaces_a_phone_can_reach(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    fake_ip(monkeypatch)

    assert lan.addresses() == (["192.168.178.23"], ["172.17.0.1"])


def test_without_the_ip_command_the_host_name_and_the_route_are_asked(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(lan, "_from_interfaces", list)
    monkeypatch.setattr(lan, "_from_host_name", lambda: ["127.0.1.1", "10.0.0.7"])
    monkeypatch.setattr(lan, "_from_route", lambda: ["10.0.0.7"])

    assert lan.addresses() == (["10.0.0.7"], [])


def test_serve_prints_url_and_qr_code_per_lan_address_and_lets_the_app_accept_them(
    started: list[list[str]], monkeypatch: pytest.MonkeyPatch
) -> None:
    fake_ip(monkeypatch)
    out = io.StringIO()

    call_command("serve", host="0.0.0.0", port=8123, stdout=out)

    url = "http://192.168.178.23:8123/"
    code = io.StringIO()
    segno.make(url, error="m").terminal(out=code, compact=True)
    printed = out.getvalue()
    assert f"Phones in the same Wi-Fi: {url}\nScan this code with the phone's camera:\n" \
           f"{code.getvalue()}" in printed
    assert "On this computer: http://127.0.0.1:8123/" in printed
    assert "http://spieltisch.local:8123/" in printed
    assert "172.17.0.1" not in printed  # accepted, but no phone reaches a container bridge
    assert os.environ["DJANGO_ALLOWED_HOSTS"].split(",") == [
        *settings.ALLOWED_HOSTS, "192.168.178.23", "172.17.0.1", "spieltisch", "spieltisch.local",
    ]
    assert os.environ["DJANGO_CSRF_TRUSTED_ORIGINS"].split(",") == [
        "http://192.168.178.23:8123", "http://172.17.0.1:8123", "http://spieltisch:8123",
        "http://spieltisch.local:8123",
    ]
    assert os.environ["KARTENRUNDE_LAN_URLS"] == url
    config = str(Path(project.BASE_DIR) / "gunicorn.conf.py")
    assert started == [[
        started[0][0], "-m", "gunicorn", "--config", config, "--bind", "0.0.0.0:8123",
        "companion.wsgi:application",
    ]]


def test_host_127_0_0_1_keeps_the_server_to_this_computer(
    started: list[list[str]], monkeypatch: pytest.MonkeyPatch
) -> None:
    fake_ip(monkeypatch)
    out = io.StringIO()

    call_command("serve", host="127.0.0.1", port=8124, stdout=out)

    assert "192.168" not in out.getvalue()
    assert "Only this computer can open it (HOST=127.0.0.1)." in out.getvalue()
    assert os.environ["KARTENRUNDE_LAN_URLS"] == ""
    assert started[0][-2:] == ["127.0.0.1:8124", "companion.wsgi:application"]


def test_the_allowed_hosts_serve_sets_reach_the_workers_settings() -> None:
    from tests.companion.test_hosting import A_KEY, settings_of

    found = settings_of(
        "ALLOWED_HOSTS", "CSRF_TRUSTED_ORIGINS", "LAN_URLS", DJANGO_SECRET_KEY=A_KEY,
        DJANGO_ALLOWED_HOSTS="127.0.0.1,192.168.178.23",
        DJANGO_CSRF_TRUSTED_ORIGINS="http://192.168.178.23:8123",
        KARTENRUNDE_LAN_URLS="http://192.168.178.23:8123/",
    )
    assert found == {
        "ALLOWED_HOSTS": ["127.0.0.1", "192.168.178.23"],
        "CSRF_TRUSTED_ORIGINS": ["http://192.168.178.23:8123"],
        "LAN_URLS": ["http://192.168.178.23:8123/"],
    }


def test_serve_refuses_to_start_before_the_static_files_are_collected(
    started: list[list[str]], tmp_path: Path
) -> None:
    with override_settings(STORAGES=project.STORAGES, STATIC_ROOT=tmp_path), \
            pytest.raises(CommandError, match="collect the static files first"):
        call_command("serve", host="127.0.0.1", port=8125, stdout=io.StringIO())
    assert started == []


def test_serve_refuses_a_port_out_of_range(started: list[list[str]]) -> None:
    with pytest.raises(CommandError, match=r"PORT=70000: a port is a number from 1 to 65535\."):
        call_command("serve", host="127.0.0.1", port=70000, stdout=io.StringIO())


# ------------------------------------------------------------------ links for other phones


@pytest.mark.parametrize(("host", "lan_urls", "expected"), [
    ("127.0.0.1:8000", ["http://192.168.178.23:8000/"], "http://192.168.178.23:8000/join/x/?a=1"),
    ("localhost:8000", ["http://192.168.178.23:8000/"], "http://192.168.178.23:8000/join/x/?a=1"),
    ("192.168.178.23:8000", ["http://192.168.178.23:8000/"], "http://192.168.178.23:8000/join/x/?a=1"),
    ("127.0.0.1:8000", [], "http://127.0.0.1:8000/join/x/?a=1"),
    ("karten.example.org", [], "http://karten.example.org/join/x/?a=1"),
])
def test_links_for_another_phone_name_an_address_it_can_reach(
    rf: Any, host: str, lan_urls: list[str], expected: str
) -> None:
    request = rf.get("/", HTTP_HOST=host)
    with override_settings(LAN_URLS=lan_urls, ALLOWED_HOSTS=["*"]):
        assert share_url(request, "/join/x/?a=1") == expected


@pytest.mark.django_db
def test_the_settings_page_shows_each_invite_link_as_a_qr_code_to_scan(
    group: Group, anna_client: Client
) -> None:
    anna_client.post(reverse("invite_create", args=[group.pk]))
    invite = Invite.objects.get(group=group)
    url = f"http://192.168.178.23:8000/join/{invite.token}/"

    with override_settings(LAN_URLS=["http://192.168.178.23:8000/"]):
        page = anna_client.get(reverse("group_settings", args=[group.pk]),
                               HTTP_HOST="127.0.0.1:8000", HTTP_ACCEPT_LANGUAGE="en").text

    assert f'value="{url}"' in page
    assert "Scan to join</summary>" in page
    assert qr_svg(url, title="QR code of the invite link") in page


@pytest.mark.django_db
def test_the_sheet_shows_itself_as_a_qr_code_for_another_phone(
    group: Group, anna_client: Client
) -> None:
    match = play(group, "freaky", [{"Anna": {"collected": 4}, "Ben": {"collected": 5}}],
                 on="2026-03-01", finished=False)
    path = reverse("match_sheet", args=[group.pk, match.pk])

    page = anna_client.get(path, HTTP_ACCEPT_LANGUAGE="de").text

    assert "Diese Partie auf einem anderen Handy zeigen</summary>" in page
    assert qr_svg(f"http://testserver{path}", title="QR-Code dieses Spielzettels") in page


@pytest.mark.django_db
def test_someone_logged_out_who_scans_the_sheet_logs_in_and_lands_on_it(
    group: Group, client: Client
) -> None:
    match = play(group, "freaky", [{"Anna": {"collected": 4}, "Ben": {"collected": 5}}],
                 on="2026-03-01", finished=False)
    path = reverse("match_sheet", args=[group.pk, match.pk])

    answer = client.get(path)
    logged_in = client.post(answer["Location"], {
        "username": "anna", "password": "kartenrunde-anna-1",
    })

    assert answer.status_code == 302
    assert answer["Location"] == f"/accounts/login/?next={path}"
    assert logged_in.status_code == 302
    assert logged_in["Location"] == path

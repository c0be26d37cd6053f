"""`make run` for the table: ``manage.py serve`` finds the LAN addresses, prints URL
and QR code for each, lets the app accept them and becomes gunicorn; invite links
and the QR codes in the app name an address the phones can reach."""

from __future__ import annotations

import contextlib
import io
import os
import re
import shutil
import signal
import socket
import subprocess
import threading
import time
import urllib.request
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
def started(monkeypatch: pytest.MonkeyPatch, db: None) -> list[list[str]]:
    """What ``serve`` would exec (nothing is started, and this process is not tied to its
    parent); the environment it sets is undone."""
    for name in ("DJANGO_ALLOWED_HOSTS", "DJANGO_CSRF_TRUSTED_ORIGINS", "KARTENRUNDE_LAN_URLS"):
        monkeypatch.delenv(name, raising=False)
    execs: list[list[str]] = []
    monkeypatch.setattr(serve.os, "execv", lambda path, args: execs.append(list(args)))
    monkeypatch.setattr(serve, "stop_with_parent", lambda: None)
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
        "companion.asgi:application",
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
    assert started[0][-2:] == ["127.0.0.1:8124", "companion.asgi:application"]


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


# ------------------------------------------------------------------ who can do what


def test_serve_says_what_the_others_on_the_network_can_do(
    started: list[list[str]], monkeypatch: pytest.MonkeyPatch
) -> None:
    fake_ip(monkeypatch)
    out = io.StringIO()
    call_command("serve", host="0.0.0.0", port=8126, stdout=out)
    printed = out.getvalue()
    assert "Who can do what: everyone on this network can open these addresses" in printed
    assert "No accounts yet: sign up on the page to start a group" in printed
    assert "kartenrunde-demo" not in printed


def test_serve_gives_a_demo_account_with_the_published_password_a_new_one(
    started: list[list[str]], monkeypatch: pytest.MonkeyPatch
) -> None:
    from django.contrib.auth import authenticate
    from django.contrib.auth.models import User

    User.objects.create_user("demo", password="kartenrunde-demo")
    out = io.StringIO()
    call_command("serve", host="127.0.0.1", port=8127, stdout=out)
    password = re.search(r"its new password is '([a-z2-9-]+)'", out.getvalue()).group(1)  # type: ignore[union-attr]
    assert authenticate(username="demo", password="kartenrunde-demo") is None
    assert authenticate(username="demo", password=password) is not None
    assert "No accounts yet" not in out.getvalue()


# ------------------------------------------------------------------ make run, for real


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _answers(port: int) -> bool:
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=2) as response:
            return bool(response.status == 200)
    except OSError:
        return False


def _listening(port: int) -> bool:
    with socket.socket() as probe:
        return probe.connect_ex(("127.0.0.1", port)) == 0


def _run_environment(run_folder: Path) -> dict[str, str]:
    """The environment of the `make run`s below: this process's, without the settings the
    tests set, on the run folder's database, static files and key."""
    return {
        **{k: v for k, v in os.environ.items()
           if not k.startswith(("DJANGO_", "KARTENRUNDE_", "DATABASE_URL", "WEB_CONC"))},
        "SQLITE_PATH": str(run_folder / "db.sqlite3"),
        "DJANGO_STATIC_ROOT": str(run_folder / "static"),
        "DJANGO_SECRET_KEY_FILE": str(run_folder / "secret_key"),
    }


def _start_make_run(run_folder: Path, port: int) -> subprocess.Popen[str]:
    """`make run` on ``port`` in its own process group (the tests end it with a signal)."""
    return subprocess.Popen(
        ["make", "--no-print-directory", "run", "HOST=127.0.0.1", f"PORT={port}",
         f"LOG={run_folder / 'run.log'}"],
        cwd=project.BASE_DIR, env=_run_environment(run_folder), stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT, text=True, start_new_session=True,
    )


def _wait_for_answer(make: subprocess.Popen[str], port: int) -> None:
    deadline = time.monotonic() + 120
    while not _answers(port):
        assert make.poll() is None, make.stdout.read() if make.stdout else ""
        assert time.monotonic() < deadline, "make run did not answer within 120 s"
        time.sleep(0.5)


@pytest.fixture(scope="module")
def run_folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Database, static files, key and log of the `make run`s below (the static files are
    collected once and reused)."""
    return tmp_path_factory.mktemp("make-run")


@pytest.mark.slow  # runs make prepare
@pytest.mark.skipif(not shutil.which("make"), reason="needs make")
def test_preparing_another_database_leaves_the_checkouts_own_database_to_be_prepared(
    run_folder: Path,
) -> None:
    """`make run` on another database (SQLITE_PATH, DATABASE_URL: the tests, a server)
    migrates that one; the stamp that says the checkout's db.sqlite3 is migrated is not
    touched, so a later plain `make run` still migrates db.sqlite3 (it had failed with "no
    such table" after `make test` in a fresh clone)."""
    import sqlite3

    stamp = project.BASE_DIR / ".venv" / ".migrated"
    before = stamp.stat().st_mtime_ns if stamp.exists() else None
    subprocess.run(["make", "--no-print-directory", "prepare", f"LOG={run_folder / 'run.log'}"],
                   cwd=project.BASE_DIR, env=_run_environment(run_folder), check=True,
                   capture_output=True, timeout=300)
    after = stamp.stat().st_mtime_ns if stamp.exists() else None
    assert after == before
    with contextlib.closing(sqlite3.connect(run_folder / "db.sqlite3")) as database:
        assert database.execute(
            "SELECT count(*) FROM sqlite_master WHERE name = 'auth_user'").fetchone()[0] == 1


@pytest.mark.slow
@pytest.mark.skipif(not shutil.which("make"), reason="needs make")
@pytest.mark.parametrize("ending", [signal.SIGTERM, signal.SIGKILL], ids=["SIGTERM", "SIGKILL"])
def test_ending_make_run_stops_the_server_and_its_output_fits_on_one_screen(
    run_folder: Path, ending: signal.Signals
) -> None:
    port = _free_port()
    make = _start_make_run(run_folder, port)
    try:
        _wait_for_answer(make, port)

        make.send_signal(ending)  # make only: gunicorn must follow by itself
        make.wait(timeout=10)
        deadline = time.monotonic() + 15
        while _listening(port):
            assert time.monotonic() < deadline, "gunicorn outlived make run"
            time.sleep(0.2)
        output = make.stdout.read() if make.stdout else ""
        lines = output.splitlines()
        assert "Kartenrunde is starting." in output
        assert "No accounts yet" in output
        assert "Applying" not in output and "Warning" not in output
        assert len(lines) <= 40, output
        with pytest.raises(ProcessLookupError):  # nothing of it is left
            deadline = time.monotonic() + 15
            while time.monotonic() < deadline:
                os.killpg(make.pid, 0)
                time.sleep(0.2)
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(make.pid, signal.SIGKILL)  # what this test started, should it fail


SESSION_OF = """
from django.contrib.sessions.backends.db import SessionStore
def session_of(user):
    session = SessionStore()
    session.update({"_auth_user_id": str(user.pk),
                    "_auth_user_backend": "django.contrib.auth.backends.ModelBackend",
                    "_auth_user_hash": user.get_session_auth_hash()})
    session.create()
    return session.session_key
"""
"""For the seeding scripts below: a logged-in session of a user, made in the database."""

SEED_HELD_POLL = SESSION_OF + """
import json
from django.contrib.auth.models import User
from companion import waiting
from companion.models import Group, Membership, Player
from companion.services.matches import match_start
user = User.objects.create_user("ctrl-c", password=None)
group = Group.objects.create(name="Ctrl-C", owner=user)
Membership.objects.create(group=group, user=user, role=Membership.Role.OWNER)
players = [Player.objects.create(group=group, name=n) for n in ("Anna", "Ben", "Cem")]
match = match_start(group=group, game="x-nimmt", players=players)
match.refresh_from_db()
print(json.dumps({"sheet": f"/g/{group.pk}/matches/{match.pk}/",
                  "etag": '"' + waiting.sign(match.pk, f"{match.revision}.de.{user.pk}") + '"',
                  "session": session_of(user)}))
"""


@pytest.mark.slow  # starts make run
@pytest.mark.skipif(not shutil.which("make"), reason="needs make")
def test_ctrl_c_stops_make_run_within_2_s_answering_the_held_poll_with_no_error_line(
    run_folder: Path,
) -> None:
    """Issue 28.5 and 30.3: Ctrl+C (SIGINT to the terminal's process group: make, the
    server's master and its worker) while a phone's poll is held: the poll gets 304 at
    once, the server is gone within 2 s, and nothing alarming is printed."""
    import json
    import sys
    import threading

    port = _free_port()
    environment = _run_environment(run_folder)
    make = _start_make_run(run_folder, port)
    try:
        _wait_for_answer(make, port)
        seeded = subprocess.run(
            [sys.executable, "manage.py", "shell", "-c", SEED_HELD_POLL], cwd=project.BASE_DIR,
            env=environment, capture_output=True, text=True, check=True, timeout=120,
        )
        poll = json.loads(seeded.stdout.strip().splitlines()[-1])
        answered: list[tuple[int, float]] = []

        def held_poll() -> None:
            import http.client

            phone = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
            phone.request("GET", poll["sheet"], headers={
                "Cookie": f"sessionid={poll['session']}", "HX-Request": "true",
                "KR-Wait": "1", "If-None-Match": poll["etag"], "Accept-Language": "de"})
            answered.append((phone.getresponse().status, time.monotonic()))

        phone = threading.Thread(target=held_poll)
        phone.start()
        phone.join(timeout=2)
        assert phone.is_alive(), f"the poll was not held: {answered}"

        pressed = time.monotonic()
        os.killpg(make.pid, signal.SIGINT)  # what Ctrl+C in the terminal does
        make.wait(timeout=10)
        while _listening(port):
            time.sleep(0.05)
        stopped = time.monotonic() - pressed
        phone.join(timeout=5)
        output = make.stdout.read() if make.stdout else ""

        assert answered and answered[0][0] == 304
        assert answered[0][1] - pressed < 1.0
        assert stopped <= 2.0, output
        for alarming in ("ERROR", "Error", "SIGKILL", "out of memory", "Traceback",
                         "was sent"):
            assert alarming not in output, output
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(make.pid, signal.SIGKILL)  # what this test started, should it fail


SEED_TABLE = SESSION_OF + """
import json
from django.contrib.auth.models import User
from companion.models import Group, Membership, Player
from companion.services.matches import match_start
owner = User.objects.create_user("table-owner", password=None)
group = Group.objects.create(name="Table", owner=owner)
Membership.objects.create(group=group, user=owner, role=Membership.Role.OWNER)
members = [User.objects.create_user(f"table-{n}", password=None) for n in range(3)]
for member in members:
    Membership.objects.create(group=group, user=member)
players = [Player.objects.create(group=group, name=n) for n in ("Anna", "Ben", "Cem")]
match = match_start(group=group, game="x-nimmt", players=players)
print(json.dumps({"sheet": f"/g/{group.pk}/matches/{match.pk}/", "owner": session_of(owner),
                  "phones": [session_of(m) for m in members for _ in range(2)]}))
"""


@pytest.mark.slow  # starts make run
@pytest.mark.skipif(not shutil.which("make"), reason="needs make")
def test_make_runs_server_shows_a_save_on_every_waiting_phone_at_once(
    run_folder: Path,
) -> None:
    """Issue 31 end to end, on the server `make run` starts (a process per core, SQLite):
    six phones of three members hold their polls; one save answers all of them at once (in
    the saving process on its commit, in the other within its quarter-second read; the
    bound leaves room for a loaded machine), each with the new row: one text for the three
    members' six phones, with no phone's token or form keys in it."""
    import http.client
    import json
    import re
    import sys
    import threading

    port = _free_port()
    environment = _run_environment(run_folder)
    make = _start_make_run(run_folder, port)
    try:
        _wait_for_answer(make, port)
        seeded = subprocess.run(
            [sys.executable, "manage.py", "shell", "-c", SEED_TABLE], cwd=project.BASE_DIR,
            env=environment, capture_output=True, text=True, check=True, timeout=120,
        )
        table = json.loads(seeded.stdout.strip().splitlines()[-1])
        poll_headers = {"HX-Request": "true", "HX-Target": "sheet", "Accept-Language": "de"}

        def ask(session: str, **headers: str) -> tuple[int, Any, str]:
            phone = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
            phone.request("GET", table["sheet"], headers={
                "Cookie": f"sessionid={session}", **poll_headers, **headers})
            answer = phone.getresponse()
            return answer.status, answer.msg, answer.read().decode()  # headers: any case

        shown = [ask(session) for session in table["phones"]]
        assert [status for status, _, _ in shown] == [200] * 6
        answers: list[tuple[float, int, str, str]] = []

        def held(session: str, etag: str) -> None:
            status, headers, body = ask(session, **{"If-None-Match": etag, "KR-Wait": "1"})
            answers.append((time.monotonic(), status, headers.get("ETag") or "", body))

        phones = [threading.Thread(target=held, args=(session, headers["ETag"]))
                  for session, (_, headers, _) in zip(table["phones"], shown, strict=True)]
        for phone in phones:
            phone.start()
        time.sleep(1.0)
        assert not answers, "the polls were not held"

        writer = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        form = ("mode=counts&number=1&s0-hand=5&s0-x_stack=9&s1-hand=3&s2-x_stack=1"
                "&csrfmiddlewaretoken=" + "k" * 32)
        writer.request("POST", table["sheet"] + "deals/new/", body=form, headers={
            "Cookie": f"sessionid={table['owner']}; csrftoken={'k' * 32}",
            "Content-Type": "application/x-www-form-urlencoded"})
        saved = writer.getresponse()
        saved.read()
        saved_at = time.monotonic()
        assert saved.status == 302
        for phone in phones:
            phone.join(timeout=10)
        assert len(answers) == 6
        assert [status for _, status, _, _ in answers] == [200] * 6
        assert max(at for at, _, _, _ in answers) - saved_at < 1.5
        assert all('id="deal-1"' in body for _, _, _, body in answers)
        # One text for all six (three members of one kind): no phone's token or keys in it,
        # the page fills them in (companion/shared_renders.py).
        assert len({body for _, _, _, body in answers}) == 1
        assert len({etag for _, _, etag, _ in answers}) == 1
        body = answers[0][3]
        assert 'name="client_key"' in body
        assert not re.findall(r'name="(?:client_key|csrfmiddlewaretoken)"[^>]*value="[^"]+"', body)
        # A phone that saves again after a pause of some seconds does so on the connection
        # it kept: the server has not closed it meanwhile (a request sent just as the server
        # closes it is lost).
        time.sleep(6)
        writer.request("GET", "/rules/", headers={"Accept-Language": "de"})
        again = writer.getresponse()
        again.read()
        assert again.status == 200
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(make.pid, signal.SIGKILL)  # what this test started


def _gunicorn(run_folder: Path, port: int, workers: int = 2,
              **environment: str) -> subprocess.Popen[str]:
    """The server as the hosted profile starts it (gunicorn with this folder's
    gunicorn.conf.py), ``workers`` processes on the run folder's database."""
    import sys

    return subprocess.Popen(
        [sys.executable, "-m", "gunicorn", "--config", "gunicorn.conf.py",
         "--bind", f"127.0.0.1:{port}"],
        cwd=project.BASE_DIR, env={**_run_environment(run_folder), "WEB_CONCURRENCY": str(workers),
                                   "DJANGO_SECRET_KEY": "x" * 50, **environment},
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, start_new_session=True,
    )


def _established(port: int) -> set[str]:
    """The socket inodes of the server's side of the connections to ``port``."""
    found = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        with contextlib.suppress(OSError), open(table) as lines:
            for line in list(lines)[1:]:
                fields = line.split()
                if fields[3] == "01" and int(fields[1].rsplit(":", 1)[1], 16) == port:
                    found.add(fields[9])
    return found


def _sockets_of(pid: int) -> set[str]:
    found = set()
    for fd in Path(f"/proc/{pid}/fd").iterdir():
        with contextlib.suppress(OSError):
            target = os.readlink(fd)
            if target.startswith("socket:["):
                found.add(target[len("socket:["):-1])
    return found


@pytest.mark.slow  # starts gunicorn
@pytest.mark.skipif(not Path("/proc/net/tcp").exists(), reason="reads Linux's /proc")
def test_the_servers_processes_take_an_even_share_of_the_phones_connections(
    run_folder: Path,
) -> None:
    """Issue 31: a phone keeps its connection all evening, so the process that accepts it
    does that phone's work all evening. 100 new connections to a server of two processes
    end up about half in each, also when one process is busy while they connect (each
    process listens on a socket of its own and the kernel spreads the connections by their
    addresses); on one shared socket the process idle at that moment took them, and at
    1,000 phones one process did every save while the other had none."""
    port = _free_port()
    server = _gunicorn(run_folder, port)
    phones: list[socket.socket] = []
    try:
        deadline = time.monotonic() + 60
        workers: list[int] = []
        while len(workers) < 2 or not _listening(port):
            assert server.poll() is None, server.stdout.read() if server.stdout else ""
            assert time.monotonic() < deadline, "the server did not start within 60 s"
            time.sleep(0.2)
            workers = [int(p) for p in
                       Path(f"/proc/{server.pid}/task/{server.pid}/children").read_text().split()]
        time.sleep(1)  # both processes listen
        # One process is busy while the phones connect (here: stopped): it still gets its
        # share, as a busy process on one shared socket did not.
        os.kill(workers[0], signal.SIGSTOP)
        try:
            for _ in range(100):
                phones.append(socket.create_connection(("127.0.0.1", port), timeout=5))
            time.sleep(0.5)
        finally:
            os.kill(workers[0], signal.SIGCONT)
        deadline = time.monotonic() + 10
        while True:
            ours = _established(port)
            shares = [len(_sockets_of(pid) & ours) for pid in workers]
            if sum(shares) >= 100 or time.monotonic() > deadline:
                break
            time.sleep(0.1)

        assert sum(shares) == 100, shares
        assert min(shares) >= 25, shares
    finally:
        for phone in phones:
            phone.close()
        with contextlib.suppress(ProcessLookupError):
            os.killpg(server.pid, signal.SIGKILL)
        server.wait(timeout=10)


@pytest.mark.slow  # starts gunicorn
def test_a_server_refuses_a_port_another_server_listens_on(run_folder: Path) -> None:
    """Each process binds its port with SO_REUSEPORT, which lets a second server of the same
    user bind it too: it would silently take half of the phones. It stops at once with a
    line saying why."""
    port = _free_port()
    with socket.socket() as other:
        other.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)  # as the other server's
        other.bind(("127.0.0.1", port))
        other.listen()
        server = _gunicorn(run_folder, port)
        try:
            output, _ = server.communicate(timeout=30)
        finally:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(server.pid, signal.SIGKILL)

    assert server.returncode != 0
    assert f"Cannot listen at 127.0.0.1:{port}: Address already in use" in output, output


@pytest.mark.slow  # starts gunicorn
def test_a_server_process_freezes_the_loaded_app_so_full_collections_skip_it(
    run_folder: Path,
) -> None:
    """Issue 31: Python's full garbage collections stop every thread of a process while
    they walk the objects that survived, at 1,000 phones for 60-140 ms every few seconds.
    About half of those objects are the loaded app (modules, settings, URLs), which lives as
    long as the process: each process freezes it before serving, and its load report says
    how many objects the collections skip."""
    port = _free_port()
    # DEBUG serves the service worker without collected static files.
    server = _gunicorn(run_folder, port, workers=1, DJANGO_DEBUG="1",
                       KARTENRUNDE_LOAD_REPORT="0.2")
    stopper = threading.Timer(60, lambda: os.killpg(server.pid, signal.SIGKILL))
    stopper.start()
    try:
        deadline = time.monotonic() + 60
        while not _listening(port):
            assert server.poll() is None and time.monotonic() < deadline
            time.sleep(0.2)
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/sw.js", timeout=10) as answer:
            assert answer.status == 200  # the report starts with the first request
        assert server.stdout is not None
        frozen = None
        for output in server.stdout:
            found = re.search(r"companion\.load: .* frozen=(\d+)", output)
            if found:
                frozen = int(found[1])
                break
    finally:
        stopper.cancel()
        with contextlib.suppress(ProcessLookupError):
            os.killpg(server.pid, signal.SIGKILL)
        server.wait(timeout=10)

    assert frozen is not None, "no load report line"
    assert frozen > 20_000  # the app's modules (about 60,000 objects), not a handful

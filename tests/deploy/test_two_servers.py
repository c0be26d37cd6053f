"""Two gunicorn servers, one PostgreSQL: the app keeps nothing that must be shared in
a process. A deal recorded through one server is read through the other, a stale
correction sent to the second after a correction through the first is refused
(409, with the current data), and both serve the production profile: DEBUG off,
static files hashed, compressed and cached for a year."""

from __future__ import annotations

import re
import secrets
import threading
import time

import pytest

from tests.deploy.visitor import Answer, Visitor

pytestmark = pytest.mark.deploy

PASSWORD = "kartenrunde-deploy-1"


def totals(sheet: Answer) -> list[str]:
    """The Σ row of the sheet's deals table: each seat's total."""
    row = re.search(r"<th[^>]*>\s*Σ\s*</th>(.*?)</tr>", sheet.text, re.S)
    assert row, "the sheet has no Σ row"
    return re.findall(r"<td[^>]*>\s*(-?\d+)\s*</td>", row.group(1))


@pytest.fixture(scope="module")
def phone() -> Visitor:
    return Visitor()


@pytest.fixture(scope="module")
def sheet_path(phone: Visitor, server_a: str) -> str:
    """A new account with a group (Ben, Cem) and a running X nimmt! match, made through A."""
    name = f"deploy-{secrets.token_hex(4)}"
    signup = phone.get(f"{server_a}/accounts/signup/")
    answer = phone.submit(signup, "/accounts/signup/",
                          {"username": name, "password1": PASSWORD, "password2": PASSWORD})
    assert answer.status == 200 and answer.url.endswith("/groups/new/"), answer.url
    answer = phone.submit(answer, "/groups/new/", {"name": "Zwei Server", "players": "Ben\nCem"})
    assert re.search(r"/g/\d+/$", answer.url), answer.url
    start = phone.get(answer.url + "matches/new/")
    answer = phone.submit(start, "/matches/new/", {"game": "x-nimmt"})
    found = re.search(r"(/g/\d+/matches/\d+/)$", answer.url)
    assert answer.status == 200 and found, (answer.status, answer.url)
    return found.group(1)


def test_a_deal_recorded_through_one_server_is_read_through_the_other(
    phone: Visitor, server_a: str, server_b: str, sheet_path: str
) -> None:
    # Seats by name: Ben, Cem, the new account. Ben 5 + 2×1 = 7, Cem 3, the account 0.
    sheet = phone.get(server_a + sheet_path)
    saved = phone.submit(sheet, "/deals/new/", {"s0-hand": "5", "s0-x_stack": "1", "s1-hand": "3"})
    assert saved.status == 200

    through_b = phone.get(server_b + sheet_path)

    assert through_b.status == 200
    assert 'id="deal-1"' in through_b.text
    assert totals(through_b) == ["7", "3", "0"]


def test_a_stale_correction_on_the_second_server_is_refused_with_the_current_data(
    phone: Visitor, server_a: str, server_b: str, sheet_path: str
) -> None:
    edit = f"{sheet_path}deals/1/"
    form_on_b = phone.get(server_b + edit)  # a second phone opens the correction ...
    form_on_a = phone.get(server_a + edit)
    corrected = phone.submit(form_on_a, edit, {"s1-hand": "4"})  # ... the first one saves first
    assert corrected.status == 200
    assert totals(corrected) == ["7", "4", "0"]

    stale = phone.submit(form_on_b, edit, {"s1-hand": "9"})

    assert stale.status == 409
    assert totals(stale) == ["7", "4", "0"]
    assert totals(phone.get(server_b + sheet_path)) == ["7", "4", "0"]


def test_a_poll_held_by_one_server_answers_as_soon_as_the_other_saves(
    phone: Visitor, server_a: str, server_b: str, sheet_path: str
) -> None:
    # PostgreSQL's NOTIFY tells B's waiting poll of A's save: no waiting for a next poll.
    hx = {"HX-Request": "true"}
    etag = phone.get(server_b + sheet_path, headers=hx).headers["ETag"]
    held: list[tuple[int, float]] = []

    def poll() -> None:
        began = time.monotonic()
        answer = Visitor.get(phone, server_b + sheet_path,
                             headers={**hx, "If-None-Match": etag, "KR-Wait": "1"})
        held.append((answer.status, time.monotonic() - began))

    waiting = threading.Thread(target=poll)
    waiting.start()
    time.sleep(1.5)
    sheet = phone.get(server_a + sheet_path)
    saved_at = time.monotonic()
    phone.submit(sheet, "/deals/new/", {"s0-hand": "1", "s1-hand": "1"})
    waiting.join(timeout=20)
    assert held and held[0][0] == 200
    assert time.monotonic() - saved_at < 5  # answered with the save, not after its 15 s


@pytest.mark.parametrize("server", ["server_a", "server_b"])
def test_each_server_answers_with_debug_off(
    phone: Visitor, server: str, request: pytest.FixtureRequest
) -> None:
    base: str = request.getfixturevalue(server)

    missing = phone.get(f"{base}/no-such-page/")

    assert missing.status == 404
    assert "URLconf" not in missing.text  # Django's debug page lists the URL patterns
    assert "Kartenrunde" in missing.text


@pytest.mark.parametrize("server", ["server_a", "server_b"])
def test_each_server_sends_hashed_static_files_compressed_and_cached_for_a_year(
    phone: Visitor, server: str, request: pytest.FixtureRequest
) -> None:
    base: str = request.getfixturevalue(server)
    page = phone.get(f"{base}/rules/")
    hashed = r'href="(/static/vendor/bootstrap/bootstrap\.app\.[0-9a-f]{12}\.css)"'
    css = re.search(hashed, page.text)
    assert css, "the page links Bootstrap under its hashed name"

    for encoding in ("br", "gzip"):
        answer = phone.get(base + css.group(1), headers={"Accept-Encoding": encoding})

        assert answer.status == 200
        assert answer.headers["Content-Encoding"] == encoding
        assert answer.headers["Cache-Control"] == "max-age=315360000, public, immutable"
        assert len(answer.body) < 40_000  # 232 KB uncompressed


@pytest.mark.parametrize("server", ["server_a", "server_b"])
def test_each_server_compresses_its_pages(
    phone: Visitor, server: str, request: pytest.FixtureRequest
) -> None:
    base: str = request.getfixturevalue(server)

    page = phone.get(f"{base}/rules/", headers={"Accept-Encoding": "gzip"})

    assert page.headers.get("Content-Encoding") == "gzip"

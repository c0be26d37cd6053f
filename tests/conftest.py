"""Shared fixtures: browser tests run in Debian's Chromium through Playwright."""

from __future__ import annotations

import datetime as dt
import os
import shutil
import time
import warnings
import zoneinfo
from collections.abc import Iterator
from typing import Any

import hypothesis
import pytest
import time_machine
from django.db import connections
from django.test import override_settings

CHROMIUM = os.environ.get("CHROMIUM_PATH") or shutil.which("chromium") or "/usr/bin/chromium"
CHROMIUM_FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
]
HAVE_CHROMIUM = os.path.exists(CHROMIUM)

# Property tests: no time limits (a loaded machine is slow, not wrong); in CI the same
# examples every run (derandomize), so a failure there fails every time and a pass is a
# pass; on a developer's machine new examples each run.
hypothesis.settings.register_profile(
    "kartenrunde", deadline=None, suppress_health_check=[hypothesis.HealthCheck.too_slow],
    derandomize=bool(os.environ.get("CI")), print_blob=True,
)
hypothesis.settings.load_profile("kartenrunde")

# Live-server tests run the Django server in a thread beside Playwright's event loop.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

# Tests read static files from the source tree: the manifest storage of the real
# settings needs `collectstatic` first (tests/companion/test_static_files.py and
# CI check that it works).
STATIC_FILES_FROM_THE_SOURCE_TREE = {
    "STORAGES": {
        "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
        "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
    },
    "STATIC_ROOT": None,
    "WHITENOISE_USE_FINDERS": True,
    "WHITENOISE_AUTOREFRESH": True,
}


@pytest.fixture(scope="session")
def to_the_evening(django_test_environment: None) -> dt.timedelta:
    """How far 20:00 of the evening in progress is from now (at most 14 hours)."""
    from django.conf import settings
    from django.utils import timezone

    from companion.evenings import game_night_date

    now = timezone.now()
    evening = dt.datetime.combine(game_night_date(now), dt.time(20),
                                  tzinfo=zoneinfo.ZoneInfo(settings.TIME_ZONE))
    return evening - now


@pytest.fixture(autouse=True)
def an_evening_clock(request: pytest.FixtureRequest, to_the_evening: dt.timedelta
                     ) -> Iterator[None]:
    """The tests run in the evening, whatever the hour: Python's clock is moved to 20:00 of
    the evening in progress when the run starts, and goes on from there.

    A card evening ends at 06:00 (companion/evenings.py), and with it the table passes
    made that night: in one CI run a test made a pass at 05:59:59.99 and was refused (410)
    a moment later. Ten hours before the end of the night, no test meets it, nor a night
    whose date changes under it. The tests of the hours themselves give their moment
    (``pass_expiry(now)``, ``game_night_date(now)``).

    Only Python's clock moves: ``time.monotonic`` does not, the browser keeps its own (what
    it is sent, a session's age or a pass's end, is relative), and so do the file
    system's times. A test that compares those with ``time.time()`` is marked
    ``real_clock`` and runs at the real hour."""
    if request.node.get_closest_marker("real_clock"):
        yield
        return
    with time_machine.travel(time.time() + to_the_evening.total_seconds(), tick=True):
        yield


@pytest.fixture(autouse=True, scope="session")
def static_files_from_the_source_tree(django_test_environment: None) -> Iterator[None]:
    with override_settings(**STATIC_FILES_FROM_THE_SOURCE_TREE):
        yield


# Accounts made and logged in by the tests: one MD5 round instead of PBKDF2's million
# (about a second of CPU each on a loaded machine). The app keeps Django's default hasher;
# no test is about the hash itself.
@pytest.fixture(autouse=True, scope="session")
def renders_of_this_worker(
    django_test_environment: None, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[None]:
    """Each test process shares its rendered sheets (companion/shared_renders.py) in a
    folder of its own: the default folder is named after the database's settings, which
    are the same in every test process."""
    from django.conf import settings

    caches = {**settings.CACHES, "renders": {
        **settings.CACHES["renders"], "LOCATION": str(tmp_path_factory.mktemp("renders")),
    }}
    with override_settings(CACHES=caches):
        yield


@pytest.fixture(autouse=True)
def no_sheet_of_another_test(renders_of_this_worker: None) -> None:
    """A sheet kept by an earlier test is not another test's (its match and revision
    may have the same numbers: the database was rolled back)."""
    from django.core.cache import caches

    from companion import trusted_polls
    from companion.shared_renders import sheets

    sheets.clear()
    caches["renders"].clear()
    trusted_polls.forget()


@pytest.fixture(autouse=True, scope="session")
def no_poll_waits_past_the_database(django_db_setup: None) -> Iterator[None]:
    """A live server's held poll (companion/changes.py, up to 15 s) is answered before the
    test database is removed: it went on waiting after its test, read the removed
    database and logged a server error at the end of the run."""
    yield
    from companion.changes import stop_waiting

    stop_waiting()
    time.sleep(0.2)  # the woken polls answer while the database is still there


@pytest.fixture(autouse=True, scope="session")
def fast_password_hashing(django_test_environment: None) -> Iterator[None]:
    with override_settings(PASSWORD_HASHERS=["django.contrib.auth.hashers.MD5PasswordHasher"]):
        yield


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    browser_items = [item for item in items if "browser" in item.keywords]
    if not browser_items or HAVE_CHROMIUM:
        return
    if os.environ.get("CI"):
        raise pytest.UsageError(
            f"Browser tests need Chromium at {CHROMIUM}, and CI must run them: "
            "install Debian's chromium package (.ci/run does)."
        )
    message = (
        f"NO CHROMIUM at {CHROMIUM}: {len(browser_items)} browser tests SKIPPED. "
        "Install it with `apt-get install chromium` to run them."
    )
    warnings.warn(message, stacklevel=1)
    print(f"\n*** {message} ***\n")
    skip = pytest.mark.skip(reason=message)
    for item in browser_items:
        item.add_marker(skip)


@pytest.fixture(scope="session")
def playwright(playwright: Any) -> Iterator[Any]:
    """pytest-playwright's, which closes this thread's database connections before it
    stops. While Playwright's sync API runs, its event loop runs in this thread, and Django
    keeps this thread's connections per asyncio context (asgiref's ``Local``), apart from
    the ones made before: once the loop stops they are out of sight, and the test database
    could not be dropped at the end ("1 other session using the database")."""
    yield playwright
    connections.close_all()


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args: dict[str, Any]) -> dict[str, Any]:
    return {
        **browser_type_launch_args,
        "executable_path": CHROMIUM,
        "args": CHROMIUM_FLAGS,
        "headless": True,
    }


@pytest.fixture(scope="session")
def browser_context_args(browser_context_args: dict[str, Any]) -> dict[str, Any]:
    # No service worker unless a test asks for one (@pytest.mark.browser_context_args(
    # service_workers="allow")): once it controls a page, the browser's static routing
    # sends the page's requests past Playwright's page.route(), and a test that fakes an
    # answer there would sometimes talk to the real server.
    return {**browser_context_args, "viewport": {"width": 390, "height": 844},
            "service_workers": "block"}


@pytest.fixture(scope="session")
def django_db_modify_db_settings(
    django_db_modify_db_settings_parallel_suffix: None, tmp_path_factory: pytest.TempPathFactory
) -> None:
    """SQLite tests use a database file (one per test run), not a shared in-memory one.

    Live-server tests then see the app as it runs: every server thread has its own
    connection, with WAL and queued writers (tests/companion/test_concurrency.py).
    """
    from django.conf import settings

    database = settings.DATABASES["default"]
    if database["ENGINE"] == settings.SQLITE_ENGINE:
        database.setdefault("TEST", {})["NAME"] = str(
            tmp_path_factory.mktemp("database") / "test.sqlite3"
        )

"""The settings read from the environment: DEBUG, the secret key, the database URL,
the HTTPS profile that passes ``check --deploy``, logging, and the shared cache.

Settings are read once per process, so most tests start a Python process with the
environment under test.
"""

from __future__ import annotations

import json
import os
import shutil
import stat
import subprocess
import sys
from pathlib import Path

import pytest
from django.conf import settings
from django.core.cache import cache
from django.core.exceptions import ImproperlyConfigured
from django.db import connection
from django.test import Client
from django.urls import reverse

from companion import env
from companion.models import GameRecord, Group
from tests.companion.test_history_helpers import x_nimmt

# A new Python process for most tests here: in make test, not in make test-fast.
pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]
A_KEY = "k" * 20 + "0123456789abcdefghijklmnopqrstuvwxyz"  # 56 characters, 37 different
HOSTING = {
    "DJANGO_DEBUG": "0", "DJANGO_HTTPS": "1", "DJANGO_SECRET_KEY": A_KEY,
    "DJANGO_ALLOWED_HOSTS": "example.org", "DJANGO_TRUSTED_PROXIES": "1",
}
DEPLOY = ROOT / "deploy"


def recipe_settings() -> dict[str, str]:
    """deploy/kartenrunde.env as systemd reads it: KEY=value lines, # comments."""
    pairs = {}
    for line in (DEPLOY / "kartenrunde.env").read_text(encoding="utf-8").splitlines():
        if line.strip() and not line.lstrip().startswith("#"):
            name, _, value = line.partition("=")
            pairs[name.strip()] = value.strip()
    return pairs


def run(code: str, **variables: str) -> subprocess.CompletedProcess[str]:
    """``code`` in a new Python process with the app's settings and ``variables`` set
    (the variables of this process that configure the app left out)."""
    environment = {
        name: value for name, value in os.environ.items()
        if not name.startswith(("DJANGO_", "KARTENRUNDE_")) and name != "DATABASE_URL"
    }
    environment |= {"DJANGO_SETTINGS_MODULE": "companion.settings", **variables}
    return subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=environment,
        capture_output=True, text=True, timeout=120, check=False,
    )


def settings_of(*names: str, **variables: str) -> dict[str, object]:
    """The settings as a new process reads them (companion/settings.py imported, as any
    process does first; the apps are not loaded: they play no part in a setting)."""
    values = f"{{n: getattr(settings, n, None) for n in {list(names)!r}}}"
    code = (
        "import json; from django.conf import settings; "
        f"print(json.dumps({values}, default=str))"
    )
    result = run(code, **variables)
    assert result.returncode == 0, result.stderr
    return dict(json.loads(result.stdout))


def manage(*args: str, **variables: str) -> subprocess.CompletedProcess[str]:
    code = f"import sys; from django.core.management import execute_from_command_line; " \
           f"execute_from_command_line(['manage.py', *{list(args)!r}])"
    return run(code, **variables)


# ------------------------------------------------------------------ DEBUG and the key


def test_debug_is_off_unless_switched_on(tmp_path: Path) -> None:
    key_file = str(tmp_path / "key")
    assert settings_of("DEBUG", DJANGO_SECRET_KEY_FILE=key_file) == {"DEBUG": False}
    assert settings_of("DEBUG", DJANGO_DEBUG="1") == {"DEBUG": True}


def test_it_refuses_to_start_with_the_development_key_when_debug_is_off() -> None:
    result = manage("check", DJANGO_DEBUG="0", DJANGO_SECRET_KEY=settings.DEVELOPMENT_SECRET_KEY)

    assert result.returncode == 1
    assert "ImproperlyConfigured: DEBUG is off but the secret key is the built-in " \
           "development key" in result.stderr


def test_debug_runs_use_the_development_key_without_writing_a_file(tmp_path: Path) -> None:
    key_file = tmp_path / "key"

    found = settings_of("SECRET_KEY", DJANGO_DEBUG="1", DJANGO_SECRET_KEY_FILE=str(key_file))

    assert found == {"SECRET_KEY": settings.DEVELOPMENT_SECRET_KEY}
    assert not key_file.exists()


def test_the_first_run_writes_a_secret_key_only_the_owner_can_read_and_later_runs_reuse_it(
    tmp_path: Path,
) -> None:
    key_file = tmp_path / "secret_key"

    first = settings_of("SECRET_KEY", DJANGO_SECRET_KEY_FILE=str(key_file))["SECRET_KEY"]
    second = settings_of("SECRET_KEY", DJANGO_SECRET_KEY_FILE=str(key_file))["SECRET_KEY"]

    assert first == second == key_file.read_text().strip()
    assert isinstance(first, str) and len(first) == 50
    assert stat.S_IMODE(key_file.stat().st_mode) == 0o600
    assert list(tmp_path.iterdir()) == [key_file]  # the candidate file is gone


def test_processes_starting_at_once_agree_on_one_key(tmp_path: Path) -> None:
    key_file = tmp_path / "secret_key"
    code = ("from pathlib import Path; from companion.env import secret_key_from_file; "
            f"print(secret_key_from_file(Path({str(key_file)!r})))")
    starts = [
        subprocess.Popen([sys.executable, "-c", code], cwd=ROOT, stdout=subprocess.PIPE,
                         text=True)
        for _ in range(4)
    ]
    keys = {start.communicate(timeout=60)[0].strip() for start in starts}

    assert keys == {key_file.read_text().strip()}


def test_a_key_set_in_the_environment_wins_and_no_file_is_written(tmp_path: Path) -> None:
    key_file = tmp_path / "key"

    found = settings_of("SECRET_KEY", DJANGO_SECRET_KEY=A_KEY, DJANGO_SECRET_KEY_FILE=str(key_file))

    assert found == {"SECRET_KEY": A_KEY}
    assert not key_file.exists()


def test_a_damaged_key_file_is_refused_with_what_to_do(tmp_path: Path) -> None:
    key_file = tmp_path / "key"
    key_file.write_text("short\n")

    with pytest.raises(ImproperlyConfigured, match="Delete it to have a new key generated"):
        env.secret_key_from_file(key_file)


def test_the_secret_key_file_is_ignored_by_git() -> None:
    result = subprocess.run(["git", "check-ignore", ".secret_key"], cwd=ROOT,
                            capture_output=True, text=True, timeout=30, check=False)
    assert result.stdout.strip() == ".secret_key"


# ------------------------------------------------------------------ the environment


@pytest.mark.parametrize(("raw", "expected"), [
    ("1", True), ("true", True), ("On", True), ("0", False), ("no", False), ("", False),
])
def test_flags_read_the_usual_words(
    raw: str, expected: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("KARTENRUNDE_TEST_FLAG", raw)
    assert env.flag("KARTENRUNDE_TEST_FLAG") is expected


def test_a_flag_that_is_neither_on_nor_off_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DJANGO_DEBUG", "maybe")
    with pytest.raises(ImproperlyConfigured, match="DJANGO_DEBUG='maybe': use 1 \\(on\\) or 0"):
        env.flag("DJANGO_DEBUG")


def test_the_env_helpers_doctests_pass() -> None:
    import doctest

    from companion import lan
    assert doctest.testmod(env).failed == 0
    assert doctest.testmod(lan).failed == 0


def test_hosts_origins_and_admins_come_from_the_environment() -> None:
    found = settings_of(
        "ALLOWED_HOSTS", "CSRF_TRUSTED_ORIGINS", "ADMINS",
        DJANGO_SECRET_KEY=A_KEY, DJANGO_ALLOWED_HOSTS="karten.example.org, .example.net",
        DJANGO_CSRF_TRUSTED_ORIGINS="https://karten.example.org",
        DJANGO_ADMINS="Anna Admin <anna@example.org>, ben@example.org",
    )

    assert found == {
        "ALLOWED_HOSTS": ["karten.example.org", ".example.net"],
        "CSRF_TRUSTED_ORIGINS": ["https://karten.example.org"],
        "ADMINS": [["Anna Admin", "anna@example.org"], ["ben@example.org", "ben@example.org"]],
    }


def test_the_embedded_default_accepts_this_computer_only() -> None:
    found = settings_of("ALLOWED_HOSTS", "CSRF_TRUSTED_ORIGINS", DJANGO_SECRET_KEY=A_KEY)
    assert found == {"ALLOWED_HOSTS": ["127.0.0.1", "localhost", "[::1]"],
                     "CSRF_TRUSTED_ORIGINS": []}


def test_database_url_is_read_by_dj_database_url() -> None:
    found = settings_of(
        "DATABASES", DJANGO_SECRET_KEY=A_KEY,
        DATABASE_URL="postgres://karten:p%40ss@db.example.org:5433/kartenrunde?sslmode=require",
    )
    database = found["DATABASES"]["default"]  # type: ignore[index]

    assert {name: database[name] for name in (
        "ENGINE", "NAME", "USER", "PASSWORD", "HOST", "PORT", "CONN_MAX_AGE",
        "CONN_HEALTH_CHECKS", "OPTIONS",
    )} == {
        "ENGINE": "django.db.backends.postgresql", "NAME": "kartenrunde", "USER": "karten",
        "PASSWORD": "p@ss", "HOST": "db.example.org", "PORT": 5433, "CONN_MAX_AGE": 0,
        "CONN_HEALTH_CHECKS": True, "OPTIONS": {"sslmode": "require", "pool": {
            "min_size": 1, "max_size": 8, "timeout": 10,
        }},
    }


def test_without_database_url_the_app_uses_sqlite_in_the_project_folder() -> None:
    database = settings_of("DATABASES", DJANGO_SECRET_KEY=A_KEY)["DATABASES"]["default"]  # type: ignore[index]

    assert database["ENGINE"] == "companion.sqlite"  # Django's, with writers in line
    assert database["NAME"] == str(ROOT / "db.sqlite3")


# ------------------------------------------------------------------ check --deploy


def test_the_hosting_profile_passes_check_deploy() -> None:
    result = manage("check", "--deploy", "--fail-level", "WARNING", **HOSTING)

    assert result.returncode == 0, result.stderr
    assert "System check identified no issues" in result.stdout


def test_the_recipes_settings_pass_check_deploy(tmp_path: Path) -> None:
    recipe = recipe_settings()
    # Only the state folder's key file is this test's; the rest is the recipe as it stands.
    result = manage("check", "--deploy", "--fail-level", "WARNING",
                    **{**recipe, "DJANGO_SECRET_KEY_FILE": str(tmp_path / "secret_key")})

    assert result.returncode == 0, result.stderr
    assert "System check identified no issues" in result.stdout
    assert "DJANGO_SECRET_KEY" not in recipe  # no secret in the file: generated on the server
    assert recipe["HOST"] == "127.0.0.1"  # gunicorn is reached through the proxy only
    assert recipe["DJANGO_TRUSTED_PROXIES"] == "1"


def test_the_recipes_host_name_is_the_one_caddy_serves() -> None:
    host = recipe_settings()["DJANGO_ALLOWED_HOSTS"]
    caddyfile = (DEPLOY / "Caddyfile").read_text(encoding="utf-8")
    assert f"\n{host} {{\n\treverse_proxy 127.0.0.1:{recipe_settings()['PORT']}\n}}" in caddyfile
    assert recipe_settings()["DJANGO_CSRF_TRUSTED_ORIGINS"] == f"https://{host}"


def test_behind_https_without_a_trusted_proxy_check_deploy_warns() -> None:
    result = manage("check", "--deploy", "--fail-level", "WARNING",
                    **{**HOSTING, "DJANGO_TRUSTED_PROXIES": "0"})

    assert result.returncode == 1
    assert "kartenrunde.W001" in result.stderr


@pytest.mark.parametrize("unit", ["kartenrunde.service", "kartenrunde-backup.service",
                                  "kartenrunde-backup.timer"])
@pytest.mark.skipif(not shutil.which("systemd-analyze"), reason="needs systemd-analyze")
def test_the_recipes_systemd_units_are_valid(unit: str, tmp_path: Path) -> None:
    """``systemd-analyze verify`` with the paths of the server replaced by this checkout's:
    every program the units start exists and every line is one systemd knows."""
    app = tmp_path / "srv" / "app"
    app.parent.mkdir()
    app.symlink_to(ROOT)
    (tmp_path / "etc").mkdir()
    (tmp_path / "etc" / "kartenrunde.env").write_text("", encoding="utf-8")
    for name in ("kartenrunde.service", "kartenrunde-backup.service",
                 "kartenrunde-backup.timer"):
        text = (DEPLOY / name).read_text(encoding="utf-8")
        text = text.replace("/srv/kartenrunde/app", str(app)).replace(
            "/etc/kartenrunde/kartenrunde.env", str(tmp_path / "etc" / "kartenrunde.env"))
        (tmp_path / name).write_text(text, encoding="utf-8")
    result = subprocess.run(
        ["systemd-analyze", "verify", "--man=no", str(tmp_path / unit)],
        capture_output=True, text=True, timeout=60, check=False,
    )
    problems = [line for line in result.stderr.splitlines()
                if "kartenrunde" in line and "Special user" not in line]
    assert result.returncode == 0 and not problems, result.stderr


def test_without_https_check_deploy_names_what_is_missing() -> None:
    result = manage("check", "--deploy", "--fail-level", "WARNING",
                    **{**HOSTING, "DJANGO_HTTPS": "0"})

    assert result.returncode == 1
    for check in ("security.W004", "security.W008", "security.W012", "security.W016"):
        assert check in result.stderr


def test_https_switches_on_hsts_redirects_secure_cookies_and_the_proxy_header() -> None:
    found = settings_of(
        "SECURE_PROXY_SSL_HEADER", "SECURE_SSL_REDIRECT", "SESSION_COOKIE_SECURE",
        "CSRF_COOKIE_SECURE", "SECURE_HSTS_SECONDS", **HOSTING,
    )
    assert found == {
        "SECURE_PROXY_SSL_HEADER": ["HTTP_X_FORWARDED_PROTO", "https"],
        "SECURE_SSL_REDIRECT": True, "SESSION_COOKIE_SECURE": True, "CSRF_COOKIE_SECURE": True,
        "SECURE_HSTS_SECONDS": 31536000,
    }


# ------------------------------------------------------------------ logging


LOG_REQUESTS = """
import django, logging
django.setup()
from django.test import Client
from django.test.utils import override_settings, setup_test_environment
from tests.conftest import STATIC_FILES_FROM_THE_SOURCE_TREE
setup_test_environment()
with override_settings(**STATIC_FILES_FROM_THE_SOURCE_TREE):
    Client().get("/no-such-page/", HTTP_ACCEPT_LANGUAGE="en")
    Client().get("/", HTTP_HOST="somewhere.example")
try:
    raise RuntimeError("the database went away")
except RuntimeError:
    logging.getLogger("django.request").error(
        "Internal Server Error: /g/1/", exc_info=True, extra={"status_code": 500})
"""


def test_errors_go_to_stderr_one_line_per_refusal_and_a_traceback_for_a_failure(
    tmp_path: Path,
) -> None:
    result = run(LOG_REQUESTS, DJANGO_SECRET_KEY=A_KEY, SQLITE_PATH=str(tmp_path / "db"))

    lines = result.stderr.splitlines()
    assert result.returncode == 0, result.stderr
    assert lines[0].endswith(" WARNING django.request: Not Found: /no-such-page/")
    assert lines[1].endswith(
        " ERROR django.security.DisallowedHost: Invalid HTTP_HOST header: 'somewhere.example'. "
        "You may need to add 'somewhere.example' to ALLOWED_HOSTS."
    )
    assert lines[2].endswith(" ERROR django.request: Internal Server Error: /g/1/")
    assert lines[3] == "Traceback (most recent call last):"
    assert lines[-1] == "RuntimeError: the database went away"


# ------------------------------------------------------------------ one cache for all processes


@pytest.mark.django_db
def test_the_game_figures_are_kept_in_the_database_every_process_reads(
    group: Group, anna_client: Client
) -> None:
    x_nimmt(group, "2026-02-14", {"Anna": (5, 9), "Ben": (0, 1)}, {"Anna": (0, 1), "Ben": (3, 1)})
    cache.clear()

    page = anna_client.get(reverse("game_stats", args=[group.pk, "x-nimmt"]))

    assert page.status_code == 200
    # Nothing of a process's own: the figures are a table's rows, written when the match
    # was finished, which every process reads; the page keeps only the records (streak,
    # busiest night) in the database's cache table, which every process reads too.
    with connection.cursor() as cursor:
        cursor.execute("SELECT cache_key FROM kartenrunde_cache")
        kept = [key for (key,) in cursor.fetchall()]
    assert kept and all(":records" in key for key in kept), kept
    record = GameRecord.objects.get(group=group, game="x-nimmt")
    assert (record.matches, record.deals) == (1, 2)
    assert sorted((matches, wins) for _pid, matches, wins, _sum in record.data["lines"]) == [
        (1, 0), (1, 1)
    ]


def test_the_processes_share_their_renders_beside_the_sqlite_file_or_where_told() -> None:
    """Beside the database, as SQLite's own -wal and -shm files: a server on a database of
    its own (a test's, a bench's) leaves nothing in the project folder."""
    def renders(**variables: str) -> str:
        caches = settings_of("CACHES", DJANGO_SECRET_KEY=A_KEY, **variables)["CACHES"]
        return str(caches["renders"]["LOCATION"])  # type: ignore[index]

    assert renders() == str(ROOT / "db.sqlite3") + "-renders"
    assert renders(SQLITE_PATH="/srv/x/db.sqlite3") == "/srv/x/db.sqlite3-renders"
    assert renders(KARTENRUNDE_RENDERS_DIR="/srv/state/renders") == "/srv/state/renders"
    on_postgres = renders(DATABASE_URL="postgres://k@localhost/kartenrunde")
    assert on_postgres.startswith(str(ROOT / "tmp" / "renders-"))

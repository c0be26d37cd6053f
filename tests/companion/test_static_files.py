"""Static files as a server sends them: collectstatic with the project's manifest
storage (hashed names, Brotli and gzip copies), WhiteNoise's headers, compressed
pages, the favicon and the page description.

The other tests read static files from the source tree (tests/conftest.py); here
the project's own storage is used, as `make run` and CI use it.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from django.core.management import call_command
from django.test import Client, override_settings

from companion import settings as project

STATIC = Path(project.BASE_DIR) / "static"


@pytest.fixture(scope="module")
def collected(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The app's static files collected once with the project's storage (admin's left
    out: only their number would change)."""
    root = tmp_path_factory.mktemp("static")
    production = {
        "STORAGES": project.STORAGES, "STATIC_ROOT": root,
        "WHITENOISE_USE_FINDERS": False, "WHITENOISE_AUTOREFRESH": False,
    }
    with override_settings(**production):
        call_command("collectstatic", "--noinput", "--ignore", "admin", "--verbosity", "0")
    return root


def test_the_project_stores_static_files_hashed_and_compressed() -> None:
    assert project.STORAGES["staticfiles"]["BACKEND"] == (
        "whitenoise.storage.CompressedManifestStaticFilesStorage"
    )
    assert project.MIDDLEWARE[:3] == [
        "django.middleware.security.SecurityMiddleware",
        "whitenoise.middleware.WhiteNoiseMiddleware",
        "django.middleware.gzip.GZipMiddleware",
    ]


def test_collectstatic_hashes_every_file_and_writes_brotli_and_gzip_copies(
    collected: Path,
) -> None:
    manifest = json.loads((collected / "staticfiles.json").read_text())["paths"]
    css = manifest["vendor/bootstrap/bootstrap.app.css"]

    assert re.fullmatch(r"vendor/bootstrap/bootstrap\.app\.[0-9a-f]{12}\.css", css)
    assert (collected / f"{css}.br").stat().st_size < 12_000  # the whole of Bootstrap: 22.7 KB
    assert (collected / f"{css}.gz").stat().st_size < 15_000
    assert {"css/app.css", "icons/favicon.svg", "icons/favicon-32.png",
            "js/net.js"} <= manifest.keys()


def test_no_static_file_points_at_a_source_map_that_is_not_there() -> None:
    for path in STATIC.rglob("*.[cj]s"):
        for name in re.findall(r"sourceMappingURL=(\S+?)(?:\s|\*/|$)", path.read_text()):
            assert (path.parent / name).exists(), f"{path} names the missing {name}"


@pytest.mark.django_db
def test_pages_link_hashed_files_that_are_sent_compressed_and_cached_for_a_year(
    collected: Path,
) -> None:
    with override_settings(
        STORAGES=project.STORAGES, STATIC_ROOT=collected,
        WHITENOISE_USE_FINDERS=False, WHITENOISE_AUTOREFRESH=False,
    ):
        page = Client().get("/rules/")
        css = re.search(r'href="(/static/vendor/bootstrap/bootstrap\.app\.[0-9a-f]{12}\.css)"',
                        page.text)
        assert css
        brotli = Client().get(css.group(1), HTTP_ACCEPT_ENCODING="gzip, br")
        gzip = Client().get(css.group(1), HTTP_ACCEPT_ENCODING="gzip")
        plain_name = Client().get("/static/vendor/bootstrap/bootstrap.app.css")

    assert brotli["Content-Encoding"] == "br"
    assert brotli["Cache-Control"] == "max-age=315360000, public, immutable"
    assert int(brotli["Content-Length"]) < 12_000
    assert gzip["Content-Encoding"] == "gzip"
    assert plain_name["Cache-Control"] == "max-age=60, public"  # may change: not cached long


@pytest.mark.django_db
def test_pages_are_sent_gzip_compressed_to_browsers_that_accept_it(client: Client) -> None:
    page = client.get("/rules/", HTTP_ACCEPT_ENCODING="gzip, deflate, br")

    assert page.status_code == 200
    assert page["Content-Encoding"] == "gzip"


@pytest.mark.django_db
@pytest.mark.parametrize(("language", "description"), [
    ("en", "Kartenrunde keeps score at the card table for Amigo card games, knows their "
           "rules and remembers your game nights."),
    ("de", "Kartenrunde schreibt am Kartentisch für Amigo-Kartenspiele mit, kennt ihre "
           "Regeln und merkt sich eure Spieleabende."),
])
def test_every_page_has_a_description_and_a_favicon(
    client: Client, language: str, description: str
) -> None:
    page = client.get("/", HTTP_ACCEPT_LANGUAGE=language).text

    assert f'<meta name="description" content="{description}">' in page
    assert '<link rel="icon" type="image/svg+xml" href="/static/icons/favicon.svg">' in page
    assert ('<link rel="icon" type="image/png" sizes="32x32" '
            'href="/static/icons/favicon-32.png">') in page
    assert (STATIC / "icons/favicon.svg").read_text().startswith("<svg")
    assert (STATIC / "icons/favicon-32.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"

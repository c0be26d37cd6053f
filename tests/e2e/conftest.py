"""Where the browser journeys go: Django's live server, or a running server when
KARTENRUNDE_E2E_URL names one (.ci/two-servers runs the X nimmt! journey against
gunicorn with the production settings)."""

from __future__ import annotations

import os

import pytest

EXTERNAL_URL = os.environ.get("KARTENRUNDE_E2E_URL", "").rstrip("/")


@pytest.fixture
def app_url(request: pytest.FixtureRequest) -> str:
    """The base URL of the app under test (no trailing slash)."""
    if EXTERNAL_URL:
        return EXTERNAL_URL
    return str(request.getfixturevalue("live_server").url)

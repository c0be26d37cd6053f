"""The deployment tests talk to servers started outside pytest (.ci/two-servers starts
two gunicorn servers on one PostgreSQL and passes their base URLs in the environment).

They are deselected by default (``-m "not deploy"`` in pyproject.toml) and run with
``pytest -m deploy tests/deploy``. Without the URLs they are skipped, except in CI
(CI=true), where a missing server is a failure.
"""

from __future__ import annotations

import os

import pytest

SERVERS = ("KARTENRUNDE_SERVER_A", "KARTENRUNDE_SERVER_B")


def _server(name: str) -> str:
    url = os.environ.get(name, "").rstrip("/")
    if url:
        return url
    message = f"{name} is not set: start the servers with .ci/two-servers"
    if os.environ.get("CI") == "true":
        pytest.fail(message, pytrace=False)
    pytest.skip(message)


@pytest.fixture(scope="session")
def server_a() -> str:
    return _server(SERVERS[0])


@pytest.fixture(scope="session")
def server_b() -> str:
    return _server(SERVERS[1])

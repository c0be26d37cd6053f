"""Shared fixtures: browser tests run in Debian's Chromium through Playwright."""

from __future__ import annotations

import os
import shutil
import warnings
from typing import Any

import pytest

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

# Live-server tests run the Django server in a thread beside Playwright's event loop.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")


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
def browser_type_launch_args(browser_type_launch_args: dict[str, Any]) -> dict[str, Any]:
    return {
        **browser_type_launch_args,
        "executable_path": CHROMIUM,
        "args": CHROMIUM_FLAGS,
        "headless": True,
    }


@pytest.fixture(scope="session")
def browser_context_args(browser_context_args: dict[str, Any]) -> dict[str, Any]:
    return {**browser_context_args, "viewport": {"width": 390, "height": 844}}

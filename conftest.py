"""Doctests of the app's modules run in English, whatever the default language is."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from django.utils import translation


@pytest.fixture(autouse=True)
def _doctests_in_english(request: pytest.FixtureRequest) -> Iterator[None]:
    if isinstance(request.node, pytest.DoctestItem):
        with translation.override("en"):
            yield
    else:
        yield

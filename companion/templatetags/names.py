"""``{{ names|names_and }}``: players as a sentence says them ("Ben and Cem", "Ben, Cem and
Dan") in the reader's language (:func:`companion.games.checks.names_and`)."""

from __future__ import annotations

from collections.abc import Sequence

from django import template

from companion.games.checks import names_and

register = template.Library()


@register.filter(name="names_and")
def names_and_filter(names: Sequence[str]) -> str:
    return names_and([str(name) for name in names])

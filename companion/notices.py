"""A notice on a page: what just happened (saved, refused) or a question, with its level.

The level is one of ``django.contrib.messages``' levels, so a notice is shown in
the same colour as a message of that level: ``settings.MESSAGE_TAGS`` maps levels
to Bootstrap's alert colours in one place, for both.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib import messages
from django.contrib.messages.utils import get_level_tags


@dataclass(frozen=True, slots=True)
class Notice:
    """A short text for the top of a page, e.g. ``Notice("Deal 2 saved.", messages.SUCCESS)``."""

    text: str
    level: int = messages.WARNING

    def __str__(self) -> str:
        return self.text

    def __bool__(self) -> bool:
        return bool(self.text)

    @property
    def tags(self) -> str:
        """The Bootstrap colour of the level ("success", "warning", "danger", ...)."""
        return get_level_tags().get(self.level, "info")


def success(text: str) -> Notice:
    return Notice(text, messages.SUCCESS)


def warning(text: str) -> Notice:
    return Notice(text, messages.WARNING)


def error(text: str) -> Notice:
    return Notice(text, messages.ERROR)

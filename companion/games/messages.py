"""Engine errors in the user's language.

The engine raises :class:`scoring.ScoringError` with an English message
template and its parameters. Here the template is translated through the
normal gettext catalogue (the templates are collected for makemessages in
``companion/engine_catalogue.py`` and each game's ``engine_catalogue.py``) and filled
in; parameters that are colour keys of the engine are put in the user's words too.
"""

from __future__ import annotations

import json

from django.utils.translation import gettext

from scoring import ScoringError


def colour_word(key: str) -> str | None:
    """A colour key of a game's engine in the user's words (``GameApp.colour_words``), or
    None when no game has that key."""
    from companion.games import GAME_APPS  # the games' forms use this module

    for app in GAME_APPS.values():
        if key in app.colour_words:
            return str(app.colour_words[key])
    return None


def _in_words(value: object) -> object:
    """A colour key, or a ", "-joined list of them, in the user's words."""
    if not isinstance(value, str):
        return value
    words = [colour_word(key) for key in value.split(", ")]
    if all(word is not None for word in words):
        return ", ".join(str(word) for word in words)
    return value


class _AsWritten:
    """A value the engine's sentence shows as it was given (``{value!r}``): spelt as in a
    file (JSON: ``null``, ``true``, ``"x"``), not as Python writes it (``None``, ``'x'``).
    The values that reach such a sentence come from files (an import) or requests, whose
    readers never wrote Python; plain ``{value}`` shows the value as before."""

    __slots__ = ("value",)

    def __init__(self, value: object) -> None:
        self.value = value

    def __repr__(self) -> str:
        try:
            return json.dumps(self.value, ensure_ascii=False)
        except (TypeError, ValueError):
            return repr(self.value)

    def __format__(self, spec: str) -> str:
        return format(self.value, spec)


def message_for(err: ScoringError) -> str:
    """The error's sentence in the active language.

    A template missing from the catalogue falls back to the engine's English.
    """
    params = {name: _AsWritten(_in_words(value)) for name, value in err.params.items()}
    try:
        return gettext(err.template).format(**params)
    except (KeyError, IndexError, ValueError):
        return err.message

"""Engine errors in the user's language.

The engine raises :class:`scoring.ScoringError` with an English message
template and its parameters. Here the template is translated through the
normal gettext catalogue (the templates are collected for makemessages in
``companion/engine_catalogue.py``) and filled in; parameters that are colour
keys of the engine are put in the user's words too.
"""

from __future__ import annotations

from django.utils.translation import gettext, pgettext_lazy

from scoring import ScoringError

# Colour keys the engine's messages may contain (3 sind einer zuviel!, Freaky, 13).
COLOUR_WORDS = {
    "orange": pgettext_lazy("card colour", "orange"),
    "flieder": pgettext_lazy("card colour", "lilac"),
    "hellblau": pgettext_lazy("card colour", "light blue"),
    "rot": pgettext_lazy("card colour", "red"),
    "tuerkis": pgettext_lazy("card colour", "turquoise"),
    "magenta": pgettext_lazy("card colour", "magenta"),
    "olivgruen": pgettext_lazy("card colour", "olive"),
    "red": pgettext_lazy("card colour", "red"),
    "yellow": pgettext_lazy("card colour", "yellow"),
    "green": pgettext_lazy("card colour", "green"),
    "blue": pgettext_lazy("card colour", "blue"),
    "violet": pgettext_lazy("card colour", "violet"),
}


def _in_words(value: object) -> object:
    """A colour key, or a ", "-joined list of them, in the user's words."""
    if not isinstance(value, str):
        return value
    keys = value.split(", ")
    if all(key in COLOUR_WORDS for key in keys):
        return ", ".join(str(COLOUR_WORDS[key]) for key in keys)
    return value


def message_for(err: ScoringError) -> str:
    """The error's sentence in the active language.

    A template missing from the catalogue falls back to the engine's English.
    """
    params = {name: _in_words(value) for name, value in err.params.items()}
    try:
        return gettext(err.template).format(**params)
    except (KeyError, IndexError, ValueError):
        return err.message

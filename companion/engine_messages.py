"""Engine errors in the user's language.

The engine raises :class:`scoring.ScoringError` with an English message
template and its parameters. Here the template is translated through the
normal gettext catalogue (the templates are collected for makemessages in
``companion/engine_catalogue.py``) and filled in.
"""

from __future__ import annotations

from django.utils.translation import gettext

from scoring import ScoringError


def message_for(err: ScoringError) -> str:
    """The error's sentence in the active language.

    A template missing from the catalogue falls back to the engine's English.
    """
    try:
        return gettext(err.template).format(**err.params)
    except (KeyError, IndexError, ValueError):
        return err.message

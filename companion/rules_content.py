"""The rules texts by language: each game's pages come from its folder's ``GameApp.rules``
(:mod:`companion.games`); the shape of a text is :mod:`companion.games.rules_text`."""

from __future__ import annotations

from companion.games import GAME_APPS, game_app
from companion.games.rules_text import GameText, language_of

__all__ = ["all_texts", "game_text", "language_of"]


def game_text(slug: str, language: str) -> GameText:
    """The rules of one game in ``language``; ``KeyError`` for an unknown slug."""
    return game_app(slug).rules[language_of(language)]


def all_texts(language: str) -> tuple[GameText, ...]:
    """The rules of all the games in the engine's order."""
    return tuple(app.rules[language_of(language)] for app in GAME_APPS.values())

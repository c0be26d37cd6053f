"""Everything the app knows about one game, in one folder per game, behind one registry.

The engine knows the rules (``scoring/<game>.py``, registered in ``scoring.GAMES``).
The app's folder for a game, ``companion/games/<game>/`` (named like the engine's
module), holds what the app adds to them:

- ``rules_text.py``: the rules page, in German and English;
- ``check.py`` and ``forms.py``: the legality checks (pure functions) and the forms
  of the check page (and of the game's live helper, if any);
- ``tallies.py``: what a recorded entry adds to the statistics, and the figures;
- ``options.py``: the game's match options as an imported file may hold them;
- ``search.py``: how players ask about the game in a rules question (its names, words,
  move sections and card reader: :class:`~companion.games.search_words.GameSearch`);
- ``templates/games/<game>/``: the check page (and helper) templates.

Its ``__init__`` builds the game's :class:`GameApp` (``APP``); the rules pages, the
checks, the statistics, the rules search, the import and BG Stats files ask
:data:`GAME_APPS` or :func:`game_app`, never ``if game == ...``. Adding a sixth game:
its module in ``scoring/`` (and ``scoring.GAMES``), and a folder here with an ``APP``.

>>> list(GAME_APPS) == list(GAMES)
True
>>> game_app("x-nimmt").folder
'x_nimmt'
"""

from __future__ import annotations

import importlib

from companion.games.app import GameApp, Tool
from scoring import GAMES


def _load(slug: str) -> GameApp:
    folder = GAMES[slug].module.rsplit(".", 1)[1]
    app: GameApp = importlib.import_module(f"companion.games.{folder}").APP
    if app.slug != slug or app.info is not GAMES[slug]:
        raise ValueError(f"companion.games.{folder}.APP is not the app of {slug}")
    return app


GAME_APPS: dict[str, GameApp] = {slug: _load(slug) for slug in GAMES}
"""Every game's :class:`GameApp` by the engine's slug, in the engine's order."""


def register(app: GameApp) -> None:
    """Add a game whose folder lives outside this package, after its engine
    (:func:`scoring.register`): the tests' contract game. A shipped game is found by its
    folder's name instead (its module's name in ``scoring.GAMES``)."""
    if app.info is not GAMES.get(app.slug):
        raise ValueError(f"Register the engine of {app.slug} first (scoring.register)")
    if app.slug in GAME_APPS:
        raise ValueError(f"A game {app.slug!r} is registered already.")
    GAME_APPS[app.slug] = app


def unregister(slug: str) -> None:
    """Take a game added by :func:`register` out again (tests clean up with it)."""
    del GAME_APPS[slug]


def game_app(slug: str) -> GameApp:
    """The app of the game ``slug``; ``KeyError`` for an unknown game (views: a 404)."""
    return GAME_APPS[slug]


__all__ = ["GAME_APPS", "GameApp", "Tool", "game_app", "register", "unregister"]

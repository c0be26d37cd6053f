"""3 sind einer zuviel! in the app (the engine: ``scoring.drei_sind_einer_zuviel``)."""

from __future__ import annotations

from companion.games.app import GameApp
from companion.games.drei_sind_einer_zuviel import (
    colours,
    entry,
    forms,
    live,
    rules_text,
    search,
    tallies,
)
from scoring import GAMES

APP = GameApp(
    slug="drei-sind-einer-zuviel",
    info=GAMES["drei-sind-einer-zuviel"],
    rules={"de": rules_text.DE, "en": rules_text.EN},
    check_forms={"place": forms.DreiCheckForm},
    check_template="games/drei_sind_einer_zuviel/check.html",
    tally=tallies.tally,
    figures=tallies.figures,
    entry=entry.FORMAT,
    demo_players=(3, 4, 2),
    search=search.SEARCH,
    colour_words=colours.WORDS,
    live=live.LIVE,
    bgg_id=181867,
    bgg_name="3 sind eine zu viel!",
    bgstats_names=("3 sind einer zuviel!", "3 sind eine zu viel!", "3 sind eine zuviel!",
                   "Drei sind einer zu viel", "Drei sind eine zu viel"),
)

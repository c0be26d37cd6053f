"""Freaky in the app (the engine: ``scoring.freaky``)."""

from __future__ import annotations

from companion.games.app import GameApp
from companion.games.freaky import colours, entry, forms, live, rules_text, search, tallies
from scoring import GAMES

APP = GameApp(
    slug="freaky",
    info=GAMES["freaky"],
    rules={"de": rules_text.DE, "en": rules_text.EN},
    check_forms={"place": forms.FreakyPlaceForm, "collect": forms.FreakyCollectForm},
    check_template="games/freaky/check.html",
    tally=tallies.tally,
    figures=tallies.figures,
    entry=entry.FORMAT,
    demo_players=(3, 4, 5),
    search=search.SEARCH,
    colour_words=colours.WORDS,
    live=live.LIVE,
    # No BoardGameGeek id: it could not be checked here, so it is recognised by name only.
    bgstats_names=("Freaky",),
)

"""X nimmt! in the app (the engine: ``scoring.x_nimmt``)."""

from __future__ import annotations

from companion.games.app import GameApp
from companion.games.x_nimmt import entry, forms, rules_text, search, tallies
from scoring import GAMES

APP = GameApp(
    slug="x-nimmt",
    info=GAMES["x-nimmt"],
    rules={"de": rules_text.DE, "en": rules_text.EN},
    check_forms={"round": forms.XRoundForm, "xrow": forms.XRowForm},
    check_template="games/x_nimmt/check.html",
    tally=tallies.tally,
    figures=tallies.figures,
    entry=entry.FORMAT,
    demo_players=(4, 3, 4),
    search=search.SEARCH,
    # No BoardGameGeek id: it could not be checked here, so it is recognised by name only.
    bgstats_names=("X nimmt!",),
)

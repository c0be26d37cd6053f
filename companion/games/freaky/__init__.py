"""Freaky in the app (the engine: ``scoring.freaky``)."""

from __future__ import annotations

from companion.games.app import GameApp, LiveRecord
from companion.games.freaky import forms, options, rules_text, tallies
from scoring import GAMES

APP = GameApp(
    slug="freaky",
    info=GAMES["freaky"],
    rules={"de": rules_text.DE, "en": rules_text.EN},
    check_forms={"place": forms.FreakyPlaceForm, "collect": forms.FreakyCollectForm},
    check_template="games/freaky/check.html",
    tally=tallies.tally,
    figures=tallies.figures,
    live_record=LiveRecord(options.LIVE_ROWS, options.check_live_rows),
)

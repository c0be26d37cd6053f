"""13 in the app (the engine: ``scoring.dreizehn``)."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from companion.games.app import GameApp, Tool
from companion.games.dreizehn import (
    colours,
    entry,
    forms,
    options,
    rules_text,
    search,
    tallies,
    turns,
)
from scoring import GAMES

APP = GameApp(
    slug="dreizehn",
    info=GAMES["dreizehn"],
    rules={"de": rules_text.DE, "en": rules_text.EN},
    check_forms={"play": forms.DreizehnCheckForm},
    check_template="games/dreizehn/check.html",
    tally=tallies.tally,
    figures=tallies.figures,
    entry=entry.FORMAT,
    demo_players=(4, 3, 5),
    search=search.SEARCH,
    colour_words=colours.WORDS,
    turns=turns.TURNS,
    option_checks={"variant": options.check_variant},
    start_fields=options.start_fields,
    start_options=options.start_options,
    tool=Tool("targets", _("Target totals"), "companion.games.dreizehn.tool.view"),
    # Amigo's 13 is Knizia's Poison; BoardGameGeek lists it there.
    bgg_id=17025,
    bgg_name="Poison",
    bgstats_names=("13", "Dreizehn"),
)

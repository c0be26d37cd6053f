"""11 nimmt! in the app (the engine: ``scoring.elf_nimmt``)."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from companion.games.app import GameApp, Tool
from companion.games.elf_nimmt import entry, forms, rules_text, search, tallies, turns
from scoring import GAMES

APP = GameApp(
    slug="elf-nimmt",
    info=GAMES["elf-nimmt"],
    rules={"de": rules_text.DE, "en": rules_text.EN},
    check_forms={"play": forms.ElfPlayForm, "take": forms.ElfTakeForm},
    check_template="games/elf_nimmt/check.html",
    tally=tallies.tally,
    figures=tallies.figures,
    entry=entry.FORMAT,
    demo_players=(5, 3, 4),
    search=search.SEARCH,
    turns=turns.TURNS,
    tool=Tool("bulls", _("Bull card tracker"), "companion.games.elf_nimmt.tool.view"),
    bgg_id=63706,
    bgg_name="11 nimmt!",
    bgstats_names=("11 nimmt!", "Elf nimmt!"),
)

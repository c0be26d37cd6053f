"""6 nimmt! in the app (the engine: ``scoring.sechs_nimmt``)."""

from __future__ import annotations

from django.utils.translation import ngettext

from companion.games.app import GameApp
from companion.games.sechs_nimmt import entry, forms, options, rules_text, search, tallies
from scoring import GAMES
from scoring.common import ScorePart


def _pile(part: ScorePart) -> str:
    return ngettext("%(count)s Hornochse in the pile", "%(count)s Hornochsen in the pile",
                    part.count) % {"count": part.count}


APP = GameApp(
    slug="sechs-nimmt",
    info=GAMES["sechs-nimmt"],
    rules={"de": rules_text.DE, "en": rules_text.EN},
    check_forms={"round": forms.SechsRoundForm},
    check_template="games/sechs_nimmt/check.html",
    tally=tallies.tally,
    figures=tallies.figures,
    entry=entry.FORMAT,
    search=search.SEARCH,
    option_checks={"target": options.check_target, "deals": options.check_deals,
                   "profi": options.check_profi},
    start_fields=options.start_fields,
    start_options=options.start_options,
    demo_players=(5, 6),
    part_texts={"pile": _pile},
    bgg_id=432,
    bgg_name="6 nimmt!",
    bgstats_names=("6 nimmt!", "Take 6!", "Category 5", "6 nimmt"),
)

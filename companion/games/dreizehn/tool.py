"""13's table helper: the running total of each target, and who has taken what this deal."""

from __future__ import annotations

from urllib.parse import urlencode

from django.http import HttpResponse

from companion.games.dreizehn.check import TALLY_COLOURS
from companion.games.dreizehn.forms import TargetsForm
from companion.games.tools import HtmxHttpRequest, after_action, answer, back_to_sheet, rule_refs

KEY = "targets"
TEMPLATE = "games/dreizehn/tool_targets.html"


def view(request: HtmxHttpRequest) -> HttpResponse:
    form = TargetsForm(request.GET)
    form.is_valid()
    players = list(form.names)
    back = back_to_sheet(request)
    context = {"form": form, "rules": rule_refs("dreizehn"), "players": players, "back": back,
               "take_over": _take_over(back, form) if back and players else ""}
    if form.acted:
        return after_action(request, KEY, TEMPLATE,
                            {**form.state_query(), **form.event_query(),
                             **({"back": back} if back else {})}, context)
    return answer(request, TEMPLATE, context)


def _take_over(back: str, form: TargetsForm) -> str:
    """The sheet's URL with the cards each player took this deal, as the deal form's
    fields (``s<seat>-yellow`` …): one tap puts them into the next deal's form."""
    query = {
        f"s{row['index']}-{colour}": str(count)
        for row in form.tally_rows()
        for colour, count in zip(TALLY_COLOURS, row["counts"], strict=True)
    }
    return f"{back}?{urlencode(query)}#deal-form"

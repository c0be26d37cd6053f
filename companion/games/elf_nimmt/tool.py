"""11 nimmt!'s table helper: who holds how many of the 10 bull cards in the running deal."""

from __future__ import annotations

from urllib.parse import urlencode

from django.http import HttpResponse

from companion.games.elf_nimmt.forms import BullsForm
from companion.games.tools import HtmxHttpRequest, after_action, answer, back_to_sheet, rule_refs

KEY = "bulls"
TEMPLATE = "games/elf_nimmt/tool_bulls.html"


def view(request: HtmxHttpRequest) -> HttpResponse:
    form = BullsForm(request.GET)
    form.is_valid()
    back = back_to_sheet(request)
    state = form.state_query()
    state.pop("ev", None)
    undo = form.undo_query()
    if back:
        state["back"] = back
        if undo:
            undo["back"] = back
    context = {"form": form, "rules": rule_refs("elf-nimmt"), "players": list(form.names),
               "base_query": urlencode(state), "back": back,
               "undo_query": urlencode(undo) if undo else ""}
    if form.acted:
        after = {**form.state_query(), **({"back": back} if back else {})}
        return after_action(request, KEY, TEMPLATE, after, context)
    return answer(request, TEMPLATE, context)

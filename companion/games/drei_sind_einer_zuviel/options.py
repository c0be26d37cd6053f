"""3 sind einer zuviel!: the match options, as an imported file may hold them."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.utils.translation import gettext

from companion.games.checks import Refusal
from scoring import drei_sind_einer_zuviel

LIVE_TURNS = "live_turns"
"""The live record: ``[player, [colours], closed]`` per turn (``services.matches``)."""


def check_live_turns(items: list[Any], keys: Sequence[str], names: Mapping[str, str]) -> None:
    """The turns of a live record read from a file, replayed by the engine."""
    turns = []
    for item in items:
        if not (isinstance(item, list) and len(item) == 3 and item[0] in keys
                and isinstance(item[1], list) and len(item[1]) <= 20
                and all(isinstance(colour, str) for colour in item[1])
                and isinstance(item[2], bool)):
            raise Refusal(gettext("the live record “%(name)s” names a player who is not "
                                  "seated, or a turn that cannot be.") % {"name": LIVE_TURNS})
        turns.append((names[item[0]], list(item[1])))
    drei_sind_einer_zuviel.live_replay([names[key] for key in keys], turns)

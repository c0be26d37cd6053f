"""Freaky: the match options, as an imported file may hold them."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.utils.translation import gettext

from companion.games.checks import Refusal
from companion.parsing import MAX_SMALL
from scoring import freaky

LIVE_ROWS = "live_rows"
"""The live record: ``[player, cards]`` per collected row (``services.matches``)."""


def check_live_rows(items: list[Any], keys: Sequence[str], names: Mapping[str, str]) -> None:
    """The rows of a live record read from a file: each collected by a seated player, and
    the cards per player a deal the engine accepts."""
    collected = dict.fromkeys(keys, 0)
    for item in items:
        if not (isinstance(item, list) and len(item) == 2 and item[0] in collected
                and not isinstance(item[1], bool) and isinstance(item[1], int)
                and 1 <= item[1] <= MAX_SMALL):
            raise Refusal(gettext("the live record “%(name)s” names a player who is not "
                                  "seated, or a row that cannot be.") % {"name": LIVE_ROWS})
        collected[item[0]] += item[1]
    freaky.validate_deal({names[key]: freaky.entry_from_dict({"collected": count})
                          for key, count in collected.items()})

"""Export a group's whole history (JSON, CSV) and import such JSON into a new group.

The JSON document is lossless for the group's history: players, game nights,
matches with their seats and results, deals with their versions and every
recorded entry and score, and the undo log. It contains no database ids:
players carry a local key (``p1``, ``p2``, ...) that the rest of the document
refers to, and lists keep the order in which things were created. So an
export, imported into a new group and exported again, gives the same
document. Accounts are not part of it: links from players to accounts and who
made a change are left out (the importing user owns the new group). A match imported
from elsewhere (BG Stats) keeps its ``source`` and ``external_id`` and has final scores
only: finished, its seats' totals, no deals.

An import is all or nothing: the document is counted against the limits of
:mod:`companion.limits` first (read as a stream, before anything is built), then read,
checked (its structure, and every deal through the engine's ``validate_deal`` and
``score_deal``, which must give the recorded scores and totals) and written a batch of
matches at a time, in short transactions, while nobody sees the new group (its
owner's membership comes last; a problem found on the way deletes what was written).
Any problem raises :class:`TransferError` with a message that says where and what.

The CSV export has one row per player per deal, with English headers. Both exports
are written as they are read, a few dozen matches at a time.

One module per step: :mod:`.export` writes the documents; :mod:`.scan` counts an
upload, :mod:`.document` reads it a part at a time, :mod:`.validate` (with
:mod:`.values`, :mod:`.reader` and :mod:`.matches`) checks it and plans the rows,
:mod:`.importer` writes them. What both directions share is here; :class:`TransferError`
is :mod:`companion.uploads`' (the BG Stats import reads with it too), named here as well.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from companion.games import GAME_APPS
from companion.uploads import TransferError

FORMAT = "kartenrunde-history"
VERSION = 1


PLAYER_LISTS = tuple(app.live.option for app in GAME_APPS.values() if app.live)
"""Match options of the sheet's live mode whose items are lists starting with a player id
(``[player_id, [colours], closed]`` per turn, ``[player_id, cards]`` per collected row):
each game's ``GameApp.live``."""


def map_options(options: Any, player: Callable[[Any], Any]) -> Any:
    """``options`` with the player reference of every live-mode item replaced by ``player``."""
    if not isinstance(options, dict):
        return options
    mapped = dict(options)
    for name in PLAYER_LISTS:
        items = mapped.get(name)
        if isinstance(items, list):
            mapped[name] = [
                [player(item[0]), *item[1:]] if isinstance(item, list) and item else item
                for item in items
            ]
    return mapped


__all__ = ["FORMAT", "PLAYER_LISTS", "VERSION", "TransferError", "map_options"]

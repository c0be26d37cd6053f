"""What the legality checks of every game share: the refusal and the players' names.

Each game's check lives in its folder (``companion/games/<game>/check.py``): one pure
function per question. Forms parse what players type (the game's ``forms``); the
check takes the parsed values, asks the engine and returns a small frozen answer
that names the deciding rule's anchor on the game's rules page (``rule``).
A situation that cannot exist raises :class:`scoring.ScoringError` (from the
engine) or :class:`Refusal` (in the reader's words, naming its field), which
the form shows at that field. No request is needed: every answer can be tested
alone, e.g. ``check_x_nimmt_round(rows, cards, choices)``.
"""

from __future__ import annotations

from collections.abc import Sequence

from django.utils.translation import gettext

from scoring import GAMES


class Refusal(ValueError):
    """Input describing a situation that cannot exist, in the reader's language.

    ``field`` names the input the message is about (the form shows it there),
    ``None`` for the situation as a whole.
    """

    def __init__(self, message: str, *, field: str | None = None, code: str = "invalid") -> None:
        super().__init__(message)
        self.message = message
        self.field = field
        self.code = code


def names_and(names: Sequence[str]) -> str:
    """"Anna", "Anna and Ben", "Anna, Ben and Cem" in the reader's language."""
    if len(names) < 2:
        return "".join(names)
    return gettext("%(names)s and %(last)s") % {"names": ", ".join(names[:-1]),
                                                 "last": names[-1]}


def names_or(names: Sequence[str]) -> str:
    """"Anna", "Anna or Ben", "Anna, Ben or Cem" in the reader's language."""
    if len(names) < 2:
        return "".join(names)
    return gettext("%(names)s or %(last)s") % {"names": ", ".join(names[:-1]),
                                                "last": names[-1]}


def check_player_count(slug: str, players: int, *, field: str | None = None) -> None:
    """A :class:`Refusal` unless ``players`` may play the game ``slug``."""
    info = GAMES[slug]
    if not info.min_players <= players <= info.max_players:
        raise Refusal(gettext(
            "%(game)s is played by %(low)s to %(high)s players, not %(count)s.") % {
            "game": info.title, "low": info.min_players, "high": info.max_players,
            "count": players}, field=field, code="player_count")

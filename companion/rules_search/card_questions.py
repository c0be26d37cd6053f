"""Questions that name cards ("darf ich die 23 auf die 18 legen", "can I play 97
on 95"): the cards as the fields of the game's legality check, so the answer
can offer that check with them filled in, and the game a move's phrasing points to.

Each game with a check for single moves has its reader (``GameApp.search.read_cards``,
in ``companion/games/<game>/search.py``); the words they share are in :mod:`.words`.
"""

from __future__ import annotations

from collections.abc import Sequence

from companion.games import GAME_APPS
from companion.games.search_words import COLOURS, PLACING, Prefill, card_numbers


def is_move(words: Sequence[str]) -> bool:
    """Whether a question asks where a named card goes or whether it may go there.

    >>> is_move("wohin kommt die 52".split()), is_move("wie viele hornochsen hat die 55".split())
    (True, False)
    """
    if PLACING.isdisjoint(words):
        return False
    return bool(card_numbers(words, 0, 100)) or any(word in COLOURS for word in words)


def move_games(words: Sequence[str]) -> tuple[str, ...]:
    """The games a move is phrased in when the question does not name one (each game's
    ``GameApp.search.move_phrased``): a card "on" another card is 11 nimmt!'s pile ("die
    23 auf die 18"), a colour "on" a colour is 13's target ("gelbe 5 auf blau").

    >>> move_games("can i play 97 on 95".split()), move_games("rote 4 auf gelb".split())
    (('elf-nimmt',), ('dreizehn',))
    """
    return tuple(slug for slug, app in GAME_APPS.items()
                 if app.search.move_phrased is not None and app.search.move_phrased(words))


def prefill(slug: str, words: Sequence[str]) -> Prefill | None:
    """The check of ``slug`` filled from a question's words, if it is about playing cards."""
    app = GAME_APPS.get(slug)
    reader = app.search.read_cards if app is not None else None
    if reader is None or PLACING.isdisjoint(words):
        return None
    return reader(words)

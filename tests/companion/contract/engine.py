"""Strafpunkte, the contract test's engine: a penalty per deal, the lowest total wins.

A player records either their penalty points (``penalty``) or the cards left in their
hand (``cards``, numbers 1 to 30: a card up to 20 costs 1 point, a higher one 2). Each
deal somebody goes out with 0. It implements :class:`scoring.common.GameRules` and
names its own kind of score part, ``strafpunkte``.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from scoring import GameInfo, ScoringError, error
from scoring.common import Breakdown, CardValue, ScorePart, SimulatedGame, player_names

SLUG = "strafpunkte"
INFO = GameInfo(SLUG, "Strafpunkte", 2, 6, True, "tests.companion.contract.engine")
CARDS = range(1, 31)
PART = "strafpunkte"
"""The game's own kind of score part (not one of ``scoring.common.SHARED_PART_KINDS``)."""


def card_points(card: int) -> int:
    if card not in CARDS:
        raise error("card_range", "There is no card {card}: cards go from 1 to 30.", card=card)
    return 1 if card <= 20 else 2


@dataclass(frozen=True, slots=True)
class Entry:
    penalty: int = 0
    cards: tuple[int, ...] | None = None

    def points(self) -> int:
        if self.cards is None:
            return self.penalty
        return sum(card_points(card) for card in self.cards)


def deal_count(players: int) -> int:
    INFO.check_players(players)
    return 3


def validate_deal(entries: Mapping[str, Any]) -> None:
    INFO.check_players(len(entries))
    seen: set[int] = set()
    for entry in entries.values():
        for card in entry.cards or ():
            card_points(card)
            if card in seen:
                raise error("card_twice", "Card {card} appears twice.", card=card)
            seen.add(card)
    if all(entry.points() for entry in entries.values()):
        raise error("nobody_out", "Somebody goes out with 0 points in every deal.")


def score_deal(entries: Mapping[str, Any]) -> dict[str, int]:
    validate_deal(entries)
    return {player: entry.points() for player, entry in entries.items()}


def explain_deal(entries: Mapping[str, Any]) -> Breakdown:
    validate_deal(entries)
    return {
        player: (ScorePart(PART, count=entry.points(), points=entry.points(),
                           cards=tuple(CardValue(card, card_points(card))
                                       for card in entry.cards or ())),)
        for player, entry in entries.items()
    }


def entry_from_dict(data: Mapping[str, object]) -> Entry:
    if not isinstance(data, Mapping) or set(data) - {"penalty", "cards"}:
        raise ScoringError("A Strafpunkte entry holds a penalty or cards.")
    penalty = data.get("penalty", 0)
    if isinstance(penalty, bool) or not isinstance(penalty, int) or not 0 <= penalty <= 99:
        raise error("penalty", "A penalty goes from 0 to 99, not {penalty!r}.", penalty=penalty)
    cards = data.get("cards")
    if cards is None:
        return Entry(penalty=penalty)
    if not isinstance(cards, list | tuple) or not all(
            isinstance(card, int) and not isinstance(card, bool) for card in cards):
        raise ScoringError("Cards must be given as a list of card numbers.")
    for card in cards:
        card_points(card)
    return Entry(cards=tuple(cards))


def entry_to_dict(entry: Entry) -> dict[str, object]:
    if entry.cards is not None:
        return {"cards": list(entry.cards)}
    return {"penalty": entry.penalty}


def random_game(players: int, rng: random.Random) -> SimulatedGame:
    names = player_names(players)
    deals = []
    totals = dict.fromkeys(names, 0)
    for _ in range(deal_count(players)):
        out = rng.choice(names)
        deal = {name: Entry(penalty=0 if name == out else rng.randint(1, 12)) for name in names}
        deals.append(deal)
        for name, entry in deal.items():
            totals[name] += entry.points()
    return SimulatedGame(names, tuple(deals), totals)

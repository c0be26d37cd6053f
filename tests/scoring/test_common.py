"""The shared engine calls for games whose rules depend on a match's options and whose
match ends by its totals, with a game of this module (no shipped game needs to have
these features for the shared code to be tested): "Wettlauf", first to the target wins,
target 10 unless the match's options say otherwise, or a fixed number of deals."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass

import pytest

import scoring
from scoring import GameInfo
from scoring.common import deals_needed, rules_for

SLUG = "wettlauf"
INFO = GameInfo(SLUG, "Wettlauf", 2, 4, False, __name__)


@dataclass(frozen=True, slots=True)
class Rules:
    target: int = 10
    deals: int | None = None

    def deal_count(self, players: int) -> int | None:
        return self.deals

    def deals_needed(self, players: int, *, recorded: int, totals: Mapping[str, int]) -> int:
        if self.deals is not None:
            return self.deals
        return recorded if max(totals.values(), default=0) >= self.target else recorded + 1


def with_options(options: Mapping[str, object]) -> Rules:
    target, deals = options.get("target", 10), options.get("deals")
    assert isinstance(target, int) and (deals is None or isinstance(deals, int))
    return Rules(target=target, deals=deals)


def deal_count(players: int) -> int | None:
    return Rules().deal_count(players)


@pytest.fixture(autouse=True)
def wettlauf() -> Iterator[None]:
    scoring.register(INFO)
    try:
        yield
    finally:
        scoring.unregister(SLUG)


def test_the_rules_are_bound_to_the_options_of_a_match() -> None:
    assert rules_for(SLUG, {"deals": 3}).deal_count(4) == 3
    assert rules_for(SLUG, {}).deal_count(4) is None
    assert rules_for(SLUG).deal_count(4) is None, "without options: the module itself"


def test_a_match_to_a_target_has_one_more_deal_until_somebody_reaches_it() -> None:
    calls: list[None] = []

    def totals(values: dict[str, int]) -> Callable[[], dict[str, int]]:
        def read() -> dict[str, int]:
            calls.append(None)
            return values
        return read

    assert deals_needed(SLUG, 3, recorded=2, totals=totals({"Anna": 12, "Ben": 3})) == 2
    assert deals_needed(SLUG, 3, recorded=2, totals=totals({"Anna": 9})) == 3
    assert deals_needed(SLUG, 3, recorded=2, totals=totals({"Anna": 12}),
                        options={"target": 20}) == 3
    assert deals_needed(SLUG, 3, recorded=0, totals=totals({}), options={"deals": 2}) == 2
    assert len(calls) == 4


def test_the_totals_are_not_read_for_a_game_with_a_fixed_number_of_deals() -> None:
    def unread() -> dict[str, int]:
        raise AssertionError("read the totals of x-nimmt")

    assert deals_needed("x-nimmt", 3, recorded=1, totals=unread) == 2

"""Every game's deal breakdown (``explain_deal``) adds up to the engine's deal score."""

from __future__ import annotations

import random

import pytest

from scoring import GAMES, ScoringError
from scoring.common import rules_for
from scoring.dreizehn import Entry as DreizehnEntry
from scoring.dreizehn import explain_deal as explain_dreizehn
from scoring.x_nimmt import Entry as XEntry
from scoring.x_nimmt import explain_deal as explain_x_nimmt


@pytest.mark.parametrize("slug", sorted(GAMES))
@pytest.mark.parametrize("seed", range(6))
def test_the_parts_of_every_deal_of_a_random_game_add_up_to_its_score(
    slug: str, seed: int
) -> None:
    rules = rules_for(slug)
    info = GAMES[slug]
    rng = random.Random(seed)
    game = rules.random_game(rng.randint(info.min_players, info.max_players), rng)
    for entries in game.deals:
        scores = rules.score_deal(entries)
        parts = rules.explain_deal(entries)
        assert {player: sum(p.points for p in terms) for player, terms in parts.items()} \
            == scores


def test_it_counts_the_x_stack_twice_and_names_each_cards_hornochsen() -> None:
    parts = explain_x_nimmt({"Anna": XEntry(hand_cards=(10,), x_stack_cards=(55, 11)),
                             "Ben": XEntry(hand=4), "Cem": XEntry(x_stack=1)})
    hand, stack = parts["Anna"]
    assert (hand.count, hand.points, stack.count, stack.points) == (3, 3, 12, 24)
    assert [(c.card, c.hornochsen) for c in stack.cards] == [(11, 5), (55, 7)]
    assert [(p.kind, p.count, p.points, p.cards) for p in parts["Ben"]] == [
        ("hand", 4, 4, ()), ("x_stack", 0, 0, ())]


def test_a_tie_for_the_most_of_a_colour_spares_nobody() -> None:
    parts = explain_dreizehn({"Anna": DreizehnEntry(yellow=4), "Ben": DreizehnEntry(yellow=4),
                              "Cem": DreizehnEntry(yellow=1, red=1)})
    assert [(p.kind, p.points, p.tied) for p in parts["Anna"]] == [("colour", 4, True)]
    assert [(p.kind, p.points, p.tied) for p in parts["Cem"]] == [
        ("colour", 1, False), ("red", 2, False)]


def test_it_refuses_what_score_deal_refuses() -> None:
    with pytest.raises(ScoringError, match="Card 7 appears more than once"):
        explain_x_nimmt({"Anna": XEntry(hand_cards=(7,)), "Ben": XEntry(x_stack_cards=(7,))})

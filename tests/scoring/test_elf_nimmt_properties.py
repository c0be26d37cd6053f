"""11 nimmt!: random legal games from the deal to the end keep every card accounted for."""

from __future__ import annotations

import random
from itertools import chain

from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.common import match_totals
from scoring.elf_nimmt import (
    BULL_CARDS,
    CARDS,
    Deck,
    GameState,
    Phase,
    Table,
    apply,
    legal_actions,
    next_starter,
    random_game,
    score_deal,
    start_game,
    start_next_deal,
    validate_deal,
)
from scoring.elf_nimmt import _Deal as Deal
from scoring.elf_nimmt import _play_out as play_out
from scoring.elf_nimmt import _steal_from as steal_from
from scoring.elf_nimmt import _steal_table as steal_table


def most_steps(players: int) -> int:
    """The bound the module's termination argument gives for one deal.

    2·D + P (draw pile cards, piles) starts at 2·(99 − 10·players) + 1 and
    drops with every take; between two takes at most 100 play steps and as
    many turn ends.
    """
    takes = 2 * (99 - 10 * players) + 1
    return takes + (takes + 1) * 200


def assert_every_card_in_exactly_one_place(table: Table) -> None:
    places = [*chain.from_iterable(table.hands), *chain.from_iterable(table.piles), *table.draw]
    assert sorted(places) == list(CARDS)
    assert table.supply + sum(table.bull_cards) == BULL_CARDS


def play_through_the_model(players: int, rng: random.Random) -> tuple[GameState, int]:
    """A whole game with uniformly chosen legal actions; returns it and its longest deal."""
    names = tuple(f"P{seat}" for seat in range(1, players + 1))
    state = start_game(names, rng.sample(CARDS, len(CARDS)))
    longest = steps = 0
    while state.phase is not Phase.GAME_OVER:
        assert_every_card_in_exactly_one_place(state.table)
        if state.phase is Phase.DEAL_OVER:
            previous = state.results[-1]
            state = start_next_deal(state, rng.sample(CARDS, len(CARDS)))
            assert state.players[state.starter] == next_starter(previous.scores, names)
            assert state.table.supply == BULL_CARDS
            steps = 0
            continue
        actions = legal_actions(state)
        assert actions, "a deal in progress always offers an action"
        state = apply(state, rng.choice(actions))
        steps += 1
        longest = max(longest, steps)
        assert steps <= most_steps(players)
    assert_every_card_in_exactly_one_place(state.table)
    return state, longest


@settings(max_examples=200, deadline=None)
@given(players=st.integers(2, 7), seed=st.integers(0, 2**32 - 1))
def test_a_random_game_through_the_model_ends_and_scores_as_recorded(
    players: int, seed: int
) -> None:
    state, _ = play_through_the_model(players, random.Random(seed))
    assert len(state.results) == players
    recorded = [result.entries for result in state.results]
    for result in state.results:
        validate_deal(result.entries)
        out = [player for player, entry in result.entries.items() if entry.went_out]
        if result.went_out is None:
            assert out == []
            assert sum(result.scores.values()) == 167
        else:
            assert out == [result.went_out]
            assert result.scores[result.went_out] == 0
    assert state.totals == match_totals("elf-nimmt", recorded)


@settings(max_examples=200, deadline=None)
@given(players=st.integers(2, 7), seed=st.integers(0, 2**32 - 1))
def test_the_fast_random_game_scores_as_its_recorded_entries(players: int, seed: int) -> None:
    game = random_game(players, random.Random(seed))
    assert len(game.deals) == players
    for entries in game.deals:
        validate_deal(entries)
    assert dict(game.totals) == match_totals("elf-nimmt", game.deals)


def states_along_a_game(players: int, seed: int) -> list[GameState]:
    rng = random.Random(seed)
    names = tuple(f"P{seat}" for seat in range(1, players + 1))
    state = start_game(names, rng.sample(CARDS, len(CARDS)))
    states = []
    while state.phase is Phase.PLAYING:
        states.append(state)
        state = apply(state, rng.choice(legal_actions(state)))
    return states


@settings(max_examples=15, deadline=None)
@given(players=st.integers(2, 7), seed=st.integers(0, 2**32 - 1))
def test_the_fast_sampler_draws_from_exactly_the_legal_actions(players: int, seed: int) -> None:
    """Each of the sampler's equally wide choices is one legal action, and every one is there."""
    for state in states_along_a_game(players, seed)[::5]:
        table = state.table
        expected = {apply(state, action).table for action in legal_actions(state)}
        count = table._core().action_count()
        assert count == len(legal_actions(state)) == len(expected)
        reached = set()
        for choice in range(count):
            core = table._core()
            core.step((choice + 0.5) / count)
            reached.add(Table._of(core))
        assert reached == expected


@settings(max_examples=100, deadline=None)
@given(players=st.integers(2, 7), seed=st.integers(0, 2**32 - 1))
def test_the_tight_loop_plays_exactly_like_the_step_by_step_sampler(
    players: int, seed: int
) -> None:
    order = random.Random(seed).sample(CARDS, len(CARDS))
    stepwise = Deal.dealt(order, players, 0)
    first, second = random.Random(seed), random.Random(seed)
    looped = play_out(Deal.dealt(order, players, 0), second)
    steps = 0
    while not stepwise.over():
        stepwise.random_step(first)
        steps += 1
    assert steps <= most_steps(players)
    assert looped == stepwise.outline()
    assert first.random() == second.random()


@settings(max_examples=200, deadline=None)
@given(held=st.lists(st.integers(0, 4), min_size=2, max_size=7))
def test_the_loop_s_steal_table_names_the_others_holding_the_most(held: list[int]) -> None:
    """Small counts, so that ties for the most are common."""
    assert steal_table(held) == [tuple(steal_from(held, seat)) for seat in range(len(held))]


@settings(max_examples=50, deadline=None)
@given(players=st.integers(2, 7), seed=st.integers(0, 2**32 - 1))
def test_a_group_deck_with_the_same_totals_scores_by_its_own_hornochsen(
    players: int, seed: int
) -> None:
    """A synthetic deck: the classic 72×1, 9×2, 10×3, 8×5, 1×7 Hornochsen on other cards."""
    rng = random.Random(seed)
    values = list(Deck.standard().hornochsen)
    rng.shuffle(values)
    deck = Deck(tuple(values))
    assert deck.total == 167
    game = random_game(players, rng, deck=deck)
    totals = dict.fromkeys(game.players, 0)
    for entries in game.deals:
        for player, score in score_deal(entries, deck=deck).items():
            totals[player] += score
    assert dict(game.totals) == totals

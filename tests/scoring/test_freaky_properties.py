"""Freaky: random legal games from the deal to the end keep every rule and every card."""

from __future__ import annotations

import random
from itertools import pairwise

from hypothesis import given, settings
from hypothesis import strategies as st

from scoring import ScoringError
from scoring.common import match_totals, player_names
from scoring.freaky import (
    COLLECT_AT,
    DECK_SIZE,
    HAND_SIZE,
    MAX_PLAYED_PER_TURN,
    MAX_STEPS,
    CollectRow,
    EndTurn,
    PlayCard,
    State,
    apply,
    card_from_dict,
    card_to_dict,
    collectable,
    entries,
    entry_from_dict,
    entry_to_dict,
    final_scores,
    fits,
    legal_actions,
    may_open_row,
    new_game,
    random_game,
    score_deal,
    synthetic_deck,
)

# The model moves the deck's card objects from place to place, never copies
# them: so "every card in exactly one place" is "every object of the deck
# exactly once".
DECK_IDS = sorted(map(id, synthetic_deck()))


def _check_table(state: State) -> None:
    """Every card in exactly one place; rows chained by shared features; hands in bounds."""
    assert sorted(map(id, state.cards())) == DECK_IDS
    for row in state.rows:
        assert row
        assert all(fits(card, before) for before, card in pairwise(row))
    for seat, hand in enumerate(state.hands):
        if seat == state.current:
            assert len(hand) == HAND_SIZE - state.played or state.over
        else:
            assert len(hand) == HAND_SIZE
    for stack in state.collected:
        assert len(stack) == 0 or len(stack) >= COLLECT_AT
    assert 0 <= state.played <= MAX_PLAYED_PER_TURN


def _check_actions(state: State, actions: tuple[object, ...]) -> None:
    """The legal actions are exactly those the rules allow."""
    plays = [action for action in actions if isinstance(action, PlayCard)]
    ends = tuple(row[-1] for row in state.rows)
    for action in plays:
        if action.row is None:
            assert may_open_row(action.card, ends)
        else:
            assert fits(action.card, ends[action.row])
    collects = {action.row for action in actions if isinstance(action, CollectRow)}
    if state.played:
        assert collects == {i for i, row in enumerate(state.rows) if collectable(row)}
        assert isinstance(actions[-1], EndTurn)
    else:
        assert not collects and plays


def _play_through_the_model(players: int, seed: int) -> State:
    """The same game random_game plays, step by step through legal_actions and apply."""
    rng = random.Random(seed)
    deck = list(synthetic_deck())
    rng.shuffle(deck)
    state = new_game(player_names(players), deck, first_player=rng.randrange(players))
    steps = 0
    while not state.over:
        _check_table(state)
        actions = legal_actions(state)
        _check_actions(state, actions)
        state = apply(state, actions[int(rng.random() * len(actions))])
        steps += 1
        assert steps <= MAX_STEPS
    _check_table(state)
    assert legal_actions(state) == ()
    return state


# 200 games: about 3 s of CPU time (500 cost about 7 s: the oracle checks every row's chain
# and collectability at every step); test_random_games.py plays 1,000 more.
@settings(max_examples=200, deadline=None)
@given(players=st.integers(min_value=2, max_value=5), seed=st.integers(0, 2**32))
def test_a_random_game_keeps_every_card_and_scores_what_is_recorded(players, seed):
    state = _play_through_the_model(players, seed)
    recorded = entries(state)
    assert final_scores(state) == score_deal(recorded)
    assert sum(final_scores(state).values()) <= DECK_SIZE - HAND_SIZE * (players - 1)
    # The fast simulator makes exactly the same game with the same random numbers.
    game = random_game(players, random.Random(seed))
    assert dict(game.deals[0]) == recorded
    assert dict(game.totals) == final_scores(state)
    assert match_totals("freaky", game.deals) == dict(game.totals)


SCALARS = st.none() | st.booleans() | st.integers(-3, 120) | st.floats(allow_nan=False)
JSON = st.recursive(
    SCALARS | st.sampled_from(["red", "blue", "pink", ""]),
    lambda inner: st.lists(inner, max_size=3)
    | st.dictionaries(st.text(max_size=6), inner, max_size=3),
    max_leaves=8,
)


@settings(max_examples=200, deadline=None)
@given(data=st.dictionaries(st.sampled_from(["collected", "x"]), JSON))
def test_an_entry_from_any_json_is_an_entry_or_a_clear_error(data):
    try:
        entry = entry_from_dict(data)
    except ScoringError:
        return
    assert entry_from_dict(entry_to_dict(entry)) == entry


@settings(max_examples=200, deadline=None)
@given(data=st.dictionaries(st.sampled_from(["background", "circle", "number", "x"]), JSON))
def test_a_card_from_any_json_is_a_card_or_a_clear_error(data):
    try:
        card = card_from_dict(data)
    except ScoringError:
        return
    assert card_from_dict(card_to_dict(card)) == card

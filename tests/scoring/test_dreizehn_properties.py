"""13: random legal matches from the first deal to the end keep every rule and every card."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from scoring import ScoringError
from scoring.common import match_totals, player_names
from scoring.dreizehn import (
    COLOURS,
    HAND_SIZE,
    LIMIT,
    MAX_STEPS,
    RED,
    PlaceCard,
    State,
    Variant,
    apply,
    build_deck,
    deal_entries,
    deal_scores,
    deals,
    entry_from_dict,
    entry_to_dict,
    final_scores,
    legal_actions,
    new_game,
    place,
    random_game,
    score_deal,
    shuffled_decks,
    start_player,
)

DECK = sorted((card.colour, card.value) for card in build_deck())


def _check_table(state: State) -> None:
    """Every card of the deal in exactly one place; targets within the rules."""
    assert sorted((card.colour, card.value) for card in state.cards()) == DECK
    colours = [target.colour for target in state.targets]
    fixed = [colour for colour in colours if colour is not None]
    assert len(fixed) == len(set(fixed))
    if state.match.variant is Variant.FIXED_COLOURS:
        assert tuple(colours) == COLOURS
    for target in state.targets:
        assert target.total <= LIMIT or len(target.cards) == 1
        assert all(card.colour in (RED, target.colour) for card in target.cards)
    sizes = [len(hand) for hand in state.hands]
    if state.pile:
        assert sizes == [HAND_SIZE] * len(sizes)
    else:
        assert max(sizes) - min(sizes) <= 1


def _check_actions(state: State) -> tuple[PlaceCard, ...]:
    """The legal moves are exactly the rules' moves: a red 4 on any target; a coloured
    card on the target of its colour, or (variant) on a colourless target while its
    colour is on no target."""
    actions = legal_actions(state)
    colours = [target.colour for target in state.targets]
    expected = set()
    for card in state.hands[state.current]:
        for index, colour in enumerate(colours):
            if (
                card.colour == RED
                or colour == card.colour
                or (colour is None and card.colour not in colours)
            ):
                expected.add((card, index))
    listed = [(action.card, action.target) for action in actions]
    assert len(listed) == len(set(listed))
    assert set(listed) == expected
    return actions


def _play_through_the_model(players: int, seed: int, variant: Variant) -> State:
    """The same match random_game plays, step by step through legal_actions and apply."""
    rng = random.Random(seed)
    decks = shuffled_decks(build_deck(), players, rng)
    state = new_game(
        player_names(players), decks, first_dealer=rng.randrange(players), variant=variant
    )
    steps = 0
    while not state.over:
        _check_table(state)
        actions = _check_actions(state)
        deal = state.deal
        state = apply(state, actions[int(rng.random() * len(actions))])
        if state.deal != deal:  # a new deal: dealt by the next player clockwise
            assert state.current == start_player(players, state.match.first_dealer, state.deal)
        steps += 1
        assert steps <= MAX_STEPS
    _check_table(state)
    assert not any(state.hands) and not state.pile
    assert legal_actions(state) == ()
    return state


# 200 matches: about 4 s of CPU time (500 cost about 9.5 s, in every run of make test);
# test_random_games.py plays 1,000 more.
@settings(max_examples=200, deadline=None)
@given(
    players=st.integers(min_value=3, max_value=6),
    seed=st.integers(0, 2**32),
    variant=st.sampled_from(Variant),
)
def test_a_random_match_keeps_every_card_and_scores_what_is_recorded(players, seed, variant):
    state = _play_through_the_model(players, seed, variant)
    recorded = deal_entries(state)
    assert len(recorded) == deals(players)
    totals = final_scores(state)
    assert totals == match_totals("dreizehn", recorded)
    for entries in recorded:
        assert score_deal(entries) == deal_scores(
            {player: entry.counts() for player, entry in entries.items()}
        )
    # The fast simulator makes exactly the same match with the same random numbers.
    game = random_game(players, random.Random(seed), variant=variant)
    assert [dict(entries) for entries in game.deals] == list(recorded)
    assert dict(game.totals) == totals


SCALARS = st.none() | st.booleans() | st.integers(-3, 20) | st.floats(allow_nan=False)
JSON = st.recursive(
    SCALARS | st.text(max_size=6),
    lambda inner: st.lists(inner, max_size=3)
    | st.dictionaries(st.text(max_size=6), inner, max_size=3),
    max_leaves=8,
)


@settings(max_examples=200, deadline=None)
@given(data=st.dictionaries(st.sampled_from(["yellow", "green", "blue", "red", "x"]), JSON))
def test_an_entry_from_any_json_is_an_entry_or_a_clear_error(data):
    try:
        entry = entry_from_dict(data)
    except ScoringError:
        return
    assert entry_from_dict(entry_to_dict(entry)) == entry


@settings(max_examples=200, deadline=None)
@given(
    values=st.lists(st.sampled_from([1, 2, 4, 5, 7]), max_size=6),
    card=st.sampled_from([1, 2, 4, 5, 7]),
)
def test_placing_keeps_the_cards_and_never_leaves_more_than_13(values, card):
    try:
        new_target, taken = place(values, card)
    except ScoringError:
        assert len(values) > 1 and sum(values) > LIMIT
        return
    assert sorted((*new_target, *taken)) == sorted((*values, card))
    if sum(values) + card > LIMIT:
        assert (new_target, taken) == ((card,), tuple(values))
    else:
        assert (new_target, taken) == ((*values, card), ())
        assert sum(new_target) <= LIMIT

"""3 sind einer zuviel!: random legal games from the deal to the end."""

from __future__ import annotations

import random
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from scoring import drei_sind_einer_zuviel as game
from scoring.common import match_totals, rules_for

SLUG = "drei-sind-einer-zuviel"


def random_deck(rng: random.Random) -> dict[int, str]:
    """A deck description with 12 cards per colour, colours shuffled over the numbers."""
    colours = list(game.synthetic_deck().values())
    rng.shuffle(colours)
    return dict(zip(game.COLOURED_NUMBERS, colours, strict=True))


def every_card(state: game.GameState) -> list[int]:
    """Every card in every place of the game, start cards included."""
    cards = list(game.START_CARDS)
    cards += [c for row in state.rows for c in row]
    cards += [c for hand in state.hands for c in hand]
    cards += [c for pile in state.piles for c in pile]
    for place in (state.open, state.face_down):
        cards += [c for player in place for colour in player for c in colour]
    cards += state.box
    return cards


def check_invariants(state: game.GameState, deck: dict[int, str]) -> None:
    counts = Counter(every_card(state))
    assert sorted(counts) == list(range(90)), "a card is missing"
    assert max(counts.values()) == 1, "a card is in two places"
    for index, row in enumerate(state.rows):
        assert len(row) <= 3
        assert list(row) == sorted(row)
        assert all(card // 30 == index for card in row)
    for seat in range(len(state.players)):
        for colour_index, colour in enumerate(game.COLOURS):
            open_cards = state.open[seat][colour_index]
            down = state.face_down[seat][colour_index]
            assert len(open_cards) <= 2
            assert len(down) % 3 == 0
            assert all(deck[card] == colour for card in (*open_cards, *down))
    given_out = [bonus for bonus in state.interim if bonus]
    assert sorted(given_out, reverse=True) == list(game.INTERIM_BONUSES[: len(given_out)])
    assert len(set(given_out)) == len(given_out)


@settings(max_examples=200, deadline=None)
@given(players=st.integers(min_value=2, max_value=4), seed=st.integers(0, 2**32 - 1))
def test_random_games_keep_every_card_in_one_place_and_score_as_recorded(
    players: int, seed: int
) -> None:
    rng = random.Random(seed)
    deck = random_deck(rng)
    names = tuple(f"P{i}" for i in range(1, players + 1))
    state = game.new_game(names, rng, deck=deck, first=rng.randrange(players))
    live = game.live_start(names)
    check_invariants(state, deck)
    steps = 0
    plays_per_player = Counter[str]()
    while not state.finished:
        assert steps < 18 * players, "the game does not end"
        actions = game.legal_actions(state)
        assert [a.card for a in actions] == list(state.hands[state.current])
        action = rng.choice(actions)
        player = names[state.current]
        taken = game.place(state.rows, action.card).taken
        colours = [deck[c] for c in taken if c not in game.GREY_CARDS]
        state = game.apply(state, action)
        live = game.live_turn(live, player, colours)
        plays_per_player[player] += 1
        steps += 1
        check_invariants(state, deck)
        assert game.live_entries(live) == game.recorded_entries(state)
        assert live.interim == state.interim
    assert steps == 18 * players
    assert set(plays_per_player.values()) == {18}
    assert game.legal_actions(state) == ()
    entries = game.recorded_entries(state)
    totals = game.final_scores(state)
    assert game.score_deal(entries) == totals
    assert match_totals(SLUG, [entries]) == totals
    assert {p: game.live_view(live, p).score for p in names} == totals
    round_trip = {p: game.entry_from_dict(game.entry_to_dict(e)) for p, e in entries.items()}
    assert game.score_deal(round_trip) == totals
    by_sides = {
        p: game.entry_from_open_face_down(e.open, e.face_down, e.interim_bonus)
        for p, e in entries.items()
    }
    assert game.score_deal(by_sides) == totals


@settings(max_examples=50, deadline=None)
@given(players=st.integers(min_value=2, max_value=4), seed=st.integers(0, 2**32 - 1))
def test_simulated_games_pass_validation_and_their_totals_match(players: int, seed: int) -> None:
    result = rules_for(SLUG).random_game(players, random.Random(seed))
    assert len(result.deals) == 1
    rules_for(SLUG).validate_deal(result.deals[0])
    assert match_totals(SLUG, result.deals) == result.totals


@settings(max_examples=50, deadline=None)
@given(players=st.integers(min_value=2, max_value=4), seed=st.integers(0, 2**32 - 1))
def test_a_complete_game_takes_at_least_the_fewest_coloured_cards(players: int, seed: int) -> None:
    # The sheet's plausibility hint rests on this bound (companion.games.drei_sind_einer_zuviel).
    from scoring.drei_sind_einer_zuviel import fewest_coloured_taken

    result = rules_for(SLUG).random_game(players, random.Random(seed))
    taken = sum(sum(entry.taken.values()) for entry in result.deals[0].values())
    assert fewest_coloured_taken(players) <= taken

"""11 nimmt!: random legal games from the deal to the end keep every card accounted for."""

from __future__ import annotations

import random
from itertools import chain, groupby
from operator import attrgetter

from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.common import match_totals, player_names
from scoring.elf_nimmt import (
    BULL_CARDS,
    CARDS,
    Action,
    Deck,
    EndTurn,
    GameState,
    Phase,
    PlayCards,
    Table,
    TakePile,
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
from scoring.elf_nimmt import _shuffle as shuffle
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


def policy_options(state: GameState) -> list[list[Action]]:
    """The random policy of ``random_game`` (see its docstring) on the public model.

    At the start of a turn: one option per pile, holding its takes, then its
    plays; during a bull card play: one option per pile that still has plays,
    then ending the turn. Together the options hold every legal action once
    (each lands in exactly one list, and ``legal_actions`` lists no action twice).
    """
    actions = legal_actions(state)
    piles = len(state.table.piles)
    plays: list[list[Action]] = [[] for _ in range(piles)]
    first_other = len(actions)  # legal_actions lists the plays first, pile by pile
    while first_other and type(actions[first_other - 1]) is not PlayCards:
        first_other -= 1
    for pile, group in groupby(actions[:first_other], attrgetter("pile")):
        assert not plays[pile], "legal_actions lists the plays pile by pile"
        plays[pile] = list(group)
    rest = actions[first_other:]
    assert PlayCards not in map(type, rest)
    if state.table.piles_played:
        assert rest == (EndTurn(),)
        return [*filter(None, plays), list(rest)]
    takes: list[list[Action]] = [[] for _ in range(piles)]
    for action in rest:
        assert type(action) is TakePile
        takes[action.pile].append(action)
    return [[*take, *play] for take, play in zip(takes, plays, strict=True)]


def pick(options: list[list[Action]], rng: random.Random) -> Action:
    """An option, every one equally likely, then one of its moves (a draw only if several)."""
    moves = options[int(rng.random() * len(options))]
    return moves[int(rng.random() * len(moves))] if len(moves) > 1 else moves[0]


def play_the_policy_through_the_model(players: int, rng: random.Random) -> GameState:
    """A whole game through ``legal_actions`` and ``apply``, moves chosen as ``random_game``
    chooses them, checking every card's place and the step bound at every step."""
    names = player_names(players)
    state = start_game(names, shuffle(rng.random))
    steps = 0
    while state.phase is not Phase.GAME_OVER:
        assert_every_card_in_exactly_one_place(state.table)
        if state.phase is Phase.DEAL_OVER:
            previous = state.results[-1]
            state = start_next_deal(state, shuffle(rng.random))
            assert state.players[state.starter] == next_starter(previous.scores, names)
            assert state.table.supply == BULL_CARDS
            steps = 0
            continue
        state = apply(state, pick(policy_options(state), rng))
        steps += 1
        assert steps <= most_steps(players)
    assert_every_card_in_exactly_one_place(state.table)
    return state


# 200 games through the public model with every card checked at every step: about 14 s of
# CPU time (1,000 would cost about 70 s); test_random_games.py plays 1,000 more.
@settings(max_examples=200, deadline=None)
@given(players=st.integers(2, 7), seed=st.integers(0, 2**32 - 1))
def test_random_game_is_its_policy_played_through_the_model_and_scores_as_recorded(
    players: int, seed: int
) -> None:
    model_rng, fast_rng = random.Random(seed), random.Random(seed)
    state = play_the_policy_through_the_model(players, model_rng)
    game = random_game(players, fast_rng)
    assert model_rng.random() == fast_rng.random()  # the same random numbers drawn
    assert len(state.results) == players
    recorded = [result.entries for result in state.results]
    assert [dict(entries) for entries in recorded] == [dict(entries) for entries in game.deals]
    for result in state.results:
        validate_deal(result.entries)
        out = [player for player, entry in result.entries.items() if entry.went_out]
        if result.went_out is None:
            assert out == []
            assert sum(result.scores.values()) == 167
        else:
            assert out == [result.went_out]
            assert result.scores[result.went_out] == 0
    assert state.totals == match_totals("elf-nimmt", recorded) == dict(game.totals)


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
def test_the_core_s_policy_offers_exactly_the_legal_actions_grouped_as_on_the_model(
    players: int, seed: int
) -> None:
    """Option by option, the core's moves lead where the model's grouped actions lead."""
    for state in states_along_a_game(players, seed)[::5]:
        table = state.table
        public = policy_options(state)
        options = table._core().choices()
        assert list(map(len, options)) == list(map(len, public))
        for moves, actions in zip(options, public, strict=True):
            reached = []
            for move in moves:
                core = table._core()
                core.move(move)
                reached.append(Table._of(core))
            assert reached == [apply(state, action).table for action in actions]


@settings(max_examples=200, deadline=None)
@given(players=st.integers(2, 7), seed=st.integers(0, 2**32 - 1))
def test_the_tight_loop_makes_exactly_the_moves_of_the_core_s_policy(
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


@settings(max_examples=200, deadline=None)
@given(players=st.integers(2, 7), seed=st.integers(0, 2**32 - 1))
def test_a_group_deck_with_the_same_totals_scores_by_its_own_hornochsen(
    players: int, seed: int
) -> None:
    """A synthetic deck: the classic 72×1, 9×2, 10×3, 8×5, 1×7 Hornochsen on other cards."""
    rng = random.Random(seed)
    values = list(Deck.standard().values[1:])
    rng.shuffle(values)
    deck = Deck((0, *values))
    assert deck.total == 167
    game = random_game(players, rng, deck=deck)
    totals = dict.fromkeys(game.players, 0)
    for entries in game.deals:
        for player, score in score_deal(entries, deck=deck).items():
            totals[player] += score
    assert dict(game.totals) == totals


@settings(max_examples=200, deadline=None)
@given(held=st.lists(st.integers(0, 4), min_size=2, max_size=7), data=st.data())
def test_a_stolen_bull_card_comes_from_someone_holding_the_most_of_everybody(
    held: list[int], data: st.DataObject,
) -> None:
    """Counted over everybody, the taker included: the victims hold the most, the taker never
    steals from themselves, and a taker alone with the most has nobody to steal from."""
    taker = data.draw(st.integers(0, len(held) - 1))
    victims = steal_from(held, taker)
    most = max(held)
    assert all(held[victim] == most and victim != taker for victim in victims)
    leaders = [seat for seat, count in enumerate(held) if count == most and most]
    assert victims == [seat for seat in leaders if seat != taker]
    if leaders == [taker]:
        assert victims == []

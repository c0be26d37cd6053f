"""X nimmt!: random legal games from the deal to the end keep every rule and every card."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from scoring import hornochsen
from scoring.common import match_totals
from scoring.x_nimmt import (
    CARDS,
    ROW_SIZES,
    ChoiceKind,
    ChooseRow,
    ChooseXCard,
    Entry,
    Phase,
    PlayCard,
    RoundResolution,
    State,
    apply,
    card_places,
    legal_actions,
    new_game,
    random_game,
    random_setup,
    resolve_round,
    score_deal,
    totals,
)

# A deal has at most 8 × players + 3 cards in play, every take puts one of them
# into an X-row for good, and a round without a take fills the rows; so a game
# needs far fewer steps than this.
STEP_LIMIT = 3_000


def _check_table(state: State) -> None:
    """Every card in exactly one place; rows and X-rows ascend; rows within their size."""
    cards = sorted(card for place in card_places(state).values() for card in place)
    assert cards == list(CARDS)
    for size, row in zip(ROW_SIZES, state.rows, strict=True):
        assert 1 <= len(row) <= size - 1
        assert list(row) == sorted(row)
    for seat in state.seats:
        assert list(seat.hand) == sorted(seat.hand)
        assert list(seat.x_row) == sorted(seat.x_row)
        assert not seat.x_stack or seat.x_row
    if state.phase is Phase.CHOOSE_CARDS and all(card is None for card in state.played):
        assert all(seat.hand for seat in state.seats)
    if state.phase is Phase.CHOOSE_ROW:
        assert state.turn is not None
        card = state.played[state.turn]
        assert card is not None
        assert card == min(c for c in state.played if c is not None)
        assert all(card < row[-1] for row in state.rows)
    if state.phase is Phase.CHOOSE_X_CARD:
        assert len(state.taken) >= 2


class RoundWatch:
    """Replays each round of the model through :func:`resolve_round` and compares."""

    def __init__(self, state: State, action: PlayCard) -> None:
        self.rows = state.rows
        self.plays = {
            player: card
            for player, card in zip(state.players, state.played, strict=True)
            if card is not None
        }
        self.plays[action.player] = action.card
        self.seats = dict(zip(state.players, state.seats, strict=True))
        self.results = len(state.results)
        self.row_choices: dict[int, int] = {}
        self.x_choices: dict[int, int] = {}

    def resolve(self) -> RoundResolution:
        return resolve_round(
            self.rows, self.plays, row_choices=self.row_choices, x_choices=self.x_choices,
            x_rows={player: seat.x_row for player, seat in self.seats.items()},
        )

    def choice_asked(self, state: State) -> None:
        """The resolver stops at the same choice the model waits for."""
        resolution = self.resolve()
        pending = resolution.pending
        assert state.turn is not None
        player = state.players[state.turn]
        assert pending is not None
        assert (pending.player, pending.card) == (player, self.plays[player])
        if state.phase is Phase.CHOOSE_ROW:
            assert pending.kind is ChoiceKind.ROW
        else:
            assert (pending.kind, pending.options) == (ChoiceKind.X_CARD, state.taken)
            # The model has already put the card at the start of its row.
            assert pending.row is not None
            assert state.rows[pending.row] == (pending.card,)
            assert resolution.rows[pending.row] == state.taken
            assert [r for i, r in enumerate(state.rows) if i != pending.row] == [
                r for i, r in enumerate(resolution.rows) if i != pending.row
            ]

    def record(self, action: ChooseRow | ChooseXCard) -> None:
        card = self.plays[action.player]
        if isinstance(action, ChooseRow):
            self.row_choices[card] = action.row
        else:
            self.x_choices[card] = action.card

    def finished(self, state: State) -> None:
        """The round is over: the resolver's outcome is the model's."""
        resolution = self.resolve()
        assert resolution.complete
        deal_over = len(state.results) > self.results
        seats = state.results[-1].seats if deal_over else state.seats
        players = state.results[-1].players if deal_over else state.players
        if not deal_over:
            assert state.rows == resolution.rows
        assert resolution.x_rows is not None and resolution.x_stacks is not None
        for player, seat in zip(players, seats, strict=True):
            before = self.seats[player]
            assert seat.x_row == resolution.x_rows[player]
            moved = resolution.x_stacks[player]
            assert seat.x_stack == before.x_stack + moved
            to_hand = [
                card
                for step in resolution.steps
                if step.player == player
                for card in step.to_hand
            ]
            kept = [card for card in before.hand if card != self.plays[player]]
            assert list(seat.hand) == sorted(kept + to_hand)


def _play_out(players: int, rng: random.Random) -> State:
    names = tuple(f"Spieler {i}" for i in range(1, players + 1))
    state = new_game(names, [random_setup(players, rng), random_setup(players, rng)])
    _check_table(state)
    watch: RoundWatch | None = None
    for _ in range(STEP_LIMIT):
        if state.is_over:
            break
        actions = legal_actions(state)
        assert actions
        action = rng.choice(actions)
        if isinstance(action, PlayCard):
            if sum(card is None for card in state.played) == 1:
                watch = RoundWatch(state, action)
        else:
            assert watch is not None
            watch.record(action)
        state = apply(state, action)
        _check_table(state)
        if watch is None:
            continue
        if state.phase in (Phase.CHOOSE_ROW, Phase.CHOOSE_X_CARD):
            watch.choice_asked(state)
        else:
            watch.finished(state)
            watch = None
    assert state.is_over, "the game did not end"
    assert legal_actions(state) == ()
    return state


@settings(max_examples=200, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), players=st.integers(2, 4))
def test_a_random_game_keeps_every_rule_and_its_recorded_scores_match_the_model(
    seed: int, players: int
) -> None:
    rng = random.Random(seed)
    state = _play_out(players, rng)
    assert len(state.results) == 2
    by_cards = [result.entries() for result in state.results]
    by_counts = [
        {player: Entry(e.hand_hornochsen, e.x_stack_hornochsen) for player, e in entries.items()}
        for entries in by_cards
    ]
    assert match_totals("x-nimmt", by_cards) == totals(state)
    assert match_totals("x-nimmt", by_counts) == totals(state)
    for result, entries in zip(state.results, by_cards, strict=True):
        assert score_deal(entries) == result.scores()
        # A deal ends after a round in which some player played their last card.
        assert any(not seat.hand for seat in result.seats)
    # The lean loop of random_game makes exactly these moves from the same random numbers.
    game = random_game(players, random.Random(seed))
    for result, recorded in zip(state.results, game.deals, strict=True):
        for seat, entry in zip(result.seats, recorded.values(), strict=True):
            assert (entry.hand_hornochsen, entry.x_stack_hornochsen) == (
                sum(map(hornochsen, seat.hand)), sum(map(hornochsen, seat.x_stack))
            )
            assert entry.hand_cards in (None, seat.hand)
            assert entry.x_stack_cards in (None, seat.x_stack)
    assert list(game.totals.values()) == list(totals(state).values())


@settings(max_examples=200, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), players=st.integers(2, 4))
def test_random_game_records_what_its_model_scored(seed: int, players: int) -> None:
    game = random_game(players, random.Random(seed))
    assert len(game.deals) == 2
    assert match_totals("x-nimmt", game.deals) == dict(game.totals)

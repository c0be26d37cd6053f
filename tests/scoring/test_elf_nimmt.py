"""11 nimmt!: the rules file's examples, its edge cases and decisions, and bad input."""

from __future__ import annotations

import random

import pytest

from scoring import ScoringError
from scoring.common import match_totals, rules_for
from scoring.elf_nimmt import (
    BullCardDue,
    BullCards,
    BullCardSource,
    Deck,
    EndTurn,
    Entry,
    GameState,
    Phase,
    PlayCards,
    PlayProblem,
    Table,
    TakePile,
    apply,
    bull_card_source,
    can_play,
    can_play_all,
    check_play,
    deal_count,
    deals,
    distance,
    entry_from_dict,
    entry_to_dict,
    hand_penalty,
    legal_actions,
    legal_piles,
    must_take,
    next_starter,
    pile_distances,
    random_game,
    score_deal,
    start_game,
    start_next_deal,
    steal_candidates,
    take_pile,
    validate_deal,
)

SEVEN = ("Anna", "Ben", "Cem", "Dana", "Eli", "Fay", "Gus")


def deal_order(hands: list[list[int]], first_pile: int, draw_first: list[int]) -> list[int]:
    """A shuffled deck that deals ``hands``, turns up ``first_pile``, then draws ``draw_first``."""
    placed = [card for hand in hands for card in hand] + [first_pile] + draw_first
    rest = [card for card in range(1, 101) if card not in placed]
    return placed + rest


def table(
    hands: list[tuple[int, ...]], piles: list[tuple[int, ...]], *, draw: tuple[int, ...] = (),
    bull_cards: tuple[int, ...] | None = None, supply: int = 10, to_move: int = 0,
) -> GameState:
    """A game of len(hands) players in its first deal, with the cards as given.

    Cards named nowhere go to the end of the draw pile.
    """
    named = {card for hand in hands for card in hand} | {c for pile in piles for c in pile}
    named |= set(draw)
    rest = tuple(card for card in range(1, 101) if card not in named)
    players = SEVEN[: len(hands)]
    return GameState(
        players, Deck.standard(), 0,
        Table(tuple(tuple(sorted(hand)) for hand in hands), tuple(piles), (*draw, *rest),
              bull_cards or (0,) * len(hands), supply, to_move),
    )


# --- The worked example of the rulebook --------------------------------------------------

WORKED_HANDS = [
    [36, 60, 61, 62, 63, 64, 65, 66, 67, 68],
    [46, 69, 70, 71, 72, 73, 74, 75, 76, 77],
    [1, 2, 3, 4, 6, 7, 8, 9, 10, 11],
    [88, 12, 13, 14, 15, 16, 17, 18, 20, 21],
    [92, 22, 24, 25, 26, 27, 28, 29, 30, 32],
    [98, 33, 34, 35, 37, 38, 39, 40, 41, 42],
    [5, 43, 44, 45, 57, 58, 59, 79, 80, 81],
]


def test_the_worked_example_of_the_rulebook_ends_with_the_tops_5_19_78() -> None:
    game = start_game(SEVEN, deal_order(WORKED_HANDS, 31, [23, 87, 19, 78]))
    assert game.table.tops == (31,)
    game = apply(game, PlayCards(0, (36,)))
    game = apply(game, PlayCards(0, (46,)))
    assert must_take(game.table.tops, game.table.hands[2])
    assert legal_actions(game) == (TakePile(0),)
    game = apply(game, TakePile(0))
    assert game.table.hands[2] == (1, 2, 3, 4, 6, 7, 8, 9, 10, 11, 31, 36, 46)
    assert game.table.bull_cards == (0, 0, 1, 0, 0, 0, 0)
    assert game.table.supply == 9
    assert game.table.tops == (23, 87)
    for card in (88, 92, 98, 5):
        game = apply(game, PlayCards(1, (card,)))
    assert game.table.piles[1] == (87, 88, 92, 98, 5)
    assert game.table.to_move == 0
    assert must_take(game.table.tops, game.table.hands[0])
    game = apply(game, TakePile(0))
    assert game.table.bull_cards == (0, 0, 1, 0, 0, 0, 0)
    assert game.table.tops == (5, 19, 78)
    assert game.table.hands[0] == (23, 60, 61, 62, 63, 64, 65, 66, 67, 68)


def test_in_the_worked_example_the_first_player_may_play_32_to_41() -> None:
    assert legal_piles([31], 32) == (0,)
    assert legal_piles([31], 41) == (0,)
    assert legal_piles([31], 42) == ()
    assert [card for card in range(1, 101) if card != 31 and can_play(31, card)] == list(
        range(32, 42)
    )


# --- Playing rules -----------------------------------------------------------------------


def test_on_96_the_cards_97_to_100_and_1_to_6_are_legal() -> None:
    legal = [card for card in range(1, 101) if card != 96 and can_play(96, card)]
    assert legal == [1, 2, 3, 4, 5, 6, 97, 98, 99, 100]


def test_on_98_the_5_has_distance_7() -> None:
    assert distance(98, 5) == 7


@pytest.mark.parametrize(
    ("top", "card", "expected"),
    [(31, 41, 10), (31, 42, 11), (100, 1, 1), (1, 100, 99), (50, 49, 99), (91, 1, 10)],
)
def test_distance_counts_on_from_100_to_1(top: int, card: int, expected: int) -> None:
    assert distance(top, card) == expected


def test_a_lower_card_never_fits_unless_the_count_wraps_past_100() -> None:
    assert not can_play(40, 39)
    assert not can_play(40, 30)
    assert can_play(95, 5)
    assert not can_play(95, 6)


def test_with_a_bull_card_all_cards_34_to_43_may_go_on_33() -> None:
    assert can_play_all(33, range(34, 44))
    assert check_play([33], {0: list(range(34, 44))}, 1).tops == (43,)


def test_a_bull_card_play_must_stay_within_ten_of_the_top_before_the_play() -> None:
    assert not can_play_all(33, [40, 44])
    verdict = check_play([33], {0: [40, 44]}, 1)
    assert verdict.problem is PlayProblem.TOO_FAR
    assert verdict.message == (
        "Card 44 does not fit on the pile with 33: it must be 1 to 10 above."
    )


def test_bull_card_cards_go_down_in_ascending_wrap_around_order() -> None:
    assert check_play([95], {0: [99, 100, 2]}, 1).tops == (2,)
    verdict = check_play([95], {0: [2, 99]}, 1)
    assert verdict.problem is PlayProblem.WRONG_ORDER
    assert verdict.message == "Put the cards on the pile with 95 in ascending order: 99 before 2."


def test_k_bull_cards_allow_cards_on_k_piles() -> None:
    plays = {0: [12, 14], 1: [52], 2: [81, 85]}
    assert check_play([10, 50, 80], plays, 3).tops == (14, 52, 85)
    verdict = check_play([10, 50, 80], plays, 2)
    assert verdict.problem is PlayProblem.TOO_MANY_PILES
    assert verdict.message == (
        "With 2 bull cards you may put cards on at most 2 piles, not 3."
    )


def test_without_a_bull_card_exactly_one_card_goes_on_one_pile() -> None:
    assert check_play([10, 50], {1: [55]}, 0).legal
    assert check_play([10, 50], {0: [11, 12]}, 0).problem is PlayProblem.SEVERAL_CARDS
    assert check_play([10, 50], {0: [11], 1: [51]}, 0).problem is PlayProblem.SEVERAL_CARDS
    assert check_play([10, 50], {}, 0).problem is PlayProblem.NO_CARDS


@pytest.mark.parametrize(
    ("plays", "hand", "problem"),
    [
        ({2: [11]}, None, PlayProblem.UNKNOWN_PILE),
        ({0: [11, 11]}, None, PlayProblem.CARD_TWICE),
        ({0: [11], 1: [11]}, None, PlayProblem.CARD_TWICE),
        ({1: [10]}, None, PlayProblem.CARD_ON_TABLE),
        ({0: [11]}, [12, 13], PlayProblem.NOT_IN_HAND),
    ],
)
def test_a_play_names_real_piles_and_distinct_cards_from_the_hand(
    plays: dict[int, list[int]], hand: list[int] | None, problem: PlayProblem
) -> None:
    verdict = check_play([10, 50], plays, 2, hand=hand)
    assert not verdict.legal
    assert verdict.problem is problem
    assert verdict.tops == (10, 50)


def test_pile_distances_and_legal_piles_list_every_pile() -> None:
    assert pile_distances([5, 19, 78], 20) == (15, 1, 42)
    assert legal_piles([5, 19, 78], 20) == (1,)
    assert legal_piles([96, 100, 50], 2) == (0, 1)


def test_a_player_must_take_only_when_no_card_fits_anywhere() -> None:
    assert must_take([23, 5], [60, 61, 68])
    assert not must_take([23, 5], [60, 15])
    with pytest.raises(ScoringError, match="the deal is over"):
        must_take([23], [])


# --- Taking piles and the bull cards -----------------------------------------------------


def test_a_pile_of_fewer_than_three_cards_earns_no_bull_card() -> None:
    state = BullCards.start(["Anna", "Ben"])
    assert take_pile(state, "Anna", 2) == state
    assert take_pile(state, "Anna", 3).holders == {"Anna": 1, "Ben": 0}
    assert take_pile(state, "Anna", 3).supply == 9


def test_with_an_empty_supply_the_bull_card_comes_from_the_player_with_the_most() -> None:
    state = BullCards(0, {"Anna": 6, "Ben": 3, "Cem": 1})
    after = take_pile(state, "Cem", 4)
    assert dict(after.holders) == {"Anna": 5, "Ben": 3, "Cem": 2}
    assert after.supply == 0


def test_among_tied_players_the_taker_chooses_whom_to_take_from() -> None:
    state = BullCards(0, {"Anna": 4, "Ben": 4, "Cem": 2})
    assert steal_candidates(state, "Cem") == ("Anna", "Ben")
    assert dict(take_pile(state, "Cem", 3, steal_from="Anna").holders) == {
        "Anna": 3, "Ben": 4, "Cem": 3,
    }
    with pytest.raises(ScoringError, match=r"choose whom to take a bull card from \(Anna, Ben\)"):
        take_pile(state, "Cem", 3)
    with pytest.raises(ScoringError, match="only be taken from the player with the most"):
        take_pile(state, "Ben", 3, steal_from="Cem")


def test_a_taker_who_alone_holds_the_most_gets_no_bull_card() -> None:
    state = BullCards(0, {"Anna": 6, "Ben": 4})
    assert steal_candidates(state, "Anna") == ()
    assert take_pile(state, "Anna", 3) == state
    assert bull_card_source(state, "Anna") == BullCardDue(
        BullCardSource.TAKER_HAS_MOST, (), 6, 6)
    alone = BullCards(0, {"Anna": 10, "Ben": 0})
    assert take_pile(alone, "Anna", 5) == alone


def test_a_taker_tied_for_the_most_may_take_from_the_others_tied_with_them() -> None:
    state = BullCards(0, {"Anna": 4, "Ben": 4, "Cem": 2})
    assert steal_candidates(state, "Anna") == ("Ben",)
    assert dict(take_pile(state, "Anna", 3).holders) == {"Anna": 5, "Ben": 3, "Cem": 2}
    due = bull_card_source(state, "Anna")
    assert (due.source, due.candidates, due.most, due.taker_among_most) == (
        BullCardSource.PLAYER, ("Ben",), 4, True)
    three = BullCards(0, {"Anna": 3, "Ben": 3, "Cem": 3, "Dora": 1})
    assert steal_candidates(three, "Anna") == ("Ben", "Cem")
    assert bull_card_source(three, "Anna").source is BullCardSource.CHOICE


def test_stealing_a_bull_card_is_optional() -> None:
    state = BullCards(0, {"Anna": 6, "Ben": 3, "Cem": 1})
    assert take_pile(state, "Cem", 4, steal=False) == state
    supply = BullCards(9, {"Anna": 1, "Ben": 0})
    assert dict(take_pile(supply, "Ben", 3, steal=False).holders) == {"Anna": 1, "Ben": 1}


def test_with_a_supply_the_bull_card_comes_from_it_whoever_holds_the_most() -> None:
    due = bull_card_source(BullCards(1, {"Anna": 6, "Ben": 3}), "Ben")
    assert (due.source, due.candidates, due.taker_among_most) == (
        BullCardSource.SUPPLY, (), False)


def test_a_steal_choice_is_ignored_while_the_supply_has_bull_cards() -> None:
    state = BullCards(9, {"Anna": 1, "Ben": 0})
    assert steal_candidates(state, "Ben") == ()
    assert dict(take_pile(state, "Ben", 3, steal_from="Anna").holders) == {"Anna": 1, "Ben": 1}


def test_bull_cards_go_back_to_the_supply_for_the_next_deal() -> None:
    state = BullCards(0, {"Anna": 6, "Ben": 4})
    assert state.reset() == BullCards.start(["Anna", "Ben"])


@pytest.mark.parametrize(
    ("supply", "holders", "message"),
    [
        (9, {"Anna": 0}, "exactly 10 bull cards, not 9"),
        (11, {"Anna": -1}, "cannot be negative"),
        (10, {}, "needs the players"),
    ],
)
def test_the_tracker_rejects_impossible_bull_card_counts(
    supply: int, holders: dict[str, int], message: str
) -> None:
    with pytest.raises(ScoringError, match=message):
        BullCards(supply, holders)


def test_the_tracker_rejects_unknown_players_and_empty_piles() -> None:
    state = BullCards.start(["Anna", "Ben"])
    with pytest.raises(ScoringError, match="Cem does not play"):
        take_pile(state, "Cem", 3)
    with pytest.raises(ScoringError, match="at least one card"):
        take_pile(state, "Anna", 0)


def test_in_the_game_a_take_with_an_empty_supply_lists_one_action_per_tied_player() -> None:
    game = table([(40,), (50,), (60,)], [(1, 2, 3), (70,)], bull_cards=(0, 5, 5), supply=0)
    takes = [action for action in legal_actions(game) if isinstance(action, TakePile)]
    assert takes == [
        TakePile(0, "Ben"), TakePile(0, "Cem"), TakePile(0, steal=False), TakePile(1),
    ]
    after = apply(game, TakePile(0, "Cem"))
    assert after.table.bull_cards == (1, 5, 4)
    with pytest.raises(ScoringError, match="choose whom"):
        apply(game, TakePile(0))


def test_in_the_game_a_taker_may_decline_to_steal_a_bull_card() -> None:
    game = table([(40,), (50,), (60,)], [(1, 2, 3), (70,)], bull_cards=(0, 6, 4), supply=0)
    takes = [action for action in legal_actions(game) if isinstance(action, TakePile)]
    assert takes == [TakePile(0, "Ben"), TakePile(0, steal=False), TakePile(1)]
    assert apply(game, TakePile(0, steal=False)).table.bull_cards == (0, 6, 4)
    assert apply(game, TakePile(0)).table.bull_cards == (1, 5, 4)
    with pytest.raises(ScoringError, match="declined steal names nobody"):
        apply(game, TakePile(0, "Ben", steal=False))


def test_in_the_game_a_taker_alone_with_the_most_has_only_the_plain_take() -> None:
    game = table([(40,), (50,), (60,)], [(1, 2, 3), (70,)], bull_cards=(6, 4, 0), supply=0)
    takes = [action for action in legal_actions(game) if isinstance(action, TakePile)]
    assert takes == [TakePile(0), TakePile(1)]
    assert apply(game, TakePile(0)).table.bull_cards == (6, 4, 0)


def test_a_bull_card_is_not_spent_by_playing_several_cards() -> None:
    game = table([(11, 12, 13, 80), (90,)], [(10,), (50,)], bull_cards=(1, 0), supply=9)
    after = apply(game, PlayCards(0, (11, 12, 13)))
    assert after.table.bull_cards == (1, 0)
    assert after.table.tops == (13, 50)
    assert after.table.to_move == 1


def test_with_two_bull_cards_a_turn_puts_cards_on_two_piles_or_ends_early() -> None:
    game = table([(11, 12, 51, 52, 90), (95,)], [(10,), (50,), (85,)],
                 bull_cards=(2, 0), supply=8)
    game = apply(game, PlayCards(0, (11, 12)))
    assert game.table.to_move == 0
    assert game.table.piles_played == (0,)
    actions = legal_actions(game)
    assert EndTurn() in actions
    assert not any(isinstance(action, TakePile) for action in actions)
    assert all(action.pile != 0 for action in actions if isinstance(action, PlayCards))
    with pytest.raises(ScoringError, match="already went on pile 0"):
        apply(game, PlayCards(0, (51,)))
    ended = apply(game, EndTurn())
    assert ended.table.to_move == 1
    assert ended.table.piles_played == ()
    game = apply(game, PlayCards(2, (90,)))
    assert game.table.to_move == 1
    assert game.table.tops == (12, 50, 90)


def test_a_bull_card_play_ends_by_itself_when_no_other_pile_fits() -> None:
    game = table([(11, 12, 70), (95,)], [(10,), (50,)], bull_cards=(3, 0), supply=7)
    assert apply(game, PlayCards(0, (11,))).table.to_move == 1


def test_after_a_take_two_new_piles_are_turned_up() -> None:
    game = table([(40,), (60,)], [(1, 2)], draw=(77, 33, 45))
    after = apply(game, TakePile(0))
    assert after.table.tops == (77, 33)
    assert after.table.draw[0] == 45


def test_with_one_card_left_to_draw_only_one_new_pile_is_turned_up() -> None:
    others = tuple(c for c in range(4, 101) if c not in (40, 70, 99))
    game = GameState(("Anna", "Ben"), Deck.standard(), 0, Table(
        ((3, 40), others), ((1, 2), (70,)), (99,), (0, 0), 10, 0,
    ))
    after = apply(game, TakePile(0))
    assert after.table.tops == (70, 99)
    assert after.table.draw == ()
    assert after.table.hands[0] == (1, 2, 3, 40)


def test_taking_the_last_pile_with_an_empty_draw_pile_ends_the_deal_for_everyone() -> None:
    first = tuple(range(1, 41))
    second = tuple(range(41, 98))
    game = GameState(("Anna", "Ben"), Deck.standard(), 0, Table(
        (first, second), ((98, 99, 100),), (), (0, 0), 10, 1,
    ))
    after = apply(game, TakePile(0))
    assert after.table.piles == ()
    assert after.phase is Phase.DEAL_OVER
    assert legal_actions(after) == ()
    result = after.results[-1]
    assert result.went_out is None
    assert dict(result.scores) == {"Anna": 64, "Ben": 103}
    assert sum(result.scores.values()) == 167
    assert score_deal(result.entries) == dict(result.scores)
    with pytest.raises(ScoringError, match="nobody is to move"):
        apply(after, TakePile(0))


def test_the_deal_ends_when_a_player_puts_down_the_last_card() -> None:
    game = table([(11,), (55, 30)], [(10,)])
    after = apply(game, PlayCards(0, (11,)))
    assert after.phase is Phase.DEAL_OVER
    assert after.results[-1].went_out == "Anna"
    assert dict(after.results[-1].scores) == {"Anna": 0, "Ben": 10}
    assert after.results[-1].entries["Ben"] == Entry(hand=10, hand_cards=(30, 55))


def test_the_player_with_the_most_minus_points_starts_the_next_deal() -> None:
    game = table([(11,), (55,), (30, 20)], [(10,)])
    after = apply(game, PlayCards(0, (11,)))
    assert dict(after.results[-1].scores) == {"Anna": 0, "Ben": 7, "Cem": 6}
    following = start_next_deal(after, range(1, 101))
    assert following.starter == 1
    assert following.table.to_move == 1
    assert following.table.supply == 10
    assert following.deal_number == 2
    assert following.totals == {"Anna": 0, "Ben": 7, "Cem": 6}


def test_a_game_has_as_many_deals_as_players_and_then_is_over() -> None:
    game = table([(11,), (55,)], [(10,)])
    after = apply(game, PlayCards(0, (11,)))
    second = start_next_deal(after, range(1, 101))
    ended = GameState(second.players, second.deck, second.starter,
                      Table(((12,), (56,), ), ((11,),), tuple(
                          c for c in range(1, 101) if c not in (11, 12, 56)), (0, 0), 10, 0),
                      second.results)
    last = apply(ended, PlayCards(0, (12,)))
    assert last.phase is Phase.GAME_OVER
    assert last.totals == {"Anna": 0, "Ben": 7 + 1}
    with pytest.raises(ScoringError, match="all 2 deals are played"):
        start_next_deal(last, range(1, 101))


def test_the_first_deal_deals_ten_cards_each_and_turns_up_one_pile() -> None:
    game = start_game(("Anna", "Ben", "Cem"), range(100, 0, -1), starter="Cem")
    assert game.table.hands[0] == tuple(range(91, 101))
    assert game.table.hands[2] == tuple(range(71, 81))
    assert game.table.piles == ((70,),)
    assert game.table.draw[:2] == (69, 68)
    assert len(game.table.draw) == 69
    assert game.table.to_move == 2
    assert game.bull_tracker == BullCards.start(("Anna", "Ben", "Cem"))


def test_illegal_actions_are_refused_with_a_reason() -> None:
    game = table([(11, 12, 50), (90,)], [(10,), (40,)])
    with pytest.raises(ScoringError, match="Without a bull card you put down exactly one card"):
        apply(game, PlayCards(0, (11, 12)))
    with pytest.raises(ScoringError, match="Card 50 does not fit on the pile with 10"):
        apply(game, PlayCards(0, (50,)))
    with pytest.raises(ScoringError, match="Card 90 is not in the hand"):
        apply(game, PlayCards(1, (90,)))
    with pytest.raises(ScoringError, match="There is no pile 5"):
        apply(game, TakePile(5))
    with pytest.raises(ScoringError, match="Play a card or take a pile"):
        apply(game, EndTurn())


@pytest.mark.parametrize(
    ("order", "message"),
    [
        (list(range(1, 100)), "all 100 cards, not 99"),
        ([1, *range(1, 100)], "Card 1 appears twice"),
        ([0, *range(1, 100)], "There is no card 0"),
    ],
)
def test_a_game_needs_a_complete_shuffled_deck(order: list[int], message: str) -> None:
    with pytest.raises(ScoringError, match=message):
        start_game(("Anna", "Ben"), order)


def test_a_game_needs_2_to_7_distinct_players() -> None:
    with pytest.raises(ScoringError, match="played by 2 to 7 players, not 8"):
        start_game([f"P{i}" for i in range(8)], range(1, 101))
    with pytest.raises(ScoringError, match="appears twice"):
        start_game(["Anna", "Anna"], range(1, 101))
    with pytest.raises(ScoringError, match="Cem does not play"):
        start_game(["Anna", "Ben"], range(1, 101), starter="Cem")


def test_a_table_that_loses_a_card_is_refused() -> None:
    with pytest.raises(ScoringError, match="1 are missing"):
        Table(((1,), (2,)), ((3,),), tuple(range(5, 101)), (0, 0), 10, 0)
    with pytest.raises(ScoringError, match="Card 3 appears twice"):
        Table(((1, 3), (2,)), ((3,),), tuple(range(4, 101)), (0, 0), 10, 0)


# --- Contract helpers ---------------------------------------------------------------------


def test_hand_penalty_adds_the_hornochsen_of_the_cards() -> None:
    assert hand_penalty([55, 11, 10, 5, 1]) == 7 + 5 + 3 + 2 + 1
    assert hand_penalty([]) == 0
    assert hand_penalty(range(1, 101)) == 167


def test_a_group_may_describe_its_own_deck() -> None:
    deck = Deck.from_mapping({1: 7, 55: 1})
    assert deck.total == 167 + 6 - 6
    assert hand_penalty([1, 55], deck=deck) == 8
    assert score_deal({"Anna": Entry(hand_cards=(1,)), "Ben": Entry(went_out=True)},
                      deck=deck) == {"Anna": 7, "Ben": 0}


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6, 7])
def test_a_game_has_one_deal_per_player(players: int) -> None:
    assert deals(players) == players
    assert deal_count(players) == players
    assert rules_for("elf-nimmt").deal_count(players) == players


@pytest.mark.parametrize("players", [0, 1, 8])
def test_deal_count_refuses_player_counts_outside_2_to_7(players: int) -> None:
    with pytest.raises(ScoringError, match=f"2 to 7 players, not {players}"):
        deal_count(players)


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: distance(0, 5), "There is no card 0"),
        (lambda: distance(50, 101), "There is no card 101"),
        (lambda: distance(50, 50), "cannot lie on itself"),
        (lambda: can_play(True, 5), "There is no card True"),
        (lambda: can_play_all(40, [41, 41]), "Card 41 appears twice"),
        (lambda: hand_penalty([3, 3]), "Card 3 appears twice"),
        (lambda: hand_penalty("12"), "list of card numbers"),
        (lambda: legal_piles([10, 10], 12), "Card 10 appears twice"),
        (lambda: check_play([10], {0: [11]}, -1), "cannot be negative"),
        (lambda: check_play([10], {0: [200]}, 1), "There is no card 200"),
        (lambda: must_take([10], [10, 20]), "both in the hand and on the table"),
    ],
)
def test_bad_input_raises_a_scoring_error_with_a_clear_message(call, message: str) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(ScoringError, match=message):
        call()


# --- Recording: entries, validation, scoring ---------------------------------------------


def test_score_deal_counts_the_hornochsen_on_hand_and_zero_for_who_went_out() -> None:
    entries = {
        "Anna": Entry(hand=12),
        "Ben": Entry(went_out=True),
        "Cem": Entry(hand_cards=(55, 66, 1)),
        "Dana": Entry(hand=3, hand_cards=(10,)),
    }
    assert score_deal(entries) == {"Anna": 12, "Ben": 0, "Cem": 13, "Dana": 3}


def test_match_totals_add_the_deals_up() -> None:
    first = {"Anna": Entry(went_out=True), "Ben": Entry(hand=8)}
    second = {"Anna": Entry(hand=5), "Ben": Entry(went_out=True, hand_cards=())}
    assert match_totals("elf-nimmt", [first, second]) == {"Anna": 5, "Ben": 8}


@pytest.mark.parametrize(
    ("entries", "message"),
    [
        ({"Anna": Entry(hand=3), "Ben": Entry(hand=4)},
         "Nobody went out, but the hands show only 7 of the 167 Hornochsen: a deal ends when "
         "one player goes out, or, blocked, with every card in the hands."),
        ({"Anna": Entry(went_out=True), "Ben": Entry(went_out=True)},
         "Only one player can go out, the deal ends at once: Anna, Ben are marked."),
        ({"Anna": Entry(went_out=True, hand=2), "Ben": Entry(hand=4)},
         "Anna: A player who went out has no cards left, so no Hornochsen (not 2)."),
        ({"Anna": Entry(went_out=True, hand_cards=(5,)), "Ben": Entry(hand=4)},
         "Anna: A player who went out has no cards left, so no Hornochsen (not 2)."),
        ({"Anna": Entry(went_out=True), "Ben": Entry(hand=0)},
         "Ben did not go out, so they still hold a card and at least one Hornochse."),
        ({"Anna": Entry(went_out=True), "Ben": Entry(hand=100), "Cem": Entry(hand=68)},
         "The hands show 168 Hornochsen, but all cards together show only 167."),
        ({"Anna": Entry(went_out=True), "Ben": Entry(hand_cards=(1, 2)),
          "Cem": Entry(hand_cards=(2, 3))},
         "Card 2 is in the hands of both Ben and Cem."),
        ({"Anna": Entry(went_out=True), "Ben": Entry(hand=9, hand_cards=(55, 3))},
         "Ben: 9 Hornochsen were entered, but the cards 3, 55 show 8."),
        ({"Anna": Entry(went_out=True), "Ben": Entry(hand_cards=(0,))},
         "Ben: There is no card 0: cards go from 1 to 100."),
        ({"Anna": Entry(went_out=True), "Ben": Entry(hand=-2)},
         "Ben: The Hornochsen on hand are a whole number of 0 or more, not -2."),
        ({"Anna": Entry(went_out=True)}, "11 nimmt! is played by 2 to 7 players, not 1."),
        ({f"P{i}": Entry(hand=1) for i in range(7)} | {"P7": Entry(went_out=True)},
         "11 nimmt! is played by 2 to 7 players, not 8."),
    ],
)
def test_validate_deal_rejects_impossible_deals(entries: dict[str, Entry], message: str) -> None:
    with pytest.raises(ScoringError) as caught:
        validate_deal(entries)
    assert str(caught.value) == message
    with pytest.raises(ScoringError):
        score_deal(entries)


def test_an_entry_error_keeps_its_template_and_names_the_player() -> None:
    with pytest.raises(ScoringError) as caught:
        validate_deal({"Anna": Entry(went_out=True), "Ben": Entry(hand=9, hand_cards=(55, 3))})
    assert caught.value.code == "hand_disagrees"
    assert caught.value.template == (
        "{hand} Hornochsen were entered, but the cards {cards} show {counted}."
    )
    assert caught.value.params == {"hand": 9, "cards": "3, 55", "counted": 8, "player": "Ben"}


def test_167_hornochsen_in_hands_are_the_most_a_deal_allows() -> None:
    validate_deal({"Anna": Entry(went_out=True), "Ben": Entry(hand=100), "Cem": Entry(hand=67)})


def test_a_blocked_deal_with_every_card_in_hand_is_valid_without_anyone_out() -> None:
    entries = {"Anna": Entry(hand=100), "Ben": Entry(hand=67)}
    assert score_deal(entries) == {"Anna": 100, "Ben": 67}
    listed = {"Anna": Entry(hand_cards=tuple(range(1, 51))),
              "Ben": Entry(hand_cards=tuple(range(51, 101)))}
    assert sum(score_deal(listed).values()) == 167


def test_entries_survive_the_json_round_trip() -> None:
    for entry in (Entry(), Entry(hand=8, hand_cards=(3, 55)), Entry(went_out=True)):
        assert entry_from_dict(entry_to_dict(entry)) == entry
    assert entry_to_dict(Entry(hand=4)) == {"hand": 4, "hand_cards": None, "went_out": False}


def test_entry_from_dict_tolerates_missing_keys_and_sorts_the_cards() -> None:
    assert entry_from_dict({}) == Entry()
    assert entry_from_dict({"went_out": True}) == Entry(went_out=True)
    assert entry_from_dict({"hand_cards": [55, 3]}) == Entry(hand_cards=(3, 55))


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"hand": "7"}, "whole number of 0 or more, not '7'"),
        ({"hand": True}, "whole number of 0 or more, not True"),
        ({"hand": -1}, "whole number of 0 or more, not -1"),
        ({"hand": 2.5}, "whole number of 0 or more, not 2.5"),
        ({"hand_cards": "3,55"}, "list of card numbers"),
        ({"hand_cards": [3, 3]}, "Card 3 appears twice"),
        ({"hand_cards": [101]}, "There is no card 101"),
        ({"went_out": "yes"}, "'Went out' must be yes or no"),
        ({"went_out": True, "hand": 3}, "no Hornochsen"),
        ({"hand": 1, "cards": [1]}, "Unknown entry fields: cards"),
        ({"hand": 9, "hand_cards": [55, 3]}, "the cards 3, 55 show 8"),
    ],
)
def test_entry_from_dict_rejects_bad_data(data: dict[str, object], message: str) -> None:
    with pytest.raises(ScoringError, match=message):
        entry_from_dict(data)


def test_entry_from_dict_rejects_a_non_mapping() -> None:
    with pytest.raises(ScoringError, match="mapping of fields"):
        entry_from_dict([1, 2])  # type: ignore[arg-type]


def test_validate_deal_rejects_entries_of_another_type() -> None:
    with pytest.raises(ScoringError, match="not an 11 nimmt! entry"):
        validate_deal({"Anna": Entry(went_out=True), "Ben": {"hand": 3}})  # type: ignore[dict-item]


# --- Next starter ---------------------------------------------------------------------------


def test_the_next_deal_starts_with_the_most_minus_points() -> None:
    assert next_starter({"Anna": 3, "Ben": 0, "Cem": 19}, ["Anna", "Ben", "Cem"]) == "Cem"


def test_a_tie_for_the_most_minus_points_goes_to_the_first_in_seat_order() -> None:
    assert next_starter({"Anna": 3, "Ben": 9, "Cem": 9}, ["Cem", "Anna", "Ben"]) == "Cem"
    assert next_starter({"Anna": 9, "Ben": 9, "Cem": 0}, ["Cem", "Ben", "Anna"]) == "Ben"


@pytest.mark.parametrize(
    ("scores", "seats", "message"),
    [
        ({"Anna": 3}, ["Anna", "Ben"], "Minus points are missing for Ben"),
        ({"Anna": 3, "Ben": 1, "Cem": 2}, ["Anna", "Ben"], "Cem do not sit at this table"),
        ({"Anna": 3, "Ben": 1}, ["Anna", "Anna"], "appears twice"),
        ({"Anna": -3, "Ben": 1}, ["Anna", "Ben"], "cannot be negative"),
        ({}, [], "must list the players"),
    ],
)
def test_next_starter_rejects_scores_that_do_not_match_the_table(
    scores: dict[str, int], seats: list[str], message: str
) -> None:
    with pytest.raises(ScoringError, match=message):
        next_starter(scores, seats)


# --- Random games ---------------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6, 7])
def test_a_random_game_records_every_deal_and_its_totals_match_the_recording(
    players: int,
) -> None:
    game = random_game(players, random.Random(players))
    assert len(game.deals) == players
    assert game.players == tuple(f"P{i}" for i in range(1, players + 1))
    assert match_totals("elf-nimmt", game.deals) == dict(game.totals)


def test_random_games_with_the_same_seed_are_the_same() -> None:
    assert random_game(4, random.Random(11)) == random_game(4, random.Random(11))


class ScriptedRandom(random.Random):
    """Hands out the given numbers from ``random()``, in order."""

    def __init__(self, numbers: list[float]) -> None:
        super().__init__(0)
        self.numbers = numbers

    def random(self) -> float:
        return self.numbers.pop(0)


def policy_step(state: GameState, numbers: list[float]) -> Table:
    """One move of random_game's policy on ``state``, drawing from ``numbers``."""
    core = state.table._core()
    core.random_step(ScriptedRandom(numbers))
    return Table._of(core)


def test_the_random_policy_first_picks_a_pile_then_one_of_its_actions() -> None:
    state = table([(34, 35, 90), (1, 2, 3)], [(33,), (70,)])
    # Pile 0 (33) offers: take it, play 34, play 35; the third number is left over.
    numbers = [0.1, 0.9, 0.5]
    assert policy_step(state, numbers).tops == (35, 70)
    assert numbers == [0.5]
    numbers = [0.1, 0.2, 0.5]
    assert policy_step(state, numbers).hands[0] == (33, 34, 35, 90)
    # Pile 1 (70) only offers the take: no second number is drawn.
    numbers = [0.6, 0.5]
    after = policy_step(state, numbers)
    assert after.hands[0] == (34, 35, 70, 90)
    assert numbers == [0.5]


def test_during_a_bull_card_play_the_policy_picks_an_open_pile_or_the_end_of_the_turn() -> None:
    state = table([(34, 35, 72, 90), (1, 2, 3)], [(33,), (70,), (50,)], bull_cards=(2, 0),
                  supply=8)
    state = apply(state, PlayCards(0, (34,)))
    assert state.table.piles_played == (0,)
    # Open: pile 1 (72 fits); pile 2 (50) fits nothing; then the end of the turn.
    numbers = [0.4, 0.5]
    assert policy_step(state, numbers).tops == (34, 72, 50)
    assert numbers == [0.5]  # one play on pile 1: no second number
    numbers = [0.6, 0.5]
    ended = policy_step(state, numbers)
    assert (ended.tops, ended.to_move, ended.piles_played) == ((34, 70, 50), 1, ())

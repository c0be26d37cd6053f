"""X nimmt!: the rules' worked examples, edge cases, validation and error cases."""

from __future__ import annotations

import random

import pytest

from scoring import ScoringError, x_nimmt
from scoring.common import match_totals, rules_for
from scoring.x_nimmt import (
    ChoiceKind,
    ChooseRow,
    ChooseXCard,
    DealSetup,
    Deck,
    Entry,
    Phase,
    PlacementRule,
    PlayCard,
    add_to_x_row,
    apply,
    card_places,
    deal_count,
    deal_penalty,
    entry_from_dict,
    entry_to_dict,
    legal_actions,
    new_game,
    play,
    resolve_round,
    score_deal,
    validate_deal,
)

# ---------------------------------------------------------------------------
# Worked examples of the rules file (and the rulebook's examples)
# ---------------------------------------------------------------------------


def test_deal_scoring_example_hand_5_and_x_stack_9_gives_23() -> None:
    assert score_deal({"Anna": Entry(hand=5, x_stack=9), "Ben": Entry()}) == {
        "Anna": 23,
        "Ben": 0,
    }


def test_deal_scoring_example_by_card_numbers_gives_23() -> None:
    # 1, 2, 3, 4, 6 carry one Hornochse each; 10, 20, 30 carry three each.
    assert deal_penalty(hand=[1, 2, 3, 4, 6], x_stack=[10, 20, 30]) == 23


def test_example_1_the_18_and_the_22_go_to_the_middle_row_and_the_60_to_the_bottom() -> None:
    result = resolve_round([[70], [12], [52]], {"Anna": 18, "Ben": 22, "Cem": 60})
    assert [(step.card, step.row, step.rule) for step in result.steps] == [
        (18, 1, PlacementRule.ASCENDING),
        (22, 1, PlacementRule.ASCENDING),
        (60, 2, PlacementRule.ASCENDING),
    ]
    assert result.rows == ((70,), (12, 18, 22), (52, 60))


def test_example_2_the_59_fills_the_middle_row_and_its_player_takes_its_three_cards() -> None:
    placement = play([[5, 8], [15, 18, 22], [60]], 59)
    assert placement.row == 1
    assert placement.rule is PlacementRule.FULL_ROW
    assert placement.taken == (15, 18, 22)
    assert placement.rows == ((5, 8), (59,), (60,))


def test_example_2_as_a_round_the_81_and_the_94_follow_in_the_bottom_row() -> None:
    result = resolve_round(
        [[5, 8], [15, 18, 22], [60]], {"Anna": 59, "Ben": 81, "Cem": 94}, x_choices={59: 18}
    )
    first = result.steps[0]
    assert (first.player, first.taken, first.to_x_row, first.to_hand) == (
        "Anna", (15, 18, 22), 18, (15, 22),
    )
    assert result.rows == ((5, 8), (59,), (60, 81, 94))
    assert result.complete


def test_example_3_the_43_is_too_low_and_its_player_takes_the_middle_row_holding_only_59() -> None:
    placement = play([[48, 50], [59], [60, 81, 94]], 43, choose_row=1)
    assert placement.rule is PlacementRule.LOW_CARD
    assert placement.taken == (59,)
    assert placement.rows == ((48, 50), (43,), (60, 81, 94))


def test_example_3_as_a_round_the_single_taken_card_goes_to_the_x_row_by_itself() -> None:
    result = resolve_round(
        [[48, 50], [59], [60, 81, 94]], {"Anna": 43, "Ben": 66, "Cem": 89},
        row_choices={43: 1},
    )
    (anna,) = result.steps
    assert (anna.taken, anna.to_x_row, anna.to_hand) == ((59,), 59, ())
    # 66 is the 3rd card of the 3-row: Ben takes 48 and 50 and must pick his X-card.
    assert result.pending is not None
    assert (result.pending.kind, result.pending.player, result.pending.options) == (
        ChoiceKind.X_CARD, "Ben", (48, 50),
    )
    assert result.waiting == (66, 89)


def test_example_4_of_three_taken_cards_one_goes_to_the_x_row_and_two_to_the_hand() -> None:
    result = resolve_round(
        [[5, 8], [15, 18, 23], [60]], {"Anna": 59, "Ben": 81}, x_choices={59: 15},
        x_rows={},
    )
    step = result.steps[0]
    assert (step.to_x_row, step.to_hand) == (15, (18, 23))
    assert step.x_row is not None
    assert (step.x_row.before, step.x_row.after, step.x_row.to_x_stack) == ((), (15,), ())


def test_example_5_a_lower_card_sends_the_x_row_to_the_x_stack_and_starts_a_new_x_row() -> None:
    # Anna's X-row is 15, 40; she takes 20 and 30, both lower than 40.
    result = resolve_round(
        [[20, 30], [5], [60]], {"Anna": 35, "Ben": 81}, x_choices={35: 20},
        x_rows={"Anna": [15, 40]},
    )
    step = result.steps[0]
    assert step.x_row is not None
    assert (step.x_row.after, step.x_row.to_x_stack, step.to_hand) == ((20,), (15, 40), (30,))
    assert result.x_rows == {"Anna": (20,), "Ben": ()}
    assert result.x_stacks == {"Anna": (15, 40), "Ben": ()}


# ---------------------------------------------------------------------------
# Placement rules and their edge cases
# ---------------------------------------------------------------------------


def test_a_card_goes_to_the_row_with_the_smallest_positive_difference() -> None:
    assert play([[30], [45], [20]], 50).rows == ((30,), (45, 50), (20,))


def test_a_card_skips_rows_that_end_above_it() -> None:
    assert play([[30], [70], [20]], 50).rows == ((30, 50), (70,), (20,))


@pytest.mark.parametrize(
    ("rows", "card", "row", "taken"),
    [
        ([[10, 11], [50], [70]], 12, 0, (10, 11)),
        ([[90], [10, 11, 12], [70]], 13, 1, (10, 11, 12)),
        ([[90], [80], [10, 11, 12, 13]], 14, 2, (10, 11, 12, 13)),
    ],
    ids=["3-row-full-with-its-3rd-card", "4-row-with-its-4th", "5-row-with-its-5th"],
)
def test_a_row_is_full_with_the_card_its_row_card_names(
    rows: list[list[int]], card: int, row: int, taken: tuple[int, ...]
) -> None:
    placement = play(rows, card)
    assert (placement.row, placement.taken, placement.rule) == (row, taken, PlacementRule.FULL_ROW)
    assert placement.rows[row] == (card,)


def test_a_row_one_card_short_of_full_still_takes_the_card() -> None:
    placement = play([[90], [80], [10, 11, 12]], 13)
    assert (placement.taken, placement.rows[2]) == ((), (10, 11, 12, 13))


def test_the_played_card_itself_is_never_taken() -> None:
    placement = play([[10], [20], [30]], 5, choose_row=2)
    assert placement.taken == (30,)
    assert 5 not in placement.taken


def test_a_low_card_may_take_any_row_even_the_longest() -> None:
    placement = play([[40, 41], [50, 51, 52], [60, 61, 62, 63]], 7, choose_row=2)
    assert placement.taken == (60, 61, 62, 63)
    assert placement.rows == ((40, 41), (50, 51, 52), (7,))


def test_a_low_card_without_a_chosen_row_is_refused() -> None:
    with pytest.raises(ScoringError, match="lower than every row's last card"):
        play([[40], [50], [60]], 7)


def test_a_chosen_row_is_ignored_when_the_card_fits_a_row() -> None:
    assert play([[40], [50], [60]], 45, choose_row=2) == play([[40], [50], [60]], 45)


def test_the_row_sizes_are_3_4_and_5() -> None:
    assert x_nimmt.ROW_SIZES == (3, 4, 5)


def test_an_x_row_grows_while_its_cards_ascend() -> None:
    assert add_to_x_row([], 40) == ((40,), ())
    assert add_to_x_row([18, 23], 40) == ((18, 23, 40), ())


def test_later_x_row_cards_go_onto_the_same_x_stack() -> None:
    setup = DealSetup((40, 50, 60), (tuple(range(1, 9)), tuple(range(11, 19))))
    state = new_game(["Anna", "Ben"], [setup, setup])
    for anna, ben, row in ((5, 11, 2), (4, 12, 0), (3, 13, 1), (2, 14, 0)):
        state = apply(apply(state, PlayCard("Anna", anna)), PlayCard("Ben", ben))
        state = apply(state, ChooseRow("Anna", row))
    # Anna's X-row went 60 → (stack 60) 40 → 40, 50 → (stack 40, 50) 4.
    assert (state.seats[0].x_row, state.seats[0].x_stack) == ((4,), (60, 40, 50))
    # Ben's 14 was the 5th card of the 5-row: he took 5, 11, 12, 13.
    assert state.phase is Phase.CHOOSE_X_CARD
    assert state.taken == (5, 11, 12, 13)


def test_the_x_row_counts_no_minus_points() -> None:
    assert Entry(hand_cards=(), x_stack_cards=()).minus_points == 0


# ---------------------------------------------------------------------------
# The round resolver
# ---------------------------------------------------------------------------


def test_cards_are_resolved_strictly_lowest_first_whatever_the_order_of_players() -> None:
    result = resolve_round([[10], [20], [30]], {"Cem": 33, "Anna": 31, "Ben": 32})
    assert [step.card for step in result.steps] == [31, 32, 33]
    assert [step.player for step in result.steps] == ["Anna", "Ben", "Cem"]


def test_a_row_choice_is_made_before_the_next_card_is_placed() -> None:
    plays = {"Anna": 5, "Ben": 45}
    keep_40 = resolve_round([[40], [50], [60]], plays, row_choices={5: 1})
    take_40 = resolve_round([[40], [50], [60]], plays, row_choices={5: 0})
    assert keep_40.rows == ((40, 45), (5,), (60,))
    assert take_40.rows == ((5, 45), (50,), (60,))


def test_the_resolver_asks_for_the_row_of_a_low_card_and_shows_the_steps_before_it() -> None:
    result = resolve_round([[40], [50], [60]], {"Anna": 45, "Ben": 7, "Cem": 70})
    assert result.steps == ()
    assert result.pending is not None
    assert (result.pending.kind, result.pending.player, result.pending.card) == (
        ChoiceKind.ROW, "Ben", 7,
    )
    assert result.pending.options == (0, 1, 2)
    assert result.waiting == (7, 45, 70)
    assert not result.complete


def test_the_resolver_asks_for_the_x_card_with_the_taken_cards_as_options() -> None:
    result = resolve_round([[40, 41], [50], [60]], {"Anna": 42, "Ben": 90})
    assert result.pending is not None
    assert (result.pending.kind, result.pending.options, result.pending.row) == (
        ChoiceKind.X_CARD, (40, 41), 0,
    )
    assert result.rows == ((40, 41), (50,), (60,))


def test_the_resolver_reports_every_step_of_a_complete_round() -> None:
    result = resolve_round(
        [[40, 41], [50], [60]], {"Anna": 42, "Ben": 5, "Cem": 61},
        row_choices={5: 1}, x_choices={42: 41}, x_rows={"Anna": [43], "Ben": [20]},
    )
    ben, anna, cem = result.steps
    assert (ben.player, ben.row, ben.rule, ben.taken, ben.to_x_row) == (
        "Ben", 1, PlacementRule.LOW_CARD, (50,), 50,
    )
    assert ben.x_row is not None and ben.x_row.after == (20, 50)
    assert (anna.row, anna.rule, anna.taken, anna.to_x_row, anna.to_hand) == (
        0, PlacementRule.FULL_ROW, (40, 41), 41, (40,),
    )
    assert anna.x_row is not None
    assert (anna.x_row.after, anna.x_row.to_x_stack) == ((41,), (43,))
    assert (cem.row, cem.rule, cem.rows) == (2, PlacementRule.ASCENDING, ((42,), (5,), (60, 61)))
    assert result.x_rows == {"Anna": (41,), "Ben": (20, 50), "Cem": ()}


def test_the_resolver_ignores_choices_for_cards_that_need_none() -> None:
    plain = resolve_round([[40], [50], [60]], {"Anna": 45, "Ben": 55})
    chosen = resolve_round(
        [[40], [50], [60]], {"Anna": 45, "Ben": 55}, row_choices={45: 2}, x_choices={55: 50}
    )
    assert chosen == plain


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"rows": [[40], [50]], "plays": {"A": 1, "B": 2}}, "exactly three rows"),
        ({"rows": [[40], [], [60]], "plays": {"A": 1, "B": 2}}, "The 4-row is empty"),
        ({"rows": [[40, 30], [50], [60]], "plays": {"A": 1, "B": 2}}, "30 follows 40"),
        ({"rows": [[40, 41, 42], [50], [60]], "plays": {"A": 1, "B": 2}},
         "The 3-row holds at most 2"),
        ({"rows": [[40], [50], [60]], "plays": {"A": 0, "B": 2}}, "There is no card 0"),
        ({"rows": [[40], [50], [60]], "plays": {"A": 101, "B": 2}}, "There is no card 101"),
        ({"rows": [[40], [50], [60]], "plays": {"A": 50, "B": 2}}, "Card 50 already lies in a row"),
        ({"rows": [[40], [40], [60]], "plays": {"A": 1, "B": 2}}, "Card 40 appears twice"),
        ({"rows": [[40], [50], [60]], "plays": {"A": 7}}, "2 to 4 players, not 1"),
        ({"rows": [[40], [50], [60]], "plays": {"A": 7, "B": 7}}, "revealed by A and by B"),
        (
            {"rows": [[40], [50], [60]], "plays": {"A": 7, "B": 8}, "row_choices": {9: 1}},
            "nobody revealed it",
        ),
        (
            {"rows": [[40], [50], [60]], "plays": {"A": 7, "B": 8}, "row_choices": {7: 3}},
            "There is no row 3",
        ),
        (
            {"rows": [[40, 41], [50], [60]], "plays": {"A": 42, "B": 70}, "x_choices": {42: 50}},
            "Card 50 cannot go to the X-row",
        ),
        (
            {"rows": [[40], [50], [60]], "plays": {"A": 45, "B": 8}, "x_rows": {"C": [1]}},
            "C has an X-row but revealed no card",
        ),
        (
            {"rows": [[40], [50], [60]], "plays": {"A": 45, "B": 8}, "x_rows": {"A": [9, 3]}},
            "3 follows 9",
        ),
        (
            {"rows": [[40], [50], [60]], "plays": {"A": 45, "B": 8}, "x_rows": {"A": [40]}},
            "Card 40 appears twice",
        ),
    ],
)
def test_the_resolver_rejects_impossible_tables_with_a_clear_message(
    kwargs: dict[str, object], message: str
) -> None:
    with pytest.raises(ScoringError, match=message):
        resolve_round(**kwargs)  # type: ignore[arg-type]


# ---------------------------------------------------------------------------
# Contract functions: bad input
# ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("rows", "card", "message"),
    [
        ([[40], [50], [60]], 0, "There is no card 0"),
        ([[40], [50], [60]], 50, "Card 50 already lies in a row"),
        ([[40], [50], [60]], True, "There is no card True"),
        ([[40], [50, 51, 52, 53], [60]], 70, "The 4-row holds at most 3"),
        ("abc", 5, "exactly three rows"),
    ],
)
def test_play_rejects_bad_input(rows: object, card: object, message: str) -> None:
    with pytest.raises(ScoringError, match=message):
        play(rows, card)  # type: ignore[arg-type]


def test_play_rejects_a_row_choice_that_is_no_row() -> None:
    with pytest.raises(ScoringError, match="There is no row 3"):
        play([[40], [50], [60]], 5, choose_row=3)


def test_add_to_x_row_rejects_a_card_already_in_the_x_row() -> None:
    with pytest.raises(ScoringError, match="Card 23 already lies in the X-row"):
        add_to_x_row([18, 23], 23)


def test_add_to_x_row_rejects_an_x_row_that_does_not_ascend() -> None:
    with pytest.raises(ScoringError, match="18 follows 23"):
        add_to_x_row([23, 18], 40)


def test_deal_penalty_rejects_a_card_in_hand_and_x_stack() -> None:
    with pytest.raises(ScoringError, match="Card 7 appears twice"):
        deal_penalty(hand=[7], x_stack=[7])


def test_play_and_add_to_x_row_do_not_change_their_arguments() -> None:
    rows = [[40, 41], [50], [60]]
    x_row = [18, 23]
    play(rows, 42)
    add_to_x_row(x_row, 9)
    assert rows == [[40, 41], [50], [60]]
    assert x_row == [18, 23]


# ---------------------------------------------------------------------------
# Recording: entries, validation, scoring
# ---------------------------------------------------------------------------


def test_a_match_has_two_deals_for_every_player_count() -> None:
    assert [deal_count(players) for players in (2, 3, 4)] == [2, 2, 2]
    with pytest.raises(ScoringError, match="2 to 4 players, not 5"):
        deal_count(5)


def test_an_entry_by_cards_counts_the_hornochsen_of_its_cards() -> None:
    entry = Entry(hand_cards=(55, 44, 7), x_stack_cards=(10, 15))
    assert (entry.hand_hornochsen, entry.x_stack_hornochsen) == (13, 5)
    assert entry.minus_points == 13 + 2 * 5


def test_cards_win_over_a_zero_count() -> None:
    assert score_deal({"Anna": Entry(hand=0, hand_cards=(55,)), "Ben": Entry()}) == {
        "Anna": 7,
        "Ben": 0,
    }


def test_a_count_that_agrees_with_the_cards_is_accepted() -> None:
    assert score_deal({"Anna": Entry(hand=7, hand_cards=(55,)), "Ben": Entry(x_stack=1)}) == {
        "Anna": 7,
        "Ben": 2,
    }


def test_a_count_that_disagrees_with_the_cards_is_rejected() -> None:
    with pytest.raises(ScoringError, match="Anna: 6 Hornochsen in hand were recorded"):
        validate_deal({"Anna": Entry(hand=6, hand_cards=(55,)), "Ben": Entry()})
    with pytest.raises(ScoringError, match="Ben: 2 Hornochsen in the X-stack were recorded"):
        validate_deal({"Anna": Entry(), "Ben": Entry(x_stack=2, x_stack_cards=(1,))})


def test_a_card_recorded_twice_in_a_deal_is_rejected_naming_the_card() -> None:
    with pytest.raises(ScoringError, match="Card 33 appears more than once in this deal"):
        validate_deal({"Anna": Entry(hand_cards=(33,)), "Ben": Entry(x_stack_cards=(33,))})
    with pytest.raises(ScoringError, match="Card 33 appears more than once in this deal"):
        validate_deal({"Anna": Entry(hand_cards=(33,), x_stack_cards=(33,)), "Ben": Entry()})


def test_a_deal_by_card_numbers_in_which_everybody_still_holds_hand_cards_is_refused() -> None:
    with pytest.raises(ScoringError) as refused:
        validate_deal({"Anna": Entry(hand_cards=(55,)), "Ben": Entry(hand_cards=(10, 20)),
                       "Cem": Entry(hand_cards=(1,), x_stack_cards=(22,))})
    assert refused.value.code == "nobody_out"
    assert str(refused.value) == (
        "Every player still holds hand cards, so this deal has not ended: "
        "a deal ends after a round at whose end someone holds no hand cards.")


def test_a_deal_by_counts_in_which_everybody_still_holds_hornochsen_is_refused() -> None:
    # The same rule as for card numbers: every card carries at least one Hornochse.
    with pytest.raises(ScoringError) as refused:
        validate_deal({"Anna": Entry(hand=3), "Ben": Entry(hand=5, x_stack=7),
                       "Cem": Entry(hand=1)})
    assert refused.value.code == "nobody_out"


def test_a_deal_mixing_counts_and_cards_needs_one_empty_hand() -> None:
    with pytest.raises(ScoringError, match="Every player still holds hand cards"):
        validate_deal({"Anna": Entry(hand=3), "Ben": Entry(hand_cards=(10,))})
    validate_deal({"Anna": Entry(hand=3), "Ben": Entry(hand_cards=(), x_stack_cards=(10,))})
    validate_deal({"Anna": Entry(hand=0, x_stack=4), "Ben": Entry(hand_cards=(10,))})


def test_a_deal_by_card_numbers_with_one_empty_hand_is_accepted() -> None:
    entries = {"Anna": Entry(hand_cards=(55,)), "Ben": Entry(hand_cards=(), x_stack_cards=(22,))}
    assert score_deal(entries) == {"Anna": 7, "Ben": 10}


def test_a_card_number_outside_1_to_100_is_rejected() -> None:
    with pytest.raises(ScoringError, match="There is no card 101"):
        validate_deal({"Anna": Entry(hand_cards=(101,)), "Ben": Entry()})
    with pytest.raises(ScoringError, match="There is no card 0"):
        validate_deal({"Anna": Entry(), "Ben": Entry(x_stack_cards=(0,))})


def test_all_167_hornochsen_of_the_deck_in_one_deal_are_accepted() -> None:
    entries = {
        "Anna": Entry(hand_cards=tuple(range(1, 51))),
        "Ben": Entry(x_stack_cards=tuple(range(51, 101))),
    }
    validate_deal(entries)
    anna = sum(x_nimmt.Deck.standard().of(card) for card in range(1, 51))
    assert score_deal(entries) == {"Anna": anna, "Ben": 2 * (167 - anna)}


def test_more_than_167_hornochsen_in_a_deal_are_rejected() -> None:
    validate_deal({"Anna": Entry(hand=100), "Ben": Entry(x_stack=67)})
    with pytest.raises(ScoringError, match="records 168 Hornochsen"):
        validate_deal({"Anna": Entry(hand=100), "Ben": Entry(x_stack=68)})


def test_negative_counts_are_rejected() -> None:
    with pytest.raises(ScoringError, match="Anna: the Hornochsen in hand cannot be negative"):
        validate_deal({"Anna": Entry(hand=-1), "Ben": Entry()})
    with pytest.raises(ScoringError, match="Ben: the Hornochsen in the X-stack cannot be negative"):
        validate_deal({"Anna": Entry(), "Ben": Entry(x_stack=-3)})


@pytest.mark.parametrize("players", [1, 5])
def test_a_deal_needs_two_to_four_players(players: int) -> None:
    entries = {f"P{i}": Entry() for i in range(players)}
    with pytest.raises(ScoringError, match=f"2 to 4 players, not {players}"):
        validate_deal(entries)


def test_an_entry_of_another_game_is_rejected() -> None:
    with pytest.raises(ScoringError, match="Ben: the entry is not an X nimmt! entry"):
        validate_deal({"Anna": Entry(), "Ben": {"hand": 3}})  # type: ignore[dict-item]


def test_a_count_that_is_no_whole_number_is_rejected() -> None:
    with pytest.raises(ScoringError, match="Anna: the Hornochsen in hand must be a whole number"):
        validate_deal({"Anna": Entry(hand="3"), "Ben": Entry()})  # type: ignore[arg-type]


def test_a_groups_own_deck_counts_its_own_hornochsen() -> None:
    deck = Deck.from_mapping({1: 7})
    entries = {"Anna": Entry(hand_cards=(1,)), "Ben": Entry(x_stack_cards=(2,))}
    assert score_deal(entries, deck=deck) == {"Anna": 7, "Ben": 2}
    assert score_deal(entries) == {"Anna": 1, "Ben": 2}


def test_a_deck_with_an_impossible_number_of_hornochsen_is_rejected() -> None:
    with pytest.raises(ScoringError, match="Card 1 cannot show 4 Hornochsen"):
        Deck.from_mapping({1: 4})


def test_an_entry_survives_the_round_trip_through_json_data() -> None:
    for entry in (
        Entry(),
        Entry(hand=5, x_stack=9),
        Entry(hand_cards=(55, 3), x_stack_cards=()),
        Entry(hand=8, hand_cards=(55, 3), x_stack_cards=(10,)),
    ):
        assert entry_from_dict(entry_to_dict(entry)) == entry


def test_entry_to_dict_writes_every_field() -> None:
    assert entry_to_dict(Entry(hand_cards=(7,))) == {
        "hand": 0,
        "x_stack": 0,
        "hand_cards": [7],
        "x_stack_cards": None,
    }


def test_entry_from_dict_fills_in_missing_fields() -> None:
    assert entry_from_dict({}) == Entry()
    assert entry_from_dict({"x_stack": 4}) == Entry(x_stack=4)


def test_an_entry_given_a_list_of_cards_stores_a_tuple() -> None:
    assert Entry(hand_cards=[3, 4]).hand_cards == (3, 4)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"hand": -1}, "The Hornochsen in hand cannot be negative"),
        ({"x_stack": -2}, "The Hornochsen in the X-stack cannot be negative"),
        ({"hand": "5"}, "The Hornochsen in hand must be a whole number"),
        ({"hand": True}, "The Hornochsen in hand must be a whole number"),
        ({"x_stack": 2.5}, "The Hornochsen in the X-stack must be a whole number"),
        ({"hand_cards": "12"}, "list of card numbers"),
        ({"x_stack_cards": 12}, "list of card numbers"),
        ({"hand_cards": [12, "13"]}, "There is no card 13"),
        ({"hand_cards": [12, 12]}, "Card 12 appears twice"),
        ({"hand_cards": [0]}, "There is no card 0"),
        ({"hand": 1, "points": 3}, "Unknown field"),
        ([1, 2], "must be an object with named fields"),
    ],
)
def test_entry_from_dict_rejects_bad_data(data: object, message: str) -> None:
    with pytest.raises(ScoringError, match=message):
        entry_from_dict(data)  # type: ignore[arg-type]


def test_the_module_is_found_by_its_slug() -> None:
    assert rules_for("x-nimmt") is x_nimmt


def test_match_totals_add_both_deals() -> None:
    deals = [
        {"Anna": Entry(hand=5, x_stack=9), "Ben": Entry(x_stack=1)},
        {"Anna": Entry(hand_cards=(55,)), "Ben": Entry(x_stack_cards=(10,))},
    ]
    assert match_totals("x-nimmt", deals) == {"Anna": 30, "Ben": 8}


# ---------------------------------------------------------------------------
# The game model
# ---------------------------------------------------------------------------

ANNA_BEN = ["Anna", "Ben"]


def _setup(rows: tuple[int, int, int], *hands: range) -> DealSetup:
    return DealSetup(rows, tuple(tuple(hand) for hand in hands))


def test_a_deal_starts_with_one_card_per_row_eight_per_hand_and_the_rest_in_the_box() -> None:
    rng = random.Random(3)
    setups = [x_nimmt.random_setup(3, rng), x_nimmt.random_setup(3, rng)]
    state = new_game(["Anna", "Ben", "Cem"], setups)
    assert [len(row) for row in state.rows] == [1, 1, 1]
    assert [len(seat.hand) for seat in state.seats] == [8, 8, 8]
    assert len(state.box) == 100 - 3 - 24
    assert state.phase is Phase.CHOOSE_CARDS
    assert state.to_act() == ("Anna", "Ben", "Cem")


def test_every_player_may_choose_any_hand_card_at_the_start_of_a_round() -> None:
    state = new_game(ANNA_BEN, [_setup((40, 50, 60), range(1, 9), range(11, 19))] * 2)
    actions = legal_actions(state)
    assert len(actions) == 16
    assert PlayCard("Anna", 8) in actions and PlayCard("Ben", 11) in actions


def test_a_face_down_card_waits_until_every_player_has_chosen() -> None:
    state = new_game(ANNA_BEN, [_setup((40, 50, 60), range(1, 9), range(11, 19))] * 2)
    state = apply(state, PlayCard("Ben", 11))
    assert state.played == (None, 11)
    assert state.rows == ((40,), (50,), (60,))
    assert legal_actions(state) == tuple(PlayCard("Anna", card) for card in range(1, 9))


SCRIPTED_FIRST = DealSetup((50, 60, 70), (tuple(range(71, 79)), tuple(range(1, 9))))
SCRIPTED_SECOND = DealSetup((10, 20, 30), (tuple(range(31, 39)), tuple(range(41, 49))))


def _scripted_rounds() -> list[list[x_nimmt.Action]]:
    """Ben always takes the row Anna's last card went to, so Anna never takes.

    Rows start 50, 60, 70; Anna holds 71–78 and plays them upwards, Ben holds
    1–8 and plays them downwards, always the lowest card, and puts the
    highest taken card into his X-row.
    """
    ben_rows = [1, 2, 0, 1, 2, 0, 1, 2]
    rounds: list[list[x_nimmt.Action]] = []
    for index in range(8):
        actions: list[x_nimmt.Action] = [
            PlayCard("Anna", 71 + index),
            PlayCard("Ben", 8 - index),
            ChooseRow("Ben", ben_rows[index]),
        ]
        if index > 0:  # from round 2 on Ben takes two cards
            actions.append(ChooseXCard("Ben", 70 + index))
        rounds.append(actions)
    return rounds


def _scripted_deal(deck: Deck | None = None) -> tuple[x_nimmt.State, list[x_nimmt.State]]:
    """The scripted first deal; the states at the start and after every round."""
    state = new_game(ANNA_BEN, [SCRIPTED_FIRST, SCRIPTED_SECOND], deck=deck)
    history = [state]
    for actions in _scripted_rounds():
        for action in actions:
            state = apply(state, action)
        history.append(state)
    return state, history


def test_a_deal_ends_right_after_the_round_in_which_a_player_plays_their_last_card() -> None:
    state, history = _scripted_deal()
    assert all(step.deal == 1 for step in history[:-1])
    assert state.deal == 2
    assert state.phase is Phase.CHOOSE_CARDS
    result = state.results[0]
    anna, ben = result.seats
    assert anna == x_nimmt.Seat(hand=(), x_row=(), x_stack=())
    assert ben.hand == (4, 5, 6, 7, 8, 50, 70)
    assert ben.x_row == (60, 71, 72, 73, 74, 75, 76, 77)
    assert ben.x_stack == ()
    # Ben: 4, 6, 7, 8 → 1 each; 5 → 2; 50 and 70 → 3 each.
    assert result.minus_points == (0, 12)
    assert x_nimmt.totals(state) == {"Anna": 0, "Ben": 12}


def test_the_rows_of_the_scripted_deal_follow_the_rules_round_by_round() -> None:
    _, history = _scripted_deal()
    assert history[1].rows == ((50,), (8,), (70, 71))
    assert history[2].rows == ((50, 72), (8,), (7,))
    assert history[3].rows == ((6,), (8, 73), (7,))
    assert history[7].rows == ((3,), (2,), (4, 77))


def test_taken_cards_join_the_hand_and_are_playable_from_the_next_round() -> None:
    _, history = _scripted_deal()
    # Round 4: Ben took 8 and 73 and put 73 into his X-row.
    after_round_4 = history[4]
    assert 8 in after_round_4.seats[1].hand
    assert PlayCard("Ben", 8) in legal_actions(after_round_4)


def test_the_second_deal_starts_from_its_own_setup() -> None:
    state, _ = _scripted_deal()
    assert state.rows == ((10,), (20,), (30,))
    assert [seat.hand for seat in state.seats] == [tuple(range(31, 39)), tuple(range(41, 49))]
    assert state.upcoming == ()


def test_a_player_who_takes_several_cards_chooses_the_x_card_before_the_next_card() -> None:
    setup = _setup((40, 50, 60), range(1, 9), range(11, 19))
    state = new_game(ANNA_BEN, [setup, setup])
    state = apply(state, PlayCard("Anna", 1))
    state = apply(state, PlayCard("Ben", 11))
    state = apply(state, ChooseRow("Anna", 0))  # Anna takes 40 → X-row
    assert state.seats[0].x_row == (40,)
    # Next round: Anna 2 is low again; she takes the 3-row (1, 11) → two cards.
    state = apply(state, PlayCard("Anna", 2))
    state = apply(state, PlayCard("Ben", 12))
    state = apply(state, ChooseRow("Anna", 0))
    assert state.phase is Phase.CHOOSE_X_CARD
    assert state.taken == (1, 11)
    assert state.played == (None, 12)  # Ben's 12 waits for Anna's choice
    assert legal_actions(state) == (ChooseXCard("Anna", 1), ChooseXCard("Anna", 11))
    state = apply(state, ChooseXCard("Anna", 1))
    anna = state.seats[0]
    assert (anna.x_row, anna.x_stack) == ((1,), (40,))
    assert 11 in anna.hand
    assert state.rows == ((2, 12), (50,), (60,))


def test_the_game_is_over_after_two_deals() -> None:
    rng = random.Random(11)
    state = new_game(ANNA_BEN, [x_nimmt.random_setup(2, rng), x_nimmt.random_setup(2, rng)])
    while not state.is_over:
        state = apply(state, legal_actions(state)[0])
    assert len(state.results) == 2
    assert legal_actions(state) == ()
    assert x_nimmt.totals(state) == {
        player: sum(result.scores()[player] for result in state.results) for player in ANNA_BEN
    }
    for result in state.results:
        assert score_deal(result.entries()) == result.scores()
    with pytest.raises(ScoringError, match="The game is over"):
        apply(state, PlayCard("Anna", 1))


def test_the_model_scores_with_the_groups_deck() -> None:
    own, _ = _scripted_deal(Deck.from_mapping({4: 7}))
    assert own.results[0].minus_points == (0, 12 + 6)


def test_every_card_has_exactly_one_place_in_a_new_game() -> None:
    rng = random.Random(4)
    state = new_game(["A", "B", "C", "D"], [x_nimmt.random_setup(4, rng) for _ in range(2)])
    cards = sorted(card for place in card_places(state).values() for card in place)
    assert cards == list(range(1, 101))


@pytest.mark.parametrize(
    ("action", "message"),
    [
        (PlayCard("Anna", 11), "Anna does not hold card 11"),
        (PlayCard("Cem", 1), "Cem is not playing in this match"),
        (ChooseRow("Anna", 0), "No row has to be chosen now"),
        (ChooseXCard("Anna", 1), "No card for an X-row has to be chosen now"),
    ],
)
def test_the_model_refuses_actions_the_rules_do_not_allow(
    action: x_nimmt.Action, message: str
) -> None:
    state = new_game(ANNA_BEN, [_setup((40, 50, 60), range(1, 9), range(11, 19))] * 2)
    with pytest.raises(ScoringError, match=message):
        apply(state, action)


def test_a_player_cannot_choose_twice_in_one_round() -> None:
    state = new_game(ANNA_BEN, [_setup((40, 50, 60), range(1, 9), range(11, 19))] * 2)
    state = apply(state, PlayCard("Anna", 5))
    with pytest.raises(ScoringError, match="Anna has already chosen a card this round"):
        apply(state, PlayCard("Anna", 6))


def test_only_the_player_whose_card_is_too_low_chooses_the_row() -> None:
    state = new_game(ANNA_BEN, [_setup((40, 50, 60), range(1, 9), range(11, 19))] * 2)
    state = apply(apply(state, PlayCard("Anna", 5)), PlayCard("Ben", 11))
    with pytest.raises(ScoringError, match="Anna has to choose now, not Ben"):
        apply(state, ChooseRow("Ben", 0))
    with pytest.raises(ScoringError, match="There is no row 7"):
        apply(state, ChooseRow("Anna", 7))
    with pytest.raises(ScoringError, match="The revealed cards are being placed"):
        apply(state, PlayCard("Ben", 12))


def test_an_x_card_must_be_one_of_the_taken_cards() -> None:
    state = new_game(ANNA_BEN, [_setup((40, 50, 60), range(1, 9), range(11, 19))] * 2)
    for action in (
        PlayCard("Anna", 1), PlayCard("Ben", 11), ChooseRow("Anna", 0),
        PlayCard("Anna", 2), PlayCard("Ben", 12), ChooseRow("Anna", 0),
    ):
        state = apply(state, action)
    with pytest.raises(ScoringError, match="Card 40 is not among the cards Anna took"):
        apply(state, ChooseXCard("Anna", 40))


@pytest.mark.parametrize(
    ("players", "setups", "message"),
    [
        (["Anna"], None, "2 to 4 players, not 1"),
        (["Anna", "Anna"], None, "a different name"),
        (ANNA_BEN, "one", "exactly two deals"),
        (
            ANNA_BEN,
            [_setup((40, 50, 60), range(1, 9), range(11, 19))],
            "exactly two deals",
        ),
        (
            ANNA_BEN,
            [_setup((40, 50, 60), range(1, 9), range(8, 16))] * 2,
            "Card 8 appears twice",
        ),
        (
            ANNA_BEN,
            [_setup((40, 50, 60), range(1, 8), range(11, 19))] * 2,
            "dealt 8 cards, not 7",
        ),
        (
            ANNA_BEN,
            [_setup((40, 50, 60), range(1, 9))] * 2,
            "1 hands for 2 players",
        ),
    ],
)
def test_a_new_game_checks_players_and_setups(
    players: list[str], setups: object, message: str
) -> None:
    if setups is None:
        setups = [_setup((40, 50, 60), range(1, 9), range(11, 19))] * 2
    with pytest.raises(ScoringError, match=message):
        new_game(players, setups)  # type: ignore[arg-type]


def test_deal_from_order_needs_enough_cards() -> None:
    with pytest.raises(ScoringError, match="needs 27 cards, not 10"):
        x_nimmt.deal_from_order(range(1, 11), 3)


def test_a_random_game_records_what_the_model_scored() -> None:
    for players in (2, 3, 4):
        game = x_nimmt.random_game(players, random.Random(players))
        assert len(game.deals) == 2
        assert match_totals("x-nimmt", game.deals) == dict(game.totals)

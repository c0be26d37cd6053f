"""Freaky: the rules file's worked examples, edge cases, errors and recorded data."""

from __future__ import annotations

import random

import pytest

from scoring import ScoringError
from scoring.freaky import (
    COLOUR_SWATCHES,
    COLOURS,
    DECK_SIZE,
    END_TURN,
    HAND_SIZE,
    MAX_ON_TABLE,
    Card,
    CollectRow,
    Entry,
    FeatureMatch,
    PlayCard,
    State,
    apply,
    broken_link,
    card_from_dict,
    card_to_dict,
    check_row,
    collectable,
    collectable_features,
    deal_count,
    entries,
    entry_from_dict,
    entry_to_dict,
    final_scores,
    fits,
    legal_actions,
    may_open_row,
    new_game,
    placement_options,
    random_game,
    score_deal,
    synthetic_deck,
    validate_deal,
)

# Cards of the worked examples. Row ends: row 1 yellow background, row 2 blue
# circle, row 3 shares nothing with the "4".
ROW_1_END = Card("yellow", "red", 1)
ROW_2_END = Card("green", "blue", 2)
ROW_3_END = Card("red", "green", 3)
FOUR = Card("yellow", "blue", 4)
YELLOW_VIOLET_SIX = Card("yellow", "violet", 6)


def _state(
    *,
    hands: tuple[tuple[Card, ...], ...],
    rows: tuple[tuple[Card, ...], ...],
    pile: tuple[Card, ...] = (),
    collected: tuple[tuple[Card, ...], ...] | None = None,
    current: int = 0,
) -> State:
    players = tuple(["Anna", "Ben", "Cem"][: len(hands)])
    return State(
        players=players,
        hands=hands,
        pile=pile,
        rows=rows,
        collected=collected if collected is not None else tuple(() for _ in players),
        current=current,
    )


def _filler(count: int) -> tuple[Card, ...]:
    """``count`` cards for a pile (taken from the synthetic deck's end)."""
    return synthetic_deck()[-count:]


# --------------------------------------------------------------- worked examples


def test_a_four_joins_the_row_with_the_same_background_or_the_same_circle_but_not_row_three():
    ends = (ROW_1_END, ROW_2_END, ROW_3_END)
    assert placement_options(FOUR, ends) == (0, 1)
    assert fits(FOUR, ROW_1_END) is True
    assert fits(FOUR, ROW_2_END) is True
    assert fits(FOUR, ROW_3_END) is False
    assert may_open_row(FOUR, ends) is False


def test_a_yellow_violet_six_that_fits_no_row_opens_a_new_row():
    ends = (Card("blue", "red", 1), Card("green", "blue", 2), Card("red", "green", 3))
    assert placement_options(YELLOW_VIOLET_SIX, ends) == ()
    assert may_open_row(YELLOW_VIOLET_SIX, ends) is True
    state = _state(
        hands=((YELLOW_VIOLET_SIX, FOUR, ROW_3_END), (Card("blue", "blue", 5),) * 3),
        rows=tuple((end,) for end in ends),
        pile=_filler(10),
    )
    assert PlayCard(YELLOW_VIOLET_SIX, None) in legal_actions(state)
    after = apply(state, PlayCard(YELLOW_VIOLET_SIX, None))
    assert after.rows == ((ends[0],), (ends[1],), (ends[2],), (YELLOW_VIOLET_SIX,))
    assert after.hands[0] == (FOUR, ROW_3_END)


def test_a_row_of_four_yellow_circles_and_a_row_of_four_sixes_are_both_taken_in_one_turn():
    yellow_circles = (
        Card("red", "yellow", 1),
        Card("green", "yellow", 2),
        Card("blue", "yellow", 3),
        Card("orange", "yellow", 4),
    )
    sixes = (
        Card("red", "red", 6),
        Card("green", "green", 6),
        Card("blue", "blue", 6),
        Card("violet", "orange", 6),
    )
    other = (Card("violet", "violet", 5),)
    assert collectable(yellow_circles) and collectable(sixes)
    assert collectable_features(yellow_circles) == (FeatureMatch("circle", "yellow", 4),)
    assert collectable_features(sixes) == (FeatureMatch("number", 6, 4),)
    # Ileana plays a card onto the third row, then takes both complete rows.
    played = Card("violet", "violet", 1)
    state = _state(
        hands=((played, FOUR, ROW_2_END), (ROW_1_END, ROW_1_END, ROW_1_END)),
        rows=(yellow_circles, sixes, other),
        pile=_filler(10),
    )
    state = apply(state, PlayCard(played, 2))
    assert set(legal_actions(state)) >= {CollectRow(0), CollectRow(1), END_TURN}
    state = apply(state, CollectRow(0))
    state = apply(state, CollectRow(0))  # the sixes moved up to index 0
    assert state.rows == ((*other, played),)
    assert state.collected[0] == yellow_circles + sixes
    state = apply(state, END_TURN)
    assert final_scores(state) == {"Anna": 8, "Ben": 0}
    assert entries(state) == {"Anna": Entry(8), "Ben": Entry(0)}
    assert state.current == 1
    assert len(state.hands[0]) == 3


# ------------------------------------------------------------ features and rows


@pytest.mark.parametrize(
    ("card", "last", "shared"),
    [
        (Card("red", "blue", 1), Card("red", "green", 2), True),
        (Card("red", "blue", 1), Card("green", "blue", 2), True),
        (Card("red", "blue", 1), Card("green", "red", 1), True),
        (Card("red", "blue", 1), Card("blue", "red", 2), False),
    ],
)
def test_a_card_fits_exactly_when_it_shares_a_feature_in_the_same_place(card, last, shared):
    assert fits(card, last) is shared


def test_a_yellow_background_and_a_yellow_circle_are_different_feature_values():
    row = [
        Card("yellow", "red", 1),
        Card("yellow", "red", 2),
        Card("red", "yellow", 3),
        Card("red", "yellow", 4),
    ]
    assert collectable(row) is False
    assert collectable_features(row) == ()


def test_three_of_a_feature_is_not_enough_and_five_is_plenty():
    three = [Card("blue", "red", n) for n in (1, 2, 3)]
    five = [Card("blue", "red", n) for n in (1, 2, 3, 4, 5)]
    assert collectable(three) is False
    assert collectable_features(five) == (
        FeatureMatch("background", "blue", 5),
        FeatureMatch("circle", "red", 5),
    )


def test_every_feature_value_appears_anywhere_in_the_row_not_only_in_a_run():
    row = [
        Card("green", "red", 6),
        Card("blue", "red", 1),
        Card("blue", "green", 6),
        Card("red", "green", 2),
        Card("red", "blue", 6),
        Card("violet", "blue", 6),
    ]
    assert collectable_features(row) == (FeatureMatch("number", 6, 4),)


def test_with_no_rows_on_the_table_every_card_opens_a_new_row():
    assert placement_options(FOUR, ()) == ()
    assert may_open_row(FOUR, ()) is True


# ------------------------------------------------------------------ the game model


def test_the_deal_gives_three_cards_each_and_turns_up_three_rows():
    deck = synthetic_deck()
    state = new_game(["Anna", "Ben", "Cem", "Dana"], deck, first_player=2)
    assert state.hands == (
        (deck[0], deck[4], deck[8]),
        (deck[1], deck[5], deck[9]),
        (deck[2], deck[6], deck[10]),
        (deck[3], deck[7], deck[11]),
    )
    assert state.rows == ((deck[12],), (deck[13],), (deck[14],))
    assert state.pile == deck[15:]
    assert state.current == 2
    assert final_scores(state) == {"Anna": 0, "Ben": 0, "Cem": 0, "Dana": 0}


def test_a_player_may_play_up_to_three_cards_one_at_a_time():
    hand = (Card("red", "red", 1), Card("red", "red", 2), Card("red", "red", 3))
    state = _state(
        hands=(hand, (FOUR,) * 3),
        rows=((Card("red", "blue", 5),),),
        pile=_filler(10),
    )
    assert legal_actions(state) == tuple(PlayCard(card, 0) for card in hand)
    for card in hand:
        state = apply(state, PlayCard(card, 0))
    assert state.rows == ((Card("red", "blue", 5), *hand),)
    assert legal_actions(state) == (CollectRow(0), END_TURN)  # four red backgrounds
    with pytest.raises(ScoringError, match="at most 3 cards"):
        apply(state, PlayCard(hand[0], 0))
    state = apply(state, END_TURN)
    assert state.hands[0] == _filler(10)[:3]
    assert state.pile == _filler(10)[3:]
    assert state.current == 1


def test_ending_the_turn_needs_at_least_one_played_card():
    state = _state(hands=((FOUR,) * 3, (FOUR,) * 3), rows=((ROW_1_END,),), pile=_filler(5))
    assert END_TURN not in legal_actions(state)
    with pytest.raises(ScoringError, match="Play at least one card before ending the turn"):
        apply(state, END_TURN)
    with pytest.raises(ScoringError, match="before collecting"):
        apply(state, CollectRow(0))


def test_a_card_that_fits_a_row_may_not_open_a_new_row():
    state = _state(hands=((FOUR,) * 3, (FOUR,) * 3), rows=((ROW_1_END,),), pile=_filler(5))
    assert legal_actions(state) == (PlayCard(FOUR, 0),)
    with pytest.raises(ScoringError, match="fits row 1: a new row may only be opened"):
        apply(state, PlayCard(FOUR, None))


def test_a_card_may_not_join_a_row_whose_last_card_shares_nothing():
    state = _state(
        hands=((FOUR,) * 3, (FOUR,) * 3),
        rows=((ROW_1_END,), (ROW_3_END,)),
        pile=_filler(5),
    )
    with pytest.raises(ScoringError, match="shares no feature with the last card of row 2"):
        apply(state, PlayCard(FOUR, 1))
    with pytest.raises(ScoringError, match="There is no row 7"):
        apply(state, PlayCard(FOUR, 7))


def test_a_card_not_in_the_hand_cannot_be_played():
    state = _state(hands=((FOUR,) * 3, (ROW_3_END,) * 3), rows=((ROW_1_END,),), pile=_filler(5))
    with pytest.raises(ScoringError, match="is not in the hand"):
        apply(state, PlayCard(ROW_3_END, None))


def test_no_card_may_be_played_after_collecting_a_row():
    row = tuple(Card("green", "red", n) for n in (1, 2, 3))
    state = _state(
        hands=((Card("green", "blue", 4), FOUR, FOUR), (FOUR,) * 3),
        rows=(row,),
        pile=_filler(5),
    )
    state = apply(state, PlayCard(Card("green", "blue", 4), 0))
    state = apply(state, CollectRow(0))
    assert state.rows == ()
    assert legal_actions(state) == (END_TURN,)
    with pytest.raises(ScoringError, match="before rows are collected"):
        apply(state, PlayCard(FOUR, None))


def test_a_row_without_four_equal_features_cannot_be_collected():
    state = _state(
        hands=((FOUR,) * 3, (FOUR,) * 3),
        rows=((ROW_1_END, Card("yellow", "green", 5)),),
        pile=_filler(5),
    )
    state = apply(state, PlayCard(FOUR, 0))
    assert CollectRow(0) not in legal_actions(state)
    with pytest.raises(ScoringError, match="Row 1 cannot be collected"):
        apply(state, CollectRow(0))


def test_a_collected_row_disappears_and_the_next_card_opens_a_new_row():
    row = tuple(Card("green", "red", n) for n in (1, 2, 3))
    joining = Card("green", "blue", 4)
    state = _state(
        hands=((joining, FOUR, FOUR), (ROW_3_END, ROW_3_END, ROW_3_END)),
        rows=(row,),
        pile=_filler(6),
    )
    state = apply(apply(apply(state, PlayCard(joining, 0)), CollectRow(0)), END_TURN)
    assert state.rows == ()
    assert state.collected == ((*row, joining), ())
    assert legal_actions(state) == (PlayCard(ROW_3_END, None),)
    state = apply(state, PlayCard(ROW_3_END, None))
    assert state.rows == ((ROW_3_END,),)


def test_a_row_left_standing_may_be_taken_by_the_next_player_in_their_turn():
    row = tuple(Card("green", "red", n) for n in (1, 2, 3, 5))
    state = _state(
        hands=((FOUR,) * 3, (ROW_3_END,) * 3),
        rows=(row,),
        pile=_filler(6),
    )
    state = apply(state, PlayCard(FOUR, None))
    assert CollectRow(0) in legal_actions(state)
    state = apply(state, END_TURN)  # Anna does not take it: bad luck for her
    state = apply(state, PlayCard(ROW_3_END, None))
    state = apply(state, CollectRow(0))
    assert state.collected == ((), row)


def test_the_game_ends_at_once_when_a_player_cannot_refill_to_three():
    last_card = Card("violet", "violet", 1)
    state = _state(
        hands=((Card("red", "red", 1), Card("red", "red", 2), FOUR), (FOUR,) * 3),
        rows=((Card("red", "blue", 5),),),
        pile=(last_card,),
        collected=((), tuple(Card("blue", "blue", n) for n in (1, 2, 3, 4))),
    )
    state = apply(state, PlayCard(Card("red", "red", 1), 0))
    state = apply(state, PlayCard(Card("red", "red", 2), 0))
    state = apply(state, END_TURN)
    assert state.over is True
    assert state.pile == ()
    assert state.hands[0] == (FOUR, last_card)
    assert legal_actions(state) == ()
    assert final_scores(state) == {"Anna": 0, "Ben": 4}
    with pytest.raises(ScoringError, match="The game is over"):
        apply(state, PlayCard(FOUR, 0))


def test_the_game_goes_on_when_the_pile_refills_the_hand_exactly():
    state = _state(
        hands=((Card("red", "red", 1), FOUR, FOUR), (FOUR,) * 3),
        rows=((Card("red", "blue", 5),),),
        pile=(ROW_1_END,),
    )
    state = apply(apply(state, PlayCard(Card("red", "red", 1), 0)), END_TURN)
    assert state.over is False
    assert state.pile == ()
    assert state.current == 1
    state = apply(apply(state, PlayCard(FOUR, None)), END_TURN)
    assert state.over is True


def test_a_hand_with_two_equal_cards_lists_each_move_once():
    state = _state(hands=((FOUR, FOUR, ROW_3_END), (FOUR,) * 3), rows=((ROW_1_END,),),
                   pile=_filler(5))
    assert legal_actions(state) == (PlayCard(FOUR, 0), PlayCard(ROW_3_END, None))


def test_a_random_game_records_what_the_model_scored():
    game = random_game(4, random.Random(11))
    assert game.players == ("P1", "P2", "P3", "P4")
    assert len(game.deals) == 1
    assert dict(game.totals) == score_deal(game.deals[0])
    assert sum(game.totals.values()) <= 108


def test_the_synthetic_deck_has_108_distinct_cards_balanced_over_the_features():
    deck = synthetic_deck()
    assert len(deck) == len(set(deck)) == 108
    for colour in COLOURS:
        assert sum(card.background == colour for card in deck) == 18
        assert sum(card.circle == colour for card in deck) == 18
    for number in range(1, 7):
        assert sum(card.number == number for card in deck) == 18


def test_a_game_needs_a_deck_of_108_cards_and_2_to_5_players():
    with pytest.raises(ScoringError, match="108 cards, not 107"):
        new_game(["Anna", "Ben"], synthetic_deck()[1:])
    with pytest.raises(ScoringError, match="Freaky is played by 2 to 5 players, not 6"):
        new_game(["A", "B", "C", "D", "E", "F"], synthetic_deck())
    with pytest.raises(ScoringError, match="different name"):
        new_game(["Anna", "Anna"], synthetic_deck())
    with pytest.raises(ScoringError, match="There is no seat 2"):
        new_game(["Anna", "Ben"], synthetic_deck(), first_player=2)
    with pytest.raises(ScoringError, match="not a Freaky card"):
        new_game(["Anna", "Ben"], [*synthetic_deck()[1:], "red 5"])


def test_an_unknown_action_is_rejected():
    state = new_game(["Anna", "Ben"], synthetic_deck())
    with pytest.raises(ScoringError, match="is not a move in Freaky"):
        apply(state, "draw")  # type: ignore[arg-type]


# ------------------------------------------------------------------------ cards


@pytest.mark.parametrize(
    ("background", "circle", "number", "message"),
    [
        ("pink", "red", 1, "no background colour 'pink'"),
        ("red", "Red", 1, "no circle colour 'Red'"),
        ("red", "red", 0, "no card number 0"),
        ("red", "red", 7, "no card number 7"),
        ("red", "red", True, "no card number True"),
        ("red", "red", "3", "no card number 3"),
        (None, "red", 3, "no background colour None"),
    ],
)
def test_a_card_outside_the_vocabulary_is_rejected(background, circle, number, message):
    with pytest.raises(ScoringError, match=message):
        Card(background, circle, number)


def test_a_card_round_trips_through_its_dict():
    assert card_from_dict(card_to_dict(YELLOW_VIOLET_SIX)) == YELLOW_VIOLET_SIX


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"background": "red", "circle": "red"}, "needs a background colour"),
        ({"background": "red", "circle": "red", "number": 2, "shape": "x"}, "no feature shape"),
        ({"background": "red", "circle": "grey", "number": 2}, "no circle colour 'grey'"),
        (["red", "red", 2], "must be given as background"),
    ],
)
def test_a_card_from_bad_data_is_rejected(data, message):
    with pytest.raises(ScoringError, match=message):
        card_from_dict(data)


def test_every_colour_has_a_swatch():
    assert set(COLOUR_SWATCHES) == set(COLOURS)
    assert all(value.startswith("#") and len(value) == 7 for value in COLOUR_SWATCHES.values())


def test_checks_reject_things_that_are_not_cards():
    with pytest.raises(ScoringError, match=r"\('yellow', 'blue', 4\) is not a Freaky card"):
        fits(FOUR, ("yellow", "blue", 4))  # type: ignore[arg-type]
    with pytest.raises(ScoringError, match="Cards must be given as a list"):
        placement_options(FOUR, FOUR)  # type: ignore[arg-type]
    with pytest.raises(ScoringError, match="not a Freaky card"):
        collectable([FOUR, None])  # type: ignore[list-item]


# ------------------------------------------------------------ recording interface


def test_a_game_of_freaky_is_one_deal():
    assert deal_count(2) == 1
    assert deal_count(5) == 1
    with pytest.raises(ScoringError, match="2 to 5 players, not 1"):
        deal_count(1)


def test_the_score_is_the_number_of_collected_cards():
    assert score_deal({"Anna": Entry(17), "Ben": Entry(4), "Cem": Entry(0)}) == {
        "Anna": 17,
        "Ben": 4,
        "Cem": 0,
    }


def test_all_cards_but_the_hands_of_the_others_may_be_collected():
    # Two players: the game ends when one cannot refill; the other holds 3 hand cards.
    validate_deal({"Anna": Entry(54), "Ben": Entry(51)})
    validate_deal({p: Entry(24) for p in "ABCD"})  # 96 ≤ 108 − 3 × 3 = 99


@pytest.mark.parametrize(("players", "most"), [(2, 105), (3, 102), (4, 99), (5, 96)])
def test_it_refuses_more_collected_cards_than_the_others_hands_leave(players, most):
    entries = {f"P{i}": Entry(0) for i in range(players)}
    entries["P0"] = Entry(most)
    validate_deal(entries)
    entries["P0"] = Entry(most + 1)
    with pytest.raises(ScoringError, match=f"at most {most} can be") as refused:
        validate_deal(entries)
    assert refused.value.code == "hands_exceeded"


@pytest.mark.parametrize(
    ("entries", "message"),
    [
        ({"Anna": Entry(60), "Ben": Entry(49)}, "109 cards collected in total"),
        ({"Anna": Entry(3), "Ben": Entry(4)}, "Anna: 3 collected cards is impossible"),
        ({"Anna": Entry(1), "Ben": Entry(0)}, "Anna: 1 collected cards is impossible"),
        ({"Anna": Entry(-4), "Ben": Entry(4)}, "Anna: the number of collected cards cannot be"),
        ({"Anna": Entry(True), "Ben": Entry(4)}, "must be a whole number, not True"),
        ({"Anna": Entry(4.0), "Ben": Entry(4)}, "must be a whole number, not 4.0"),
        ({"Anna": Entry(4)}, "2 to 5 players, not 1"),
        ({p: Entry(4) for p in "ABCDEF"}, "2 to 5 players, not 6"),
        ({"Anna": 4, "Ben": Entry(4)}, "Anna: 4 is not a Freaky entry"),
        ({"": Entry(4), "Ben": Entry(4)}, "Every player needs a name"),
    ],
)
def test_impossible_entries_are_rejected(entries, message):
    with pytest.raises(ScoringError, match=message):
        validate_deal(entries)
    with pytest.raises(ScoringError):
        score_deal(entries)


def test_an_entry_round_trips_through_its_dict():
    entry = Entry(collected=23)
    assert entry_to_dict(entry) == {"collected": 23}
    assert entry_from_dict(entry_to_dict(entry)) == entry
    assert entry_from_dict({}) == Entry(0)


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"collected": -1}, "cannot be negative"),
        ({"collected": "5"}, "must be a whole number, not '5'"),
        ({"collected": True}, "must be a whole number, not True"),
        ({"collected": 5, "bonus": 1}, "has no field bonus"),
        ([5], "must be given as fields and values"),
    ],
)
def test_an_entry_from_bad_data_is_rejected(data, message):
    with pytest.raises(ScoringError, match=message):
        entry_from_dict(data)


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: deal_count("3"), "number of players must be a whole number, not '3'"),
        (lambda: apply(None, END_TURN), "None is not a game state"),
        (lambda: legal_actions("state"), "'state' is not a game state"),
    ],
)
def test_calls_with_the_wrong_kind_of_value_are_rejected(call, message):
    with pytest.raises(ScoringError, match=message):
        call()


def test_a_row_is_a_chain_in_which_every_card_fits_the_card_before_it() -> None:
    row = [Card("red", "blue", 1), Card("red", "green", 2), Card("violet", "green", 2),
           Card("yellow", "orange", 2)]
    assert broken_link(row) is None
    assert check_row(row) == tuple(row)


def test_a_row_that_could_not_have_been_built_is_refused_naming_the_card() -> None:
    row = [Card("red", "blue", 1), Card("red", "green", 2), Card("yellow", "orange", 3),
           Card("yellow", "orange", 3)]
    assert broken_link(row) == 2
    with pytest.raises(ScoringError) as refused:
        check_row(row)
    assert refused.value.code == "row_broken"
    assert refused.value.params == {"position": 3, "before": 2}


def test_the_table_holds_every_card_but_another_player_s_hand() -> None:
    assert MAX_ON_TABLE == DECK_SIZE - HAND_SIZE == 105
    long_row = [Card("red", "blue", 1 + index % 6) for index in range(MAX_ON_TABLE)]
    assert len(check_row(long_row)) == 105
    with pytest.raises(ScoringError, match="A row cannot hold 106 cards: at most 105"):
        check_row([*long_row, Card("red", "blue", 1)])

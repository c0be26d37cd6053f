"""The answers of the games' checks (companion/games/<game>/check.py), without a request:
one pure function per question."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from django.utils import translation

from companion.games.checks import Refusal, names_and, names_or
from companion.games.dreizehn.check import (
    check_colours_once,
    check_dreizehn_play,
    check_tally,
    load_target,
    play_on_target,
)
from companion.games.elf_nimmt.check import (
    check_elf_play,
    check_elf_take,
    play_message,
    tracker_event,
    tracker_take,
    tracker_undo,
)
from companion.games.freaky.check import MAX_ROWS, check_freaky_collect, check_freaky_place
from companion.games.x_nimmt.check import RoundChoices, check_x_nimmt_round, check_x_row
from scoring import dreizehn, elf_nimmt
from scoring.elf_nimmt import BullCards, BullCardSource
from scoring.freaky import Card


@pytest.fixture(autouse=True)
def english() -> Iterator[None]:
    with translation.override("en"):
        yield


# ------------------------------------------------------------------------- X nimmt!


def test_the_round_check_names_the_deciding_rule_of_every_step() -> None:
    answer = check_x_nimmt_round([[62], [31, 40, 45], [70]], {"Anna": 59, "Ben": 81},
                                 RoundChoices(x_cards={59: 40}))
    assert [(s.step.card, s.row_card, s.rule) for s in answer.steps] == [
        (59, 4, "rule-full-row"), (81, 5, "rule-lowest-difference")]
    assert answer.rule == "rule-lowest-difference"
    assert answer.complete


def test_a_pending_choice_is_answered_with_its_options_and_rule() -> None:
    answer = check_x_nimmt_round([[62], [59], [70]], {"Anna": 43, "Ben": 81})
    assert answer.rule == "rule-low-card"
    assert [(o.value, o.row_card, o.takes) for o in answer.options] == [
        ("43:0", 3, (62,)), ("43:1", 4, (59,)), ("43:2", 5, (70,))]


def test_choices_for_cards_not_revealed_are_dropped() -> None:
    answer = check_x_nimmt_round([[12], [15], [54]], {"Anna": 18, "Ben": 22},
                                 RoundChoices(rows={5: 1}, x_cards={7: 3}))
    assert answer.choices == RoundChoices({}, {})


@pytest.mark.parametrize("cards", [{"Anna": 18}, {f"P{n}": 10 + n for n in range(5)}])
def test_a_round_of_fewer_than_2_or_more_than_4_players_is_refused(cards: dict[str, int]) -> None:
    with pytest.raises(Refusal, match=rf"X nimmt! is played by 2 to 4 players, not {len(cards)}."):
        check_x_nimmt_round([[12], [15], [54]], cards)


def test_a_card_joining_the_x_reihe_lower_than_its_end_moves_it_to_the_stack() -> None:
    answer = check_x_row([20, 40], 10)
    assert (answer.after, answer.to_x_stack, answer.stack_minus_points, answer.rule) == (
        (10,), (20, 40), 12, "x-row")


# ------------------------------------------------------------------------ 11 nimmt!


def test_a_taker_holding_6_against_4_gets_no_bull_card_and_is_told_why() -> None:
    answer = check_elf_take(4, 6, [4])
    assert answer.due is not None and answer.due.source is BullCardSource.TAKER_HAS_MOST
    assert not answer.gets_one
    assert answer.headline == (
        "The supply is empty and you alone hold the most bull cards (6): there is nobody to "
        "take one from, so you get none.")
    assert answer.rule == "app-decides-stealing"


def test_a_taker_tied_for_the_most_may_take_from_the_other_and_is_told_so() -> None:
    answer = check_elf_take(3, 4, [4, 2])
    assert answer.headline == (
        "The supply is empty. You and Player 2 hold the most bull cards (4 each). You may take "
        "one from Player 2; you do not have to.")
    assert answer.after is not None and dict(answer.after.holders) == {
        "You": 5, "Player 2": 3, "Player 3": 2}


def test_taking_the_3_card_pile_with_a_supply_names_no_player() -> None:
    answer = check_elf_take(3, 0, [0, 0])
    assert answer.headline == "You get a bull card from the supply (9 left)."
    assert answer.rule == "bull-card-gain"


@pytest.mark.parametrize(("size", "headline"), [
    (1, "A pile of 1 card earns no bull card."), (2, "A pile of 2 cards earns no bull card.")])
def test_a_small_pile_earns_nothing_in_a_counted_sentence(size: int, headline: str) -> None:
    assert check_elf_take(size, 0, [1]).headline == headline


@pytest.mark.parametrize("others", [[], [0] * 7])
def test_the_take_check_holds_the_player_count(others: list[int]) -> None:
    with pytest.raises(Refusal) as refused:
        check_elf_take(3, 0, others)
    assert refused.value.field == "others"
    assert refused.value.message == (
        f"11 nimmt! is played by 2 to 7 players, not {len(others) + 1}.")


def test_more_than_10_bull_cards_are_refused_at_the_others_field() -> None:
    with pytest.raises(Refusal, match=r"There are only 10 bull cards, but 11 are held.") as refused:
        check_elf_take(3, 6, [5])
    assert refused.value.field == "others"


@pytest.mark.parametrize(("bulls", "message"), [
    (0, "Without a bull card you may put cards on one pile only, not 2."),
    (1, "With 1 bull card you may put cards on 1 pile only, not 2."),
    (2, "With 2 bull cards you may put cards on at most 2 piles, not 3."),
])
def test_too_many_piles_is_said_in_counted_words(bulls: int, message: str) -> None:
    plays = {0: [97], 1: [25], 2: [61]} if bulls == 2 else {0: [97], 1: [25]}
    check = elf_nimmt.check_play([96, 20, 60], plays, bulls)
    if bulls == 0:
        check = elf_nimmt.check_play([96, 20], {0: [97], 1: [25]}, 0)
        assert check.problem is elf_nimmt.PlayProblem.SEVERAL_CARDS
        check = elf_nimmt.PlayCheck(elf_nimmt.PlayProblem.TOO_MANY_PILES, "", {
            "bulls": 0, "most": 1, "piles": 2}, (96, 20))
    assert play_message(check) == message


def test_the_play_check_answers_every_hand_card_and_its_rule() -> None:
    answer = check_elf_play([46], [12, 40, 57, 90], {}, 0)
    assert answer.must_take
    assert answer.rule == "rule-difference"
    with pytest.raises(Refusal, match=r"Enter your hand cards.") as refused:
        check_elf_play([46], [], {}, 0)
    assert refused.value.field == "hand"


def test_the_tracker_gives_nothing_to_a_taker_alone_with_the_most() -> None:
    state = BullCards(0, {"Anna": 6, "Ben": 4})
    step = tracker_take(state, 0)
    assert (step.state, step.event) == (state, "none.0")
    assert tracker_event(step.event, step.state) == (
        "The supply is empty and Anna alone holds the most bull cards (6): there is nobody to "
        "take one from, so Anna gets none.")


def test_the_tracker_steals_at_once_says_why_and_offers_to_give_it_back() -> None:
    state = BullCards(0, {"Anna": 4, "Ben": 4, "Cem": 2})
    step = tracker_take(state, 0)
    assert step.event == "steal.0.1"
    assert dict(step.state.holders) == {"Anna": 5, "Ben": 3, "Cem": 2}
    assert tracker_event(step.event, step.state) == (
        "Anna and Ben held the most bull cards (4 each): Anna takes one from Ben.")
    assert tracker_undo(step.event, step.state) == {"Anna": 4, "Ben": 4, "Cem": 2}
    assert tracker_take(state, 0, keep=True).event == "kept.0"
    assert tracker_event("kept.0", state) == (
        "Anna takes no bull card from Ben: taking one is allowed, not required.")
    # Nothing to decline: a bull card in the supply, or the taker alone with the most.
    assert tracker_event("kept.0", BullCards(1, {"Anna": 4, "Ben": 3, "Cem": 2})) == ""
    assert tracker_event("kept.0", BullCards(0, {"Anna": 5, "Ben": 3, "Cem": 2})) == ""


def test_the_tracker_asks_on_a_tie_of_others_with_the_reason() -> None:
    state = BullCards(0, {"Anna": 4, "Ben": 4, "Cem": 2})
    step = tracker_take(state, 2)
    assert (step.event, step.choose_from) == ("", ("Anna", "Ben"))
    assert step.reason == (
        "The supply is empty. Anna and Ben hold the most bull cards (4 each). Cem may take one "
        "from Anna or Ben: from whom?")


def test_an_event_that_does_not_fit_the_state_says_nothing() -> None:
    state = BullCards(0, {"Anna": 5, "Ben": 1, "Cem": 4})
    assert tracker_event("steal.0.1", state) == ""  # Ben (2) did not hold the most before
    assert tracker_event("none.1", state) == ""
    assert tracker_event("supply.9", state) == ""
    assert tracker_event("steal.x.y", state) == ""


def test_names_are_joined_in_words() -> None:
    assert names_and(["Anna", "Ben", "Cem"]) == "Anna, Ben and Cem"
    assert names_or(["Anna", "Ben"]) == "Anna or Ben"
    assert names_and(["Anna"]) == "Anna"


# --------------------------------------------------------------------------- Freaky


def test_a_row_that_could_not_have_been_built_is_refused_at_the_breaking_card() -> None:
    row = [Card("red", "blue", 1), Card("red", "green", 2), Card("yellow", "orange", 3)]
    with pytest.raises(Refusal) as refused:
        check_freaky_collect(row)
    assert refused.value.field == "c_3"
    assert refused.value.message == (
        "Card 3 cannot lie there: it shares no feature with card 2 before it, so it could not "
        "have joined the row.")


def test_a_card_fitting_only_a_sixth_row_may_join_it() -> None:
    ends = [(n, Card("red", "red", 1)) for n in range(1, 6)] + [(6, Card("blue", "blue", 4))]
    answer = check_freaky_place(ends, Card("green", "green", 4))
    assert [join.row for join in answer.joins] == [6]
    assert not answer.must_open
    assert answer.rule == "joining-a-row"


def test_the_place_check_takes_every_row_a_table_can_hold() -> None:
    assert MAX_ROWS == 104
    ends = [(n, Card("red", "red", 1)) for n in range(1, MAX_ROWS + 1)]
    assert check_freaky_place(ends, Card("red", "blue", 2)).rows == 104
    with pytest.raises(Refusal, match=r"The table holds at most 104 rows here."):
        check_freaky_place([*ends, (105, Card("red", "red", 1))], Card("red", "blue", 2))


def test_a_long_chain_is_collectable_check_by_check() -> None:
    row = [Card("red", "blue", 1 + n % 3) for n in range(12)]
    answer = check_freaky_collect(row)
    assert (answer.cards, [m.count for m in answer.matches]) == (12, [12, 12, 4, 4, 4])


# ------------------------------------------------------------------------------- 13


@pytest.mark.parametrize(("values", "total"), [([7, 7], 14), ([4, 4, 4, 4], 16)])
def test_a_target_of_two_or_more_cards_over_13_cannot_lie_there(
    values: list[int], total: int,
) -> None:
    with pytest.raises(Refusal) as refused:
        load_target("y", "yellow", values, variant=False)
    assert refused.value.field == "y"
    assert refused.value.message == (
        f"These cards total {total}, but two or more cards on a target never total more than "
        "13: the card that went over would lie there alone.")


def test_a_single_card_is_a_possible_target_whatever_its_value() -> None:
    assert load_target("y", "yellow", [7], variant=False).total == 7


@pytest.mark.parametrize(("tally", "message"), [
    ([[0, 0, 0, 5], [0, 0, 0, 4]], "There are only 8 red 4s, but 9 are counted here."),
    ([[8, 0, 0, 0], [7, 0, 0, 0]], "There are only 14 yellow cards, but 15 are counted here."),
])
def test_tallies_beyond_the_box_are_refused(tally: list[list[int]], message: str) -> None:
    targets = [load_target(k, c, [], variant=False) for k, c in
               (("y", "yellow"), ("g", "green"), ("b", "blue"))]
    with pytest.raises(Refusal, match=message) as refused:
        check_tally(tally, targets)
    assert refused.value.field == "taken"


def test_cards_still_on_a_target_count_against_the_box_too() -> None:
    targets = [load_target("y", "yellow", [4, 4], variant=False),
               load_target("g", "green", [], variant=False),
               load_target("b", "blue", [4], variant=False)]
    with pytest.raises(Refusal, match=r"There are only 8 red 4s, but 9 are counted here."):
        check_tally([[0, 0, 0, 6]], targets)


def test_in_the_variant_the_first_coloured_card_gives_a_target_its_colour() -> None:
    targets = [load_target(key, None, [], variant=True) for key in ("t1", "t2", "t3")]
    played = play_on_target(targets, 1, dreizehn.Card("blue", 5), variant=True)
    assert [t.colour for t in played.targets] == [None, "blue", None]
    with pytest.raises(Refusal, match=r"The colour blue already lies on another target."):
        play_on_target(played.targets, 0, dreizehn.Card("blue", 2), variant=True)
    twice = [load_target("t1", "blue", [5], variant=True),
             load_target("t2", "blue", [2], variant=True)]
    with pytest.raises(Refusal, match=r"The colour blue cannot be on two targets."):
        check_colours_once(twice)


def test_the_13_check_names_its_rule() -> None:
    card = dreizehn.Card("yellow", 2)
    assert check_dreizehn_play("yellow", [5, 4, 1, 2], card).rule == "over-13"
    assert check_dreizehn_play("yellow", [7, 4], card).rule == "app-decides-exactly-13"
    assert check_dreizehn_play("green", [], card).rule == "colours"
    with pytest.raises(Refusal) as refused:
        check_dreizehn_play("yellow", [7, 7], card)
    assert refused.value.field == "cards"


def test_the_13_check_names_exactly_13_only_for_a_total_of_13() -> None:
    # "Exceeds 13 means total > 13; a total of exactly 13 is safe": that decision is the reason
    # only at 13; a total of 7 stays because it is not over 13.
    card = dreizehn.Card("yellow", 2)
    assert check_dreizehn_play("yellow", [5], card).rule == "over-13"
    assert check_dreizehn_play("yellow", [7, 4], card).rule == "app-decides-exactly-13"


def test_the_13_check_in_the_variant_refuses_a_second_colour_by_the_variant_rule() -> None:
    # Variant: "the first coloured card played on an empty target fixes its colour for the deal".
    answer = check_dreizehn_play("green", [4], dreizehn.Card("yellow", 2), variant=True)
    assert not answer.play.allowed
    assert answer.rule == "variant-open-targets"


def test_the_13_check_in_the_variant_refuses_an_empty_target_with_a_colour() -> None:
    # "The first coloured card played on an empty target fixes its colour": empty means none.
    with pytest.raises(Refusal) as refused:
        check_dreizehn_play("green", [], dreizehn.Card("green", 2), variant=True)
    assert refused.value.field == "target"
    assert refused.value.message == ("In the variant an empty target has no colour yet: the "
                                     "first coloured card played on it gives it one.")
    with pytest.raises(Refusal):
        load_target("t1", "green", [], variant=True)

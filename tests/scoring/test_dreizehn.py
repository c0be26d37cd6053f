"""13: the worked example, targets, red 4s, majorities, dealer rotation, the variant,
the game model, errors and recorded data."""

from __future__ import annotations

import random

import pytest

from scoring import ScoringError
from scoring.common import match_totals
from scoring.dreizehn import (
    Card,
    Entry,
    Match,
    PlaceCard,
    State,
    Target,
    Variant,
    Verdict,
    apply,
    build_deck,
    check_play,
    check_target,
    deal_count,
    deal_entries,
    deal_scores,
    dealer,
    deals,
    entry_from_dict,
    entry_to_dict,
    final_scores,
    legal_actions,
    may_place,
    may_place_variant,
    new_game,
    place,
    random_game,
    score_deal,
    shuffled_decks,
    start_player,
    validate_deal,
)

FIRST_CARD = Variant.COLOUR_BY_FIRST_CARD
Y1, Y2, Y5, Y7 = (Card("yellow", v) for v in (1, 2, 5, 7))
G1, G2, G5, G7 = (Card("green", v) for v in (1, 2, 5, 7))
B1, B2, B5, B7 = (Card("blue", v) for v in (1, 2, 5, 7))
R4 = Card("red", 4)
PLAYERS = ("Anna", "Ben", "Cem")


# ---------------------------------------------------------------- worked example


def test_a_yellow_2_on_a_yellow_target_at_12_takes_the_cards_there_and_stays():
    assert place([5, 7], 2) == ((2,), (5, 7))
    play = check_play("yellow", [Y5, Y7], Y2)
    assert play.allowed
    assert play.cards == (Y2,)
    assert play.total == 2
    assert play.taken == (Y5, Y7)


def test_the_same_play_in_the_game_model_gives_the_cards_to_the_player():
    state = _state(
        hands=((Y2, B1), (G1, G2), (B2, B5)),
        targets=(Target("yellow", (Y5, Y7)), Target("green"), Target("blue")),
        pile=(G5,),
    )
    state = apply(state, PlaceCard(Y2, 0))
    assert state.targets[0] == Target("yellow", (Y2,))
    assert state.taken == ((Y5, Y7), (), ())
    assert state.hands[0] == (B1, G5)
    assert state.pile == ()
    assert state.current == 1


# ------------------------------------------------------------------ the contract


def test_exactly_13_is_safe_and_14_is_taken():
    assert place([5, 7], 1) == ((5, 7, 1), ())
    assert place([5, 4, 2], 2) == ((5, 4, 2, 2), ())
    assert place([5, 4, 2, 2], 1) == ((1,), (5, 4, 2, 2))
    assert place([], 7) == ((7,), ())


def test_a_card_on_a_target_that_was_just_taken_adds_to_the_card_left_there():
    assert place([7], 7) == ((7,), (7,))
    assert place([4], 7) == ((4, 7), ())


@pytest.mark.parametrize(
    ("card_colour", "target_colour", "allowed"),
    [
        ("yellow", "yellow", True),
        ("yellow", "green", False),
        ("green", "blue", False),
        ("blue", "blue", True),
        ("red", "yellow", True),
        ("red", "green", True),
        ("red", "blue", True),
    ],
)
def test_a_coloured_card_only_goes_on_its_target_and_a_red_4_on_any(
    card_colour, target_colour, allowed
):
    assert may_place(card_colour, target_colour) is allowed


@pytest.mark.parametrize(
    ("card_colour", "target_colour", "message"),
    [
        ("purple", "yellow", "no card colour 'purple'"),
        ("yellow", "red", "no target colour 'red'"),
        ("yellow", None, "no target colour None"),
    ],
)
def test_unknown_colours_are_rejected(card_colour, target_colour, message):
    with pytest.raises(ScoringError, match=message):
        may_place(card_colour, target_colour)


@pytest.mark.parametrize(
    ("target", "card", "message"),
    [
        ([5, 7], 3, "no card with value 3"),
        ([5, 7], 0, "no card with value 0"),
        ([5, 6], 1, "no card with value 6"),
        ([7, 7, 1], 1, "cannot hold cards totalling 15"),
        ("57", 1, "given as the values of its cards"),
        ([5], True, "no card with value True"),
    ],
)
def test_impossible_targets_and_cards_are_rejected(target, card, message):
    with pytest.raises(ScoringError, match=message):
        place(target, card)


def test_the_player_with_strictly_the_most_of_a_colour_is_spared_it():
    taken = {"Anna": {"yellow": 5, "green": 2}, "Ben": {"yellow": 3}, "Cem": {"green": 1}}
    assert deal_scores(taken) == {"Anna": 0, "Ben": 3, "Cem": 1}


def test_on_a_tie_for_most_nobody_is_spared():
    taken = {"Anna": {"blue": 4}, "Ben": {"blue": 4}, "Cem": {"blue": 2}}
    assert deal_scores(taken) == {"Anna": 4, "Ben": 4, "Cem": 2}


def test_red_4s_always_cost_two_each_even_for_the_player_with_the_most():
    taken = {"Anna": {"red": 3, "yellow": 1}, "Ben": {"red": 1}, "Cem": {}}
    assert deal_scores(taken) == {"Anna": 6, "Ben": 2, "Cem": 0}


def test_a_full_deal_scores_every_colour_on_its_own():
    taken = {
        "Anna": {"yellow": 6, "green": 2, "blue": 4, "red": 2},
        "Ben": {"yellow": 3, "green": 5, "blue": 4, "red": 1},
        "Cem": {"yellow": 1, "green": 5, "blue": 1, "red": 3},
    }
    # yellow: Anna spared; green: tie Ben/Cem, nobody spared; blue: tie, nobody.
    assert deal_scores(taken) == {"Anna": 2 + 4 + 4, "Ben": 3 + 5 + 4 + 2, "Cem": 1 + 5 + 1 + 6}


@pytest.mark.parametrize(
    ("taken", "message"),
    [
        ({"Anna": {"yellow": 15}}, "15 yellow cards taken in this deal, but there are only 14"),
        ({"Anna": {"red": 5}, "Ben": {"red": 4}}, "9 red 4s taken in this deal, but there are"),
        ({"Anna": {"purple": 1}}, "Anna: there is no colour 'purple'"),
        ({"Anna": {"blue": -1}}, "Anna: the number of blue cards cannot be negative"),
        ({"Anna": {"blue": 1.5}}, "Anna: the number of blue cards must be a whole number"),
        ({"Anna": 3}, "Anna: the taken cards must be counted per colour"),
    ],
)
def test_impossible_taken_cards_are_rejected(taken, message):
    with pytest.raises(ScoringError, match=message):
        deal_scores(taken)


# ---------------------------------------------------------------- dealer rotation


@pytest.mark.parametrize(("players", "count"), [(3, 6), (4, 4), (5, 5), (6, 6)])
def test_every_player_deals_once_and_twice_with_three_players(players, count):
    assert deals(players) == count
    assert deal_count(players) == count
    dealers = [dealer(players, 0, index) for index in range(count)]
    assert all(dealers.count(seat) == count // players for seat in range(players))


def test_the_deal_moves_clockwise_and_the_player_left_of_the_dealer_starts():
    assert [dealer(4, 2, index) for index in range(4)] == [2, 3, 0, 1]
    assert [start_player(4, 2, index) for index in range(4)] == [3, 0, 1, 2]
    assert [dealer(3, 1, index) for index in range(6)] == [1, 2, 0, 1, 2, 0]


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: deals(2), "13 is played by 3 to 6 players, not 2"),
        (lambda: deals("4"), "number of players must be a whole number, not '4'"),
        (lambda: legal_actions(None), "None is not a game state"),
        (lambda: deals(7), "13 is played by 3 to 6 players, not 7"),
        (lambda: dealer(4, 4, 0), "There is no seat 4 at a table of 4"),
        (lambda: dealer(4, 0, 4), "has deals 0 to 3, not 4"),
        (lambda: start_player(3, 0, -1), "has deals 0 to 5, not -1"),
    ],
)
def test_impossible_player_counts_seats_and_deals_are_rejected(call, message):
    with pytest.raises(ScoringError, match=message):
        call()


# ------------------------------------------------------------ variant and check page


def test_in_the_variant_the_first_coloured_card_fixes_an_empty_targets_colour():
    play = check_play(None, [], B5, variant=FIRST_CARD, colours_elsewhere=["yellow"])
    assert play.allowed
    assert play.colour == "blue"
    assert play.cards == (B5,)


def test_in_the_variant_a_red_4_does_not_fix_a_colour():
    play = check_play(None, [], R4, variant=FIRST_CARD)
    assert play.allowed
    assert play.colour is None
    then = check_play(None, play.cards, G7, variant=FIRST_CARD)
    assert then.colour == "green"
    assert then.cards == (R4, G7)
    assert then.total == 11


def test_in_the_variant_each_colour_is_on_one_target_only():
    play = check_play(None, [R4], B1, variant=FIRST_CARD, colours_elsewhere=["blue"])
    assert play.verdict is Verdict.COLOUR_ELSEWHERE
    assert play.cards == (R4,)
    assert play.taken == ()
    assert may_place_variant("blue", None, variant=FIRST_CARD, colours_elsewhere=["blue"]) is False
    assert may_place_variant("red", None, variant=FIRST_CARD, colours_elsewhere=["blue"]) is True


def test_with_fixed_colours_a_card_of_another_colour_is_refused():
    play = check_play("green", [G5], Y1)
    assert play.verdict is Verdict.WRONG_COLOUR
    assert not play.allowed
    assert play.total == 5


def test_a_red_4_that_pushes_a_target_over_13_takes_it():
    play = check_play("green", [G7, G5], R4)
    assert play.allowed
    assert play.cards == (R4,)
    assert play.taken == (G7, G5)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"target_colour": None, "cards": [], "card": Y1}, "Every target has its colour"),
        ({"target_colour": "green", "cards": [Y1], "card": G1}, "yellow card cannot lie on"),
        ({"target_colour": "green", "cards": [G7, G7, G1], "card": G1}, "totalling 15"),
        ({"target_colour": "green", "cards": [G7], "card": "G1"}, "'G1' is not a card of 13"),
        (
            {"target_colour": "green", "cards": [G7], "card": G1, "variant": FIRST_CARD,
             "colours_elsewhere": ["green"]},
            "The colour green cannot be on two targets",
        ),
        # Variant: the first coloured card on an EMPTY target fixes its colour, and the card
        # that goes over 13 stays: a target with a colour is never empty.
        (
            {"target_colour": "green", "cards": [], "card": G1, "variant": FIRST_CARD},
            "In the variant an empty target has no colour yet",
        ),
    ],
)
def test_impossible_targets_on_the_check_page_are_rejected(kwargs, message):
    with pytest.raises(ScoringError, match=message):
        check_play(**kwargs)


@pytest.mark.parametrize(
    ("colour", "value", "message"),
    [
        ("red", 5, "A red card is always a 4, not 5"),
        ("green", 4, "A green card shows 1, 2, 5 or 7, not 4"),
        ("pink", 1, "no card colour 'pink'"),
        ("blue", True, "shows 1, 2, 5 or 7, not True"),
    ],
)
def test_cards_that_do_not_exist_are_rejected(colour, value, message):
    with pytest.raises(ScoringError, match=message):
        Card(colour, value)


# ---------------------------------------------------------------------- the deck


def test_the_deck_has_14_cards_per_colour_and_8_red_4s():
    deck = build_deck({1: 3, 2: 3, 5: 4, 7: 4})
    assert len(deck) == 50
    for colour in ("yellow", "green", "blue"):
        cards = [card for card in deck if card.colour == colour]
        assert sorted(card.value for card in cards) == [1] * 3 + [2] * 3 + [5] * 4 + [7] * 4
    assert [card for card in deck if card.colour == "red"] == [R4] * 8


def test_the_deck_may_differ_per_colour():
    counts = {
        "yellow": {1: 14},
        "green": {2: 7, 7: 7},
        "blue": {1: 2, 2: 4, 5: 4, 7: 4},
    }
    deck = build_deck(counts)
    assert sum(card.value for card in deck if card.colour == "green") == 63


@pytest.mark.parametrize(
    ("counts", "message"),
    [
        ({1: 4, 2: 4, 5: 4}, "add up to 12, but every colour has 14"),
        ({1: 4, 2: 4, 3: 3, 7: 3}, "shows 1, 2, 5 or 7, not 3"),
        ({1: -1, 2: 5, 5: 5, 7: 5}, "must be a whole number from 0, not -1"),
        ({"yellow": {1: 14}, "green": {1: 14}}, "needs a count per value for blue"),
        ({"purple": {1: 14}}, "The deck has no colour 'purple'"),
    ],
)
def test_impossible_decks_are_rejected(counts, message):
    with pytest.raises(ScoringError, match=message):
        build_deck(counts)


# ----------------------------------------------------------------- the game model


def _match(variant: Variant = Variant.FIXED_COLOURS, players: tuple[str, ...] = PLAYERS) -> Match:
    decks = shuffled_decks(build_deck(), len(players), random.Random(3))
    return new_game(players, decks, variant=variant).match


def _state(
    *,
    hands: tuple[tuple[Card, ...], ...],
    targets: tuple[Target, ...],
    pile: tuple[Card, ...] = (),
    taken: tuple[tuple[Card, ...], ...] = ((), (), ()),
    current: int = 0,
    deal: int = 0,
    variant: Variant = Variant.FIXED_COLOURS,
    totals: tuple[int, ...] = (0, 0, 0),
) -> State:
    """A moment of a deal (cards not shown are out of the picture)."""
    return State(
        match=_match(variant),
        deal=deal,
        hands=hands,
        pile=pile,
        targets=targets,
        taken=taken,
        current=current,
        results=tuple((Entry(), Entry(), Entry()) for _ in range(deal)),
        totals=totals,
    )


FIXED_TARGETS = (Target("yellow"), Target("green"), Target("blue"))


def test_a_new_match_deals_five_cards_each_starting_left_of_the_dealer():
    decks = shuffled_decks(build_deck(), 4, random.Random(5))
    state = new_game(["Anna", "Ben", "Cem", "Dana"], decks, first_dealer=1)
    deck = decks[0]
    assert state.dealer == 1
    assert state.current == 2
    assert state.hands[2] == deck[0:20:4]
    assert state.hands[3] == deck[1:20:4]
    assert state.hands[0] == deck[2:20:4]
    assert state.hands[1] == deck[3:20:4]
    assert state.pile == deck[20:]
    assert state.targets == FIXED_TARGETS
    assert final_scores(state) == {"Anna": 0, "Ben": 0, "Cem": 0, "Dana": 0}


def test_in_the_variant_the_targets_start_without_colour():
    state = new_game(PLAYERS, shuffled_decks(build_deck(), 3, random.Random(1)), variant=FIRST_CARD)
    assert state.targets == (Target(None), Target(None), Target(None))


def test_the_legal_moves_are_each_card_on_the_targets_it_may_go_on():
    state = _state(hands=((Y1, R4, Y1, B7), (G1,), (G2,)), targets=FIXED_TARGETS)
    assert legal_actions(state) == (
        PlaceCard(Y1, 0),
        PlaceCard(R4, 0),
        PlaceCard(R4, 1),
        PlaceCard(R4, 2),
        PlaceCard(B7, 2),
    )


def test_in_the_variant_a_colour_fixed_on_a_target_stays_there_after_a_take():
    targets = (Target("blue", (B7, B5)), Target(None, (R4,)), Target(None))
    state = _state(hands=((B2, Y7), (G1, G2), (G5, G7)), targets=targets, variant=FIRST_CARD,
                   pile=(Y1, Y2))
    assert legal_actions(state) == (PlaceCard(B2, 0), PlaceCard(Y7, 1), PlaceCard(Y7, 2))
    state = apply(state, PlaceCard(B2, 0))
    assert state.targets[0] == Target("blue", (B2,))
    assert state.taken[0] == (B7, B5)
    state = apply(state, PlaceCard(G1, 1))
    assert state.targets[1] == Target("green", (R4, G1))
    assert legal_actions(state) == (PlaceCard(G5, 1), PlaceCard(G7, 1))
    with pytest.raises(ScoringError, match="The green cards already have their target"):
        apply(state, PlaceCard(G5, 2))


@pytest.mark.parametrize(
    ("action", "message"),
    [
        (PlaceCard(Y1, 1), "A yellow card cannot go on the green target"),
        (PlaceCard(G1, 1), "The card green 1 is not in the hand"),
        (PlaceCard(Y1, 3), "There is no target 3"),
        ("Y1 on yellow", "is not a move in 13"),
    ],
)
def test_illegal_moves_are_rejected(action, message):
    state = _state(hands=((Y1, R4), (G1,), (G2,)), targets=FIXED_TARGETS)
    with pytest.raises(ScoringError, match=message):
        apply(state, action)


def test_without_a_draw_pile_the_hands_run_down_and_the_deal_is_scored():
    targets = (Target("yellow", (Y7, Y5)), Target("green", (G5,)), Target("blue", (B7, B5)))
    state = _state(
        hands=((Y2,), (B2,), (R4,)),
        targets=targets,
        taken=((Y1, G1, G2), (R4,), (B1,)),
        current=1,
        deal=2,
        totals=(4, 1, 7),
    )
    state = apply(state, PlaceCard(B2, 2))  # Ben takes the blue 7 and 5
    state = apply(state, PlaceCard(R4, 1))  # Cem: green 5 + red 4 = 9
    assert state.taken == ((Y1, G1, G2), (R4, B7, B5), (B1,))
    state = apply(state, PlaceCard(Y2, 0))  # Anna takes the yellow 7 and 5: deal over
    # Anna: yellow 3 (most) spared, green 2 (most) spared: 0; Ben: red 4 = 2, blue 2
    # (most) spared: 2; Cem: blue 1: 1. Cards left on the targets are not scored.
    assert state.results[-1] == (Entry(yellow=3, green=2), Entry(blue=2, red=1), Entry(blue=1))
    assert state.totals == (4, 3, 8)
    # The next deal is dealt by the next player clockwise.
    assert state.deal == 3
    assert state.dealer == 0
    assert state.current == 1
    assert [len(hand) for hand in state.hands] == [5, 5, 5]
    assert state.taken == ((), (), ())
    assert state.targets == FIXED_TARGETS


def test_the_match_is_over_after_the_last_deal():
    state = _state(
        hands=((Y2,), (), ()),
        targets=(Target("yellow", (Y7, Y5)), Target("green"), Target("blue")),
        taken=((), (G1,), (G2,)),
        deal=5,
        totals=(10, 20, 30),
    )
    state = apply(state, PlaceCard(Y2, 0))
    assert state.over
    assert state.results[-1] == (Entry(yellow=2), Entry(green=1), Entry(green=1))
    assert final_scores(state) == {"Anna": 10, "Ben": 21, "Cem": 31}
    assert legal_actions(state) == ()
    assert len(deal_entries(state)) == 6
    with pytest.raises(ScoringError, match="The match is over"):
        apply(state, PlaceCard(Y2, 0))


def test_new_game_checks_players_and_decks():
    deck = build_deck()
    decks = shuffled_decks(deck, 4, random.Random(1))
    with pytest.raises(ScoringError, match="needs 4 shuffled decks, not 3"):
        new_game(["A", "B", "C", "D"], decks[:3])
    with pytest.raises(ScoringError, match="has 8 red cards, not 7"):
        new_game(["A", "B", "C", "D"], (*decks[:3], deck[:-1]))
    with pytest.raises(ScoringError, match="has 14 yellow cards, not 15"):
        new_game(["A", "B", "C", "D"], (*decks[:3], (*deck[:-1], Y1)))
    with pytest.raises(ScoringError, match="Every player must have a different name"):
        new_game(["A", "B", "C", "A"], decks)
    with pytest.raises(ScoringError, match="played by 3 to 6 players, not 2"):
        new_game(["A", "B"], decks)
    other = build_deck({1: 2, 2: 4, 5: 4, 7: 4})
    with pytest.raises(ScoringError, match="Every deal must use the same cards"):
        new_game(["A", "B", "C", "D"], (*decks[:3], other))


def test_a_random_match_records_what_the_model_scored():
    for variant in Variant:
        game = random_game(5, random.Random(4), variant=variant)
        assert len(game.deals) == 5
        assert match_totals("dreizehn", game.deals) == dict(game.totals)
        for entries in game.deals:
            validate_deal(entries)


# ------------------------------------------------------------ recording interface


def test_a_deal_is_scored_from_the_entries():
    entries = {
        "Anna": Entry(yellow=5, green=1, blue=0, red=2),
        "Ben": Entry(yellow=2, green=4, blue=3, red=0),
        "Cem": Entry(yellow=2, green=4, blue=1, red=1),
    }
    assert score_deal(entries) == {"Anna": 1 + 4, "Ben": 2 + 4, "Cem": 2 + 4 + 1 + 2}


def test_every_card_but_the_last_one_played_may_be_taken():
    validate_deal({"Anna": Entry(14, 0, 0, 4), "Ben": Entry(0, 14, 0, 4), "Cem": Entry(0, 0, 13)})


def test_it_refuses_a_deal_in_which_all_50_cards_were_taken():
    # The card played last stays on its target: at least one card is never taken.
    with pytest.raises(ScoringError, match="All 50 cards are taken") as caught:
        validate_deal({"Anna": Entry(14, 0, 0, 4), "Ben": Entry(0, 14, 0, 4),
                       "Cem": Entry(0, 0, 14)})
    assert caught.value.code == "deck_taken"


@pytest.mark.parametrize(
    ("entries", "message"),
    [
        ({"A": Entry(yellow=9), "B": Entry(yellow=6), "C": Entry()}, "15 yellow cards"),
        ({"A": Entry(green=15), "B": Entry(), "C": Entry()}, "15 green cards"),
        ({"A": Entry(blue=8), "B": Entry(blue=7), "C": Entry()}, "15 blue cards"),
        ({"A": Entry(red=5), "B": Entry(red=4), "C": Entry()}, "9 red 4s"),
        ({"A": Entry(red=-1), "B": Entry(), "C": Entry()}, "A: the number of red cards cannot"),
        ({"A": Entry(yellow="2"), "B": Entry(), "C": Entry()}, "must be a whole number"),
        ({"A": Entry(), "B": Entry()}, "3 to 6 players, not 2"),
        ({p: Entry() for p in "ABCDEFG"}, "3 to 6 players, not 7"),
        ({"A": {"yellow": 1}, "B": Entry(), "C": Entry()}, "is not an entry of 13"),
    ],
)
def test_impossible_entries_are_rejected(entries, message):
    with pytest.raises(ScoringError, match=message):
        validate_deal(entries)
    with pytest.raises(ScoringError, match=message):
        score_deal(entries)


def test_an_entry_round_trips_through_its_dict():
    entry = Entry(yellow=3, green=0, blue=2, red=1)
    assert entry_to_dict(entry) == {"yellow": 3, "green": 0, "blue": 2, "red": 1}
    assert entry_from_dict(entry_to_dict(entry)) == entry
    assert entry_from_dict({"blue": 2}) == Entry(blue=2)


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"yellow": -1}, "yellow cards cannot be negative"),
        ({"green": 1.0}, "green cards must be a whole number, not 1.0"),
        ({"red": False}, "red cards must be a whole number, not False"),
        ({"purple": 1}, "has no field purple"),
        ("yellow", "must be given as fields and values"),
    ],
)
def test_an_entry_from_bad_data_is_rejected(data, message):
    with pytest.raises(ScoringError, match=message):
        entry_from_dict(data)


def test_a_target_of_two_or_more_cards_never_totals_more_than_13() -> None:
    assert check_target("yellow", [Card("yellow", 7)]) == 7
    assert check_target("yellow", [Card("yellow", 7), Card("red", 4), Card("yellow", 2)]) == 13
    for cards in ([Card("yellow", 7)] * 2, [Card("red", 4)] * 4):
        with pytest.raises(ScoringError) as refused:
            check_target("yellow", cards)
        assert refused.value.code == "target_over"
    with pytest.raises(ScoringError, match="cannot lie on a target that has no colour yet"):
        check_target(None, [Card("green", 2)], variant=Variant.COLOUR_BY_FIRST_CARD)

"""3 sind einer zuviel!: contract, recording interface, live mode and game model."""

from __future__ import annotations

import pytest

from scoring import ScoringError
from scoring import drei_sind_einer_zuviel as game
from scoring.drei_sind_einer_zuviel import (
    COLOURS,
    ColourCounts,
    Entry,
    collection_score,
    entry_from_dict,
    entry_from_open_face_down,
    entry_to_dict,
    live_entries,
    live_replay,
    live_start,
    live_turn,
    live_view,
    place,
    score_deal,
    validate_deal,
)

ALL_ONE = dict.fromkeys(COLOURS, 1)


# --- Worked examples from the rules -----------------------------------------


def test_a_card_between_two_others_is_inserted_and_nothing_is_taken() -> None:
    result = place([(10, 19, 24), (46, 57), (77,)], 40)
    assert result.rows == ((10, 19, 24), (40, 46, 57), (77,))
    assert result.taken == ()
    assert result.row == 1


def test_the_highest_fifth_card_takes_the_lowest_card_of_the_row() -> None:
    result = place([(10, 19, 24), (40, 46, 57), (77,)], 28)
    assert result.rows == ((19, 24, 28), (40, 46, 57), (77,))
    assert result.taken == (10,)


def test_a_fifth_card_that_is_not_the_highest_takes_every_higher_card() -> None:
    result = place([(19, 24, 28), (40, 46, 57), (77,)], 37)
    assert result.rows == ((19, 24, 28), (37,), (77,))
    assert result.taken == (40, 46, 57)


def test_thomas_scores_20_points_at_the_end() -> None:
    # four colours with 1 open card, two with 2 open, six face-down cards
    # (a colour with 3 and one with 4), interim bonus 7, six open colours
    taken = {"orange": 1, "flieder": 1, "hellblau": 1, "rot": 4,
             "tuerkis": 2, "magenta": 2, "olivgruen": 3}
    assert collection_score(taken, interim_bonus=7) == 20


# --- Placement edge cases ----------------------------------------------------


@pytest.mark.parametrize(
    ("rows", "card", "new_rows", "taken"),
    [
        ([(), (), ()], 1, ((1,), (), ()), ()),
        ([(), (), ()], 29, ((29,), (), ()), ()),
        ([(), (), ()], 31, ((), (31,), ()), ()),
        ([(), (), ()], 89, ((), (), (89,)), ()),
        ([(), (), (62, 70, 80)], 61, ((), (), (61,)), (62, 70, 80)),
        ([(), (), (62, 70, 80)], 65, ((), (), (62, 65)), (70, 80)),
        ([(), (), (62, 70, 80)], 79, ((), (), (62, 70, 79)), (80,)),
        ([(), (), (62, 70, 80)], 89, ((), (), (70, 80, 89)), (62,)),
        ([(15,), (), ()], 16, ((15, 16), (), ()), ()),
    ],
)
def test_placement_follows_the_rules(
    rows: list[tuple[int, ...]], card: int, new_rows: tuple[tuple[int, ...], ...],
    taken: tuple[int, ...],
) -> None:
    result = place(rows, card)
    assert result.rows == new_rows
    assert result.taken == taken


def test_place_does_not_change_its_arguments() -> None:
    rows = [[10, 19, 24], [40], []]
    place(rows, 28)
    assert rows == [[10, 19, 24], [40], []]


@pytest.mark.parametrize(
    ("rows", "card", "message"),
    [
        ([(), (), ()], 0, "Card 0 is a start card and is never played."),
        ([(), (), ()], 30, "Card 30 is a start card and is never played."),
        ([(), (), ()], 90, "There is no card 90: number cards go from 1 to 89."),
        ([(), (), ()], -1, "There is no card -1: number cards go from 1 to 89."),
        ([(), (), ()], True, "There is no card True: number cards go from 1 to 89."),
        ([(10,), (), ()], 10, "Card 10 is already on the table."),
        ([(40,), (), ()], 10, "Card 40 does not belong in row 1."),
        ([(1, 2, 3, 4), (), ()], 10,
         "Row 1 holds at most 3 number cards besides its start card, not 4."),
        # "Within a row, cards lie in ascending order": said with the two cards, no list.
        ([(3, 2), (), ()], 10, "Row 1 must ascend from left to right, but 2 follows 3."),
        ([(3, 3), (), ()], 10, "Card 3 appears twice."),
        ([(), ()], 10, "The table has exactly three rows, not [(), ()]."),
        ([(), (), 5], 10, "Row 3 must be a list of cards, not 5."),
    ],
)
def test_place_rejects_impossible_tables(
    rows: list[object], card: int, message: str
) -> None:
    with pytest.raises(ScoringError) as info:
        place(rows, card)  # type: ignore[arg-type]
    assert str(info.value) == message


# --- Collection scoring -------------------------------------------------------


@pytest.mark.parametrize(
    ("n", "points"),
    [(0, 0), (1, 1), (2, 5), (3, -3), (4, -2), (5, 2), (6, -6), (7, -5), (8, -1),
     (9, -9), (10, -8), (11, -4), (12, -12)],
)
def test_one_colour_scores_open_cards_and_minus_one_per_face_down_card(
    n: int, points: int
) -> None:
    assert collection_score({"rot": n}) == points


def test_the_fourth_card_of_a_colour_counts_as_a_new_first_card() -> None:
    assert collection_score({"rot": 4}) == 1 - 3


def test_six_open_colours_give_a_final_bonus_of_5() -> None:
    taken = dict.fromkeys(COLOURS[:6], 1)
    assert collection_score(taken) == 6 + 5


def test_seven_open_colours_give_a_final_bonus_of_10() -> None:
    assert collection_score(ALL_ONE) == 7 + 10


def test_a_colour_with_only_face_down_cards_is_not_open() -> None:
    taken = {**ALL_ONE, "rot": 3}
    assert collection_score(taken) == 6 - 3 + 5


def test_the_interim_bonus_is_added() -> None:
    assert collection_score(ALL_ONE, interim_bonus=10) == 7 + 10 + 10


@pytest.mark.parametrize(
    ("taken", "bonus", "message"),
    [
        ({"rot": 13}, 0, "There are only 12 cards of rot, not 13."),
        ({"rot": -1}, 0, "The count for rot cannot be negative (-1)."),
        ({"rot": 1.5}, 0, "The count for rot must be a whole number, not 1.5."),
        ({"rot": True}, 0, "The count for rot must be a whole number, not True."),
        ({"red": 1}, 0, "Unknown colour 'red'; the colours are orange, flieder, hellblau, "
                        "rot, tuerkis, magenta, olivgruen."),
        ({}, 4, "The interim bonus (Zwischenwertung) is 10, 7, 5, 3 or 0 for none, not 4."),
    ],
)
def test_collection_score_rejects_impossible_collections(
    taken: dict[str, object], bonus: int, message: str
) -> None:
    with pytest.raises(ScoringError) as info:
        collection_score(taken, interim_bonus=bonus)  # type: ignore[arg-type]
    assert str(info.value) == message


# --- Entries -----------------------------------------------------------------


def test_an_entry_stores_all_seven_colours_immutably_and_is_hashable() -> None:
    counts = {"rot": 2}
    entry = Entry(counts, 10)
    counts["rot"] = 5
    assert entry.taken["rot"] == 2
    assert entry.taken["orange"] == 0
    assert tuple(entry.taken) == COLOURS
    assert hash(entry) == hash(Entry({"rot": 2, "orange": 0}, 10))
    assert entry == Entry({"rot": 2}, 10)


def test_an_entry_splits_colours_into_open_and_face_down_cards() -> None:
    entry = Entry({"rot": 7, "orange": 2, "magenta": 3})
    assert entry.open == {"rot": 1, "orange": 2}
    assert entry.face_down == {"rot": 6, "magenta": 3}
    assert entry.open_colours == 2


def test_an_entry_from_open_and_face_down_counts_adds_them_up() -> None:
    entry = entry_from_open_face_down({"rot": 1, "orange": 2}, {"rot": 6, "magenta": 3}, 7)
    assert entry == Entry({"rot": 7, "orange": 2, "magenta": 3}, 7)


@pytest.mark.parametrize(
    ("open_", "face_down", "message"),
    [
        ({"rot": 3}, {}, "At most 2 cards of a colour lie open; rot has 3."),
        ({}, {"magenta": 4}, "Face-down cards come in threes; magenta has 4."),
        ({}, {"magenta": -3}, "The count for magenta cannot be negative (-3)."),
    ],
)
def test_open_and_face_down_counts_must_be_possible(
    open_: dict[str, int], face_down: dict[str, int], message: str
) -> None:
    with pytest.raises(ScoringError) as info:
        entry_from_open_face_down(open_, face_down)
    assert str(info.value) == message


def test_both_ways_of_counting_at_the_end_give_the_same_score() -> None:
    by_total = Entry({"orange": 1, "flieder": 1, "hellblau": 1, "rot": 4,
                      "tuerkis": 2, "magenta": 2, "olivgruen": 3}, 7)
    by_sides = entry_from_open_face_down(
        {"orange": 1, "flieder": 1, "hellblau": 1, "rot": 1, "tuerkis": 2, "magenta": 2},
        {"rot": 3, "olivgruen": 3}, 7,
    )
    assert by_total == by_sides
    assert by_sides.score == 20


def test_an_entry_survives_the_round_trip_through_a_dict() -> None:
    entry = Entry({"rot": 4, "tuerkis": 1}, 5)
    data = entry_to_dict(entry)
    assert data == {"taken": {**dict.fromkeys(COLOURS, 0), "rot": 4, "tuerkis": 1},
                    "interim_bonus": 5}
    assert entry_from_dict(data) == entry


def test_entry_from_dict_tolerates_missing_optional_keys() -> None:
    assert entry_from_dict({}) == Entry({}, 0)
    assert entry_from_dict({"taken": {"rot": 1}}) == Entry({"rot": 1}, 0)


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"taken": {}, "bonus": 3}, "Unknown entry field(s): bonus."),
        ({"taken": [1, 2]}, "Counts per colour must be a mapping, not [1, 2]."),
        ({"taken": {"rot": "2"}}, "The count for rot must be a whole number, not '2'."),
        ({"taken": {"rot": -2}}, "The count for rot cannot be negative (-2)."),
        ({"taken": {"blau": 2}}, "Unknown colour 'blau'; the colours are orange, flieder, "
                                 "hellblau, rot, tuerkis, magenta, olivgruen."),
        ({"interim_bonus": "10"},
         "The interim bonus (Zwischenwertung) is 10, 7, 5, 3 or 0 for none, not '10'."),
        ({"interim_bonus": 6},
         "The interim bonus (Zwischenwertung) is 10, 7, 5, 3 or 0 for none, not 6."),
        ([1], "Expected the entry as a mapping, not [1]."),
    ],
)
def test_entry_from_dict_rejects_bad_data(data: object, message: str) -> None:
    with pytest.raises(ScoringError) as info:
        entry_from_dict(data)  # type: ignore[arg-type]
    assert str(info.value) == message


# --- Validation and scoring of a game ----------------------------------------


def test_one_game_is_one_deal() -> None:
    assert [game.deal_count(n) for n in (2, 3, 4)] == [1, 1, 1]


def test_the_game_is_for_two_to_four_players() -> None:
    with pytest.raises(ScoringError, match="played by 2 to 4 players, not 5"):
        game.deal_count(5)
    with pytest.raises(ScoringError, match="played by 2 to 4 players, not 1"):
        validate_deal({"Anna": Entry({})})


def test_score_deal_gives_each_player_their_collection_score() -> None:
    entries = {
        "Anna": Entry({"orange": 1, "flieder": 1, "hellblau": 1, "rot": 4,
                       "tuerkis": 2, "magenta": 2, "olivgruen": 3}, 10),
        "Ben": Entry({"rot": 2}),
        "Cem": Entry({"rot": 5, "magenta": 1}),
    }
    assert score_deal(entries) == {"Anna": 23, "Ben": 5, "Cem": -3 + 5 + 1}


@pytest.mark.parametrize(
    ("entries", "message"),
    [
        ({"Anna": Entry({"rot": 7}), "Ben": Entry({"rot": 6})},
         "Together the players took 13 cards of rot, but there are only 12."),
        ({"Anna": Entry({}, 7), "Ben": Entry({})},
         "Anna has the interim bonus 7, but nobody has the 10."),
        ({"Anna": Entry(ALL_ONE, 10), "Ben": Entry(ALL_ONE, 5), "Cem": Entry({})},
         "Ben has the interim bonus 5, but nobody has the 7."),
        ({"Anna": Entry(ALL_ONE, 10), "Ben": Entry(ALL_ONE, 10)},
         "Anna and Ben both have the interim bonus 10; there is one of each."),
        ({"Anna": Entry({"rot": 3}, 10), "Ben": Entry({})},
         "Anna has the interim bonus 10 but took no card of orange, flieder, hellblau, "
         "tuerkis, magenta, olivgruen; it needs all seven colours open."),
        ({"Anna": Entry(dict.fromkeys(COLOURS, 6)), "Ben": Entry({})},
         "With 2 players at most 38 cards can be taken in a game, not 42."),
        ({"Anna": Entry({}), "Ben": {"rot": 1}},
         "The entry of Ben is not an entry: {'rot': 1}."),
        ({"Anna": Entry({}), "": Entry({})},
         "Player names must be non-empty text, not ''."),
    ],
)
def test_validate_deal_rejects_impossible_games(entries: object, message: str) -> None:
    with pytest.raises(ScoringError) as info:
        score_deal(entries)  # type: ignore[arg-type]
    assert str(info.value) == message


def test_84_coloured_cards_in_all_is_the_limit_checked_before_the_player_bound() -> None:
    entries = {f"P{i}": Entry(dict.fromkeys(COLOURS, 3)) for i in range(4)}
    with pytest.raises(ScoringError) as info:
        validate_deal(entries)
    assert str(info.value) == "With 4 players at most 74 cards can be taken in a game, not 84."


def test_interim_bonuses_handed_out_in_order_are_accepted() -> None:
    entries = {
        "Anna": Entry(ALL_ONE, 7),
        "Ben": Entry(ALL_ONE, 10),
        "Cem": Entry(ALL_ONE, 5),
        "Dora": Entry({"rot": 3}),
    }
    validate_deal(entries)
    assert score_deal(entries)["Cem"] == 7 + 10 + 5


# --- Live recording -------------------------------------------------------------


def test_a_live_game_starts_empty_with_the_full_interim_stack() -> None:
    state = live_start(["Anna", "Ben", "Cem"])
    assert state.players == ("Anna", "Ben", "Cem")
    assert state.stack == (10, 7, 5, 3)
    assert state.bonuses == {}
    assert live_view(state, "Ben").score == 0


def test_the_third_card_of_a_colour_turns_all_three_face_down() -> None:
    state = live_replay(["Anna", "Ben"], [("Anna", ["rot", "rot"]), ("Anna", ["rot"])])
    view = live_view(state, "Anna")
    assert view.open["rot"] == 0
    assert view.face_down["rot"] == 3
    assert view.score == -3


def test_all_seven_open_colours_after_a_turn_win_the_top_interim_card() -> None:
    turns: list[tuple[str, list[str]]] = [
        ("Anna", ["orange", "flieder", "hellblau"]),
        ("Ben", ["orange", "flieder", "hellblau"]),
        ("Anna", ["rot", "tuerkis", "magenta"]),
        ("Ben", ["rot", "tuerkis", "magenta"]),
        ("Ben", ["olivgruen"]),
        ("Anna", ["olivgruen"]),
    ]
    state = live_replay(["Anna", "Ben"], turns)
    assert state.bonuses == {"Ben": 10, "Anna": 7}
    assert state.stack == (5, 3)
    assert live_view(state, "Anna").score == 7 + 10 + 7


def test_a_player_gets_the_interim_bonus_only_once() -> None:
    state = live_replay(["Anna", "Ben"], [
        ("Anna", ["orange", "flieder", "hellblau"]),
        ("Anna", ["rot", "tuerkis", "magenta"]),
        ("Anna", ["olivgruen"]),
        ("Anna", ["orange", "orange"]),
        ("Anna", ["orange"]),
    ])
    assert state.interim == (10, 0)
    assert state.stack == (7, 5, 3)


def test_a_player_without_seven_open_colours_gets_no_interim_bonus() -> None:
    state = live_replay(["Anna", "Ben"], [
        ("Anna", ["orange", "flieder", "hellblau"]),
        ("Anna", ["rot", "tuerkis", "magenta"]),
        ("Anna", ["orange", "orange", "olivgruen"]),
    ])
    assert state.interim == (0, 0)


def test_live_turns_do_not_change_the_earlier_state() -> None:
    start = live_start(["Anna", "Ben"])
    after = live_turn(start, "Anna", ["rot"])
    assert start.taken[0]["rot"] == 0
    assert after.taken[0]["rot"] == 1


def test_undo_is_replaying_all_turns_but_the_last() -> None:
    turns = [("Anna", ["rot"]), ("Ben", ["orange", "orange"]), ("Anna", ["rot", "rot"])]
    before = live_replay(["Anna", "Ben"], turns[:2])
    assert before == game.LiveGame(
        ("Anna", "Ben"),
        (ColourCounts({"rot": 1}), ColourCounts({"orange": 2})),
        (0, 0),
    )
    assert live_view(live_replay(["Anna", "Ben"], turns), "Anna").face_down["rot"] == 3


def test_live_mode_and_end_counting_give_the_same_scores() -> None:
    turns: list[tuple[str, list[str]]] = [
        ("Anna", ["orange", "flieder", "hellblau"]),
        ("Anna", ["rot", "tuerkis", "magenta"]),
        ("Ben", ["rot", "rot", "rot"]),
        ("Anna", ["olivgruen", "rot"]),
        ("Ben", ["rot"]),
        ("Cem", ["magenta"]),
    ]
    state = live_replay(["Anna", "Ben", "Cem"], turns)
    entries = live_entries(state)
    assert entries == {
        "Anna": Entry({"orange": 1, "flieder": 1, "hellblau": 1, "rot": 2,
                       "tuerkis": 1, "magenta": 1, "olivgruen": 1}, 10),
        "Ben": Entry({"rot": 4}),
        "Cem": Entry({"magenta": 1}),
    }
    expected = {"Anna": 6 + 5 + 10 + 10, "Ben": 1 - 3, "Cem": 1}
    assert score_deal(entries) == expected
    assert {p: live_view(state, p).score for p in state.players} == expected
    by_sides = {p: entry_from_open_face_down(v.open, v.face_down, v.interim_bonus)
                for p, v in ((p, live_view(state, p)) for p in state.players)}
    assert score_deal(by_sides) == expected


@pytest.mark.parametrize(
    ("turns", "message"),
    [
        ([("Cem", ["rot"])], "'Cem' does not play in this match."),
        ([("Anna", ["grau"])], "Unknown colour 'grau'; the colours are orange, flieder, "
                               "hellblau, rot, tuerkis, magenta, olivgruen."),
        ([("Anna", ["rot"] * 4)], "A turn takes at most 3 cards, but 4 were recorded for Anna."),
        ([("Anna", "rot")], "Expected a list of colours, one per card taken, not 'rot'."),
        ([("Anna", ["rot"] * 3)] * 4 + [("Ben", ["rot"])],
         "Together the players took 13 cards of rot, but there are only 12."),
        ([("Anna",)], "A turn is (player, colours), not ('Anna',)."),
    ],
)
def test_live_mode_rejects_impossible_turns(
    turns: list[tuple[str, list[str]]], message: str
) -> None:
    with pytest.raises(ScoringError) as info:
        live_replay(["Anna", "Ben"], turns)
    assert str(info.value) == message


@pytest.mark.parametrize(
    ("players", "message"),
    [
        (["Anna"], "3 sind einer zuviel! is played by 2 to 4 players, not 1."),
        (["Anna", "Anna"], "Anna is listed twice."),
        ("Anna", "Expected a list of player names, not 'Anna'."),
    ],
)
def test_live_start_rejects_bad_player_lists(players: list[str], message: str) -> None:
    with pytest.raises(ScoringError) as info:
        live_start(players)
    assert str(info.value) == message


# --- Game model -------------------------------------------------------------------
# The synthetic deck colours the 84 coloured numbers in turn: 1 orange,
# 2 flieder, 3 hellblau, 4 rot, 5 tuerkis, 6 magenta, 7 olivgruen, 8 orange, ...
# (15, 45, 75 are grey and skipped), so 31–37 and 61–67 run orange…olivgruen too.


def make_game(
    anna: list[int], ben: list[int], setup: list[int], first: int = 0
) -> game.GameState:
    """A two-player game whose piles start with the given cards, filled up with unused ones."""
    used = set(anna) | set(ben) | set(setup)
    spare = [c for c in game.NUMBER_CARDS if c not in used]
    piles = [anna + spare[: 20 - len(anna)], ben + spare[20 - len(anna): 40 - len(anna) - len(ben)]]
    return game.setup_game(["Anna", "Ben"], setup=setup, piles=piles, first=first)


def play(state: game.GameState, *cards: int) -> game.GameState:
    for card in cards:
        state = game.apply(state, game.Play(card))
    return state


def test_the_synthetic_deck_has_twelve_cards_of_each_colour_and_no_grey_or_start_card() -> None:
    deck = game.synthetic_deck()
    assert sorted(deck) == [c for c in range(1, 90) if c not in (15, 30, 45, 60, 75)]
    assert {colour: list(deck.values()).count(colour) for colour in COLOURS} == dict.fromkeys(
        COLOURS, 12)
    assert [deck[c] for c in (1, 7, 8, 16, 31, 37, 61, 67)] == [
        "orange", "olivgruen", "orange", "orange", "orange", "olivgruen", "orange", "olivgruen"]


def test_setup_places_three_cards_by_the_rules_and_deals_eight_of_twenty() -> None:
    state = make_game(list(range(31, 39)), list(range(61, 69)), setup=[24, 10, 19])
    assert state.rows == ((10, 19, 24), (), ())
    assert state.hands == (tuple(range(31, 39)), tuple(range(61, 69)))
    assert [len(pile) for pile in state.piles] == [12, 12]
    assert len(state.box) == 87 - 3 - 40
    assert state.current == 0
    assert state.stack == (10, 7, 5, 3)


def test_a_shuffled_game_deals_twenty_cards_per_player_and_boxes_the_rest() -> None:
    import random

    state = game.new_game(["Anna", "Ben", "Cem", "Dora"], random.Random(3), first=2)
    assert [len(hand) for hand in state.hands] == [8, 8, 8, 8]
    assert [len(pile) for pile in state.piles] == [12, 12, 12, 12]
    assert sum(len(row) for row in state.rows) == 3
    assert len(state.box) == 87 - 3 - 80
    assert state.current == 2


def test_the_only_decision_is_which_hand_card_to_play() -> None:
    state = make_game([5, 50, 70], [], setup=[61, 62, 63])
    assert [a.card for a in game.legal_actions(state)] == sorted(state.hands[0])
    after = play(state, 50)
    assert after.rows == ((), (50,), (61, 62, 63))
    assert after.current == 1
    assert 50 not in after.hands[0]
    assert after.hands[0] == tuple(c for c in state.hands[0] if c != 50)


def test_the_highest_fifth_card_takes_the_lowest_into_the_collection() -> None:
    state = play(make_game([28], [], setup=[10, 19, 24]), 28)
    assert state.rows == ((19, 24, 28), (), ())
    assert state.taken(0) == {"hellblau": 1}  # 10 is the 9th coloured card: hellblau
    assert state.open[0][COLOURS.index("hellblau")] == (10,)


def test_a_taken_grey_card_goes_back_to_the_box() -> None:
    state = make_game([11], [], setup=[10, 12, 15])
    state = play(state, 11)
    assert state.rows == ((10, 11), (), ())
    assert 15 in state.box
    assert state.taken(0) == {"tuerkis": 1}  # 12 is tuerkis
    assert state.taken(0).total() == 1


def test_the_third_card_of_a_colour_turns_the_three_face_down_and_the_fourth_is_new() -> None:
    # 1, 8, 16 and 23 are orange; 29 is olivgruen
    state = make_game([29, 2, 23, 40, 41], [61, 62, 63, 64], setup=[1, 8, 16])
    state = play(state, 29, 61)  # Anna takes 1
    assert state.open[0][0] == (1,)
    state = play(state, 2, 62)  # Anna takes 8, 16, 29
    orange = 0
    assert state.open[0][orange] == ()
    assert state.face_down[0][orange] == (1, 8, 16)
    assert state.taken(0) == {"orange": 3, "olivgruen": 1}
    state = play(state, 40, 63, 41, 64, 23)  # row 1 is (2) → (2, 23): nothing taken
    assert state.rows[0] == (2, 23)


def test_a_fourth_card_of_a_colour_lies_open_again() -> None:
    # 1, 8, 16 and 61 are orange, 29 olivgruen
    state = make_game([29, 2, 40, 89], [61, 62, 63], setup=[1, 8, 16])
    state = play(state, 29, 61, 2, 62)  # Anna takes 1, then 8, 16, 29
    state = play(state, 40, 63, 89)  # row 3 is 61, 62, 63: the highest 89 takes 61
    orange = 0
    assert state.open[0][orange] == (61,)
    assert state.face_down[0][orange] == (1, 8, 16)
    assert state.taken(0) == {"orange": 4, "olivgruen": 1}
    assert game.recorded_entries(state)["Anna"].score == 1 - 3 + 1


def test_all_seven_open_colours_after_the_own_turn_win_the_top_interim_card() -> None:
    anna = [4, 31, 61, 63, 64, 89, 50, 51]
    ben = [32, 33, 34, 10, 11, 52, 53, 54]
    state = make_game(anna, ben, setup=[5, 6, 7])
    state = play(state, 4)  # takes 5 tuerkis, 6 magenta, 7 olivgruen
    assert state.taken(0) == {"tuerkis": 1, "magenta": 1, "olivgruen": 1}
    state = play(state, 32, 61, 33, 63, 34, 64, 10)
    state = play(state, 31)  # takes 32 flieder, 33 hellblau, 34 rot
    assert state.interim == (0, 0)
    state = play(state, 11)
    state = play(state, 89)  # takes 61 orange: all seven colours open
    assert state.taken(0) == dict.fromkeys(COLOURS, 1)
    assert state.interim == (10, 0)
    assert state.stack == (7, 5, 3)


def test_a_hand_of_two_is_refilled_with_six_from_the_pile_twice() -> None:
    anna = list(range(1, 9)) + list(range(16, 22)) + list(range(22, 28))
    state = make_game(anna, list(range(61, 75)), setup=[31, 32, 33])
    state = play(state, 1, 61, 2, 62, 3, 63, 4, 64, 5, 65)
    assert len(state.hands[0]) == 3
    state = play(state, 6)
    assert state.hands[0] == (7, 8, 16, 17, 18, 19, 20, 21)
    assert state.piles[0] == (22, 23, 24, 25, 26, 27)
    state = play(state, 66, 7, 67, 8, 68, 16, 69, 17, 70, 18, 71)
    assert state.hands[0] == (19, 20, 21)
    state = play(state, 19)
    assert state.hands[0] == (20, 21, 22, 23, 24, 25, 26, 27)
    assert state.piles[0] == ()


def test_the_game_ends_after_eighteen_plays_each_and_the_last_two_cards_are_boxed() -> None:
    import random

    state = game.new_game(["Anna", "Ben", "Cem"], random.Random(11))
    steps = 0
    while game.legal_actions(state):
        last_hands = state.hands
        state = game.apply(state, game.legal_actions(state)[0])
        steps += 1
    assert steps == 3 * 18
    assert state.finished
    assert state.hands == ((), (), ())
    assert state.piles == ((), (), ())
    assert set(last_hands[1]) <= set(state.box)  # Cem played last; Anna and Ben held two
    with pytest.raises(ScoringError, match="The game is over"):
        game.apply(state, game.Play(1))
    assert game.final_scores(state) == score_deal(game.recorded_entries(state))


def test_final_scores_count_thomas_collection_as_20_points() -> None:
    import dataclasses
    import random

    state = game.new_game(["Thomas", "Ben"], random.Random(0))
    while not state.finished:
        state = game.apply(state, game.legal_actions(state)[0])
    # open: four colours with one card, two with two; face down: six cards
    thomas_open = ((1,), (2,), (3,), (4,), (5, 12), (6, 13), ())
    thomas_down = ((), (), (), (11, 18, 25), (), (), (7, 14, 22))
    state = dataclasses.replace(
        state,
        open=(thomas_open, ((),) * 7),
        face_down=(thomas_down, ((),) * 7),
        interim=(7, 10),
    )
    assert game.final_scores(state) == {"Thomas": 4 + 10 - 6 + 7 + 5, "Ben": 10}


def test_final_scores_need_a_finished_game() -> None:
    state = make_game([], [], setup=[1, 2, 3])
    with pytest.raises(ScoringError) as info:
        game.final_scores(state)
    assert str(info.value) == "The game is not over yet: 36 cards still to play."


@pytest.mark.parametrize(
    ("action", "message"),
    [
        (game.Play(6), "Anna does not hold card 6."),
        (game.Play(True), "Anna does not hold card True."),
        (6, "Expected a play, not 6."),
    ],
)
def test_a_player_cannot_play_a_card_they_do_not_hold(action: object, message: str) -> None:
    state = make_game([5, 1], [6], setup=[2, 3, 4])
    with pytest.raises(ScoringError) as info:
        game.apply(state, action)  # type: ignore[arg-type]
    assert str(info.value) == message


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({15: "rot"}, "Card 15 has no colour in this game; only 1–89 without 0, 30, 60, "
                      "15, 45, 75 do."),
        ({1: "grau"}, "Unknown colour 'grau'; the colours are orange, flieder, hellblau, "
                      "rot, tuerkis, magenta, olivgruen."),
        ({1: "flieder"}, "The deck has 11 cards of orange; there are 12 of each colour."),
        ({1: None}, "The deck gives no colour for card 1."),
    ],
)
def test_a_deck_description_must_colour_84_cards_twelve_each(
    change: dict[int, str | None], message: str
) -> None:
    deck = {**game.synthetic_deck(), **change}
    deck = {card: colour for card, colour in deck.items() if colour is not None}
    with pytest.raises(ScoringError) as info:
        game.Deck.from_mapping(deck)  # type: ignore[arg-type]
    assert str(info.value) == message


def test_the_game_model_uses_the_colours_of_the_given_deck() -> None:
    deck = game.synthetic_deck()
    deck[10], deck[1] = deck[1], deck[10]  # 10 becomes orange, 1 hellblau
    used = {10, 19, 24, 28}
    spare = [c for c in game.NUMBER_CARDS if c not in used]
    state = game.setup_game(["Anna", "Ben"], setup=[10, 19, 24],
                            piles=[[28, *spare[:19]], spare[19:39]], deck=deck)
    state = play(state, 28)
    assert state.taken(0) == {"orange": 1}
    assert state.deck.colour(10) == "orange"
    assert state.deck.colour(45) is None


@pytest.mark.parametrize(
    ("setup", "piles", "message"),
    [
        ([1, 2], [list(range(3, 23)), list(range(31, 51))],
         "Setup places exactly 3 number cards, not [1, 2]."),
        ([1, 2, 3], [list(range(3, 23)), list(range(31, 51))], "Card 3 is dealt twice."),
        ([1, 2, 30], [list(range(3, 23)), list(range(31, 51))],
         "Card 30 cannot be dealt: 1–89 without 30 and 60."),
        ([1, 2, 90], [list(range(3, 23)), list(range(31, 51))],
         "Card 90 cannot be dealt: 1–89 without 30 and 60."),
        ([1, 2, 3], [list(range(4, 23))], "Every player needs a draw pile: 2 piles expected."),
        ([1, 2, 3], [list(range(4, 23)), list(range(31, 51))],
         "The draw pile of Anna must have 20 cards."),
    ],
)
def test_setup_rejects_impossible_deals(
    setup: list[int], piles: list[list[int]], message: str
) -> None:
    with pytest.raises(ScoringError) as info:
        game.setup_game(["Anna", "Ben"], setup=setup, piles=piles)
    assert str(info.value) == message


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_random_game_records_what_the_model_scores(players: int) -> None:
    import random

    result = game.random_game(players, random.Random(players))
    assert result.players == tuple(f"P{i}" for i in range(1, players + 1))
    assert len(result.deals) == game.deal_count(players) == 1
    assert score_deal(result.deals[0]) == result.totals

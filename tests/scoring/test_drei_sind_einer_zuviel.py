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
        ([(3, 2), (), ()], 10, "Row 1 must be ascending without repeats: [3, 2]."),
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
        ([("Cem", ["rot"])], "'Cem' does not play in this game."),
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

"""6 nimmt!: Hornochsen, placement, whole rounds, deal validation and the end of a match."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring import GAMES, ScoringError, rank
from scoring.common import match_totals, rules_for
from scoring.sechs_nimmt import (
    CARDS,
    HAND_SIZE,
    MAX_HORNOCHSEN,
    ROW_LIMIT,
    ROWS,
    Entry,
    Options,
    PlacementRule,
    cards_in_play,
    deal_count,
    entry_from_dict,
    entry_to_dict,
    explain_deal,
    hornochsen,
    match_over,
    options_from_dict,
    options_to_dict,
    play,
    random_game,
    resolve_round,
    score_deal,
    validate_deal,
)


def test_it_is_registered_as_the_sixth_game() -> None:
    info = GAMES["sechs-nimmt"]
    assert (info.title, info.min_players, info.max_players, info.lower_is_better) == (
        "6 nimmt!", 2, 10, True)
    assert rules_for("sechs-nimmt").deal_count(4, {"deals": 3}) == 3


def test_the_104_cards_show_171_hornochsen_by_the_scheme() -> None:
    values = [hornochsen(card) for card in CARDS]
    assert len(values) == 104 and sum(values) == MAX_HORNOCHSEN == 171
    assert [values.count(n) for n in (1, 2, 3, 5, 7)] == [76, 9, 10, 8, 1]


@pytest.mark.parametrize(("card", "value"), [
    (1, 1), (5, 2), (10, 3), (11, 5), (55, 7), (66, 5), (100, 3), (101, 1), (104, 1), (95, 2),
])
def test_it_counts_the_hornochsen_of_a_card(card: int, value: int) -> None:
    assert hornochsen(card) == value


@pytest.mark.parametrize("card", [0, 105, -3, True, "7"])
def test_it_rejects_a_card_that_does_not_exist(card: object) -> None:
    with pytest.raises(ScoringError):
        hornochsen(card)  # type: ignore[arg-type]


def test_the_profi_variant_plays_ten_per_player_and_four() -> None:
    assert cards_in_play(4, profi=True) == tuple(range(1, 45))
    assert cards_in_play(10, profi=True) == CARDS
    assert cards_in_play(10) == CARDS


def test_a_card_goes_to_the_row_with_the_highest_last_card_below_it() -> None:
    placed = play([[12], [31, 33], [50], [70]], 49)
    assert (placed.row, placed.rule, placed.taken) == (1, PlacementRule.ASCENDING, ())
    assert placed.rows == ((12,), (31, 33, 49), (50,), (70,))


def test_the_sixth_card_takes_the_five_and_starts_the_row() -> None:
    placed = play([[1, 2, 3, 4, 5], [31], [50], [70]], 6)
    assert (placed.row, placed.rule, placed.taken) == (0, PlacementRule.SIXTH_CARD, (1, 2, 3, 4, 5))
    assert placed.rows[0] == (6,)


def test_a_fifth_card_still_fits_into_a_row_of_four() -> None:
    placed = play([[1, 2, 3, 4], [31], [50], [70]], 6)
    assert placed.taken == () and placed.rows[0] == (1, 2, 3, 4, 6)


def test_a_low_card_takes_the_chosen_row() -> None:
    placed = play([[12, 13], [31], [50], [70]], 7, choose_row=0)
    assert (placed.rule, placed.taken, placed.rows[0]) == (PlacementRule.LOW_CARD, (12, 13), (7,))
    with pytest.raises(ScoringError, match="must choose a row"):
        play([[12, 13], [31], [50], [70]], 7)
    with pytest.raises(ScoringError, match="no row 4"):
        play([[12, 13], [31], [50], [70]], 7, choose_row=4)


@pytest.mark.parametrize(("rows", "card", "message"), [
    ([[1], [2], [3]], 9, "exactly four rows"),
    ([[1], [2], [3], []], 9, "Row 4 is empty"),
    ([[1], [5, 2], [3], [4]], 9, "Row 2 must ascend"),
    ([[1, 2, 3, 4, 5, 6], [7], [8], [9]], 19, "at most 5"),
    ([[1], [2], [3], [4]], 3, "already lies in a row"),
    ([[1], [1], [3], [4]], 30, "appears twice"),
])
def test_it_rejects_a_table_the_rules_cannot_make(
    rows: list[list[int]], card: int, message: str,
) -> None:
    with pytest.raises(ScoringError, match=message):
        play(rows, card)


def test_a_round_is_resolved_lowest_first_and_a_low_cards_row_is_chosen_when_it_comes() -> None:
    rows = [[10], [20, 21, 22, 23, 24], [40], [60]]
    done = resolve_round(rows, {"Anna": 25, "Ben": 5, "Cem": 61, "Dora": 41},
                         row_choices={5: 3})
    assert [(s.player, s.card, s.row, s.taken) for s in done.steps] == [
        ("Ben", 5, 3, (60,)), ("Anna", 25, 1, (20, 21, 22, 23, 24)),
        ("Dora", 41, 2, ()), ("Cem", 61, 2, ()),
    ]
    assert done.rows == ((10,), (25,), (40, 41, 61), (5,))
    assert done.taken == {"Ben": (60,), "Anna": (20, 21, 22, 23, 24)}
    assert done.complete


def test_a_round_stops_at_a_low_card_without_a_choice() -> None:
    stop = resolve_round([[10], [20], [40], [60]], {"Anna": 25, "Ben": 5})
    assert stop.pending is not None and (stop.pending.player, stop.pending.card) == ("Ben", 5)
    assert stop.steps == () and stop.waiting == (5, 25)


def test_a_card_that_becomes_low_during_the_round_is_not_low_if_a_row_ends_below_it() -> None:
    # 7 is low; it starts row 0 with the choice; then 8 goes after 7 (not a low card any more).
    done = resolve_round([[10], [20], [40], [60]], {"Anna": 7, "Ben": 8}, row_choices={7: 0})
    assert [(s.card, s.rule) for s in done.steps] == [
        (7, PlacementRule.LOW_CARD), (8, PlacementRule.ASCENDING)]


def test_a_round_rejects_a_card_revealed_twice_or_lying_in_a_row() -> None:
    with pytest.raises(ScoringError, match="already lies"):
        resolve_round([[10], [20], [40], [60]], {"Anna": 10, "Ben": 8})
    with pytest.raises(ScoringError, match="was not revealed"):
        resolve_round([[10], [20], [40], [60]], {"Anna": 11, "Ben": 8}, row_choices={9: 0})


def test_a_deal_scores_the_hornochsen_of_each_pile() -> None:
    entries = {"Anna": Entry(cards=(55, 66, 10)), "Ben": Entry(hornochsen=4), "Cem": Entry()}
    assert score_deal(entries) == {"Anna": 15, "Ben": 4, "Cem": 0}
    parts = explain_deal(entries)
    assert [(p.kind, p.count, p.points) for p in parts["Anna"]] == [("pile", 15, 15)]
    assert [c.card for c in parts["Anna"][0].cards] == [10, 55, 66]


@pytest.mark.parametrize(("entries", "options", "message"), [
    ({"Anna": Entry(), "Ben": Entry()}, None, "0 Hornochsen for everyone"),
    ({"Anna": Entry(cards=(5,)), "Ben": Entry(cards=(5, 6))}, None, "more than once"),
    ({"Anna": Entry(hornochsen=100), "Ben": Entry(hornochsen=72)}, None, "172 Hornochsen"),
    ({"Anna": Entry(hornochsen=172), "Ben": Entry()}, None, "cannot hold 172"),
    ({"Anna": Entry(cards=(105,)), "Ben": Entry()}, None, "no card 105"),
    ({"Anna": Entry(cards=(45,)), "Ben": Entry(), "Cem": Entry(), "Dora": Entry()},
     {"profi": True}, "cards go from 1 to 44"),
    ({"Anna": Entry(hornochsen=30), "Ben": Entry(hornochsen=9)}, {"profi": True}, "only 38"),
    ({"Anna": Entry(cards=tuple(range(1, 22))), "Ben": Entry()}, None, "at most 20"),
    ({"Anna": Entry(hornochsen=3, cards=(1, 2)), "Ben": Entry()}, None, "show 2"),
    ({"Anna": Entry(hornochsen=-1), "Ben": Entry(hornochsen=2)}, None, "0 or more"),
    ({"Anna": Entry(hornochsen=2)}, None, "2 to 10 players"),
])
def test_it_refuses_a_deal_that_cannot_be_true(
    entries: dict[str, Entry], options: dict[str, object] | None, message: str,
) -> None:
    with pytest.raises(ScoringError, match=message):
        validate_deal(entries, options)


def test_a_pile_holds_at_most_fifty_cards() -> None:
    players = {f"P{n}": Entry() for n in range(1, 11)}
    players["P1"] = Entry(cards=tuple(range(1, 52)))
    with pytest.raises(ScoringError, match="at most 50 cards"):
        validate_deal(players)
    players["P1"] = Entry(cards=tuple(range(1, 51)))
    assert score_deal(players)["P1"] == sum(hornochsen(card) for card in range(1, 51))


def test_the_profi_bound_is_the_hornochsen_of_the_cards_in_play() -> None:
    assert score_deal({"Anna": Entry(hornochsen=30), "Ben": Entry(hornochsen=8)},
                      {"profi": True}) == {"Anna": 30, "Ben": 8}


def test_entries_round_trip_and_bad_data_is_refused() -> None:
    for entry in (Entry(hornochsen=4), Entry(cards=(1, 55)), Entry(8, (1, 55))):
        assert entry_from_dict(entry_to_dict(entry)) == entry
    with pytest.raises(ScoringError, match="Unknown field"):
        entry_from_dict({"hand": 3})
    with pytest.raises(ScoringError, match="list of card numbers"):
        entry_from_dict({"cards": "1,2"})


def test_options_default_to_a_match_to_66() -> None:
    assert options_from_dict({}) == Options(66, None, False)
    assert options_to_dict(Options(target=100)) == {"target": 100}
    assert options_from_dict({"target": 100, "profi": True}) == Options(100, None, True)
    assert deal_count(4) is None and deal_count(4, {"deals": 1}) == 1
    with pytest.raises(ScoringError, match="from 1 to 1000"):
        options_from_dict({"target": 0})
    with pytest.raises(ScoringError, match="not both"):
        options_from_dict({"target": 50, "deals": 2})


def test_the_match_ends_after_the_deal_in_which_somebody_reaches_the_target() -> None:
    deals = [{"Anna": 30, "Ben": 20, "Cem": 5}, {"Anna": 35, "Ben": 40, "Cem": 5}]
    assert not match_over(deals[:1])
    assert not match_over(deals)  # 65 and 60: nobody has 66 yet
    third = [*deals, {"Anna": 10, "Ben": 6, "Cem": 1}]  # 75, 66, 11: both reach it
    assert match_over(third)
    totals = {"Anna": 75, "Ben": 66, "Cem": 11}
    assert rank(totals, lower_is_better=True)[0] == (1, "Cem", 11)
    assert match_over(deals, {"target": 60})
    assert match_over(deals, {"deals": 2}) and not match_over(deals[:1], {"deals": 2})


def test_when_nobody_is_under_the_target_the_fewest_still_win_and_ties_share() -> None:
    totals = {"Anna": 70, "Ben": 70, "Cem": 80}
    assert match_over([totals])
    assert rank(totals, lower_is_better=True) == ((1, "Anna", 70), (1, "Ben", 70), (3, "Cem", 80))


def _deal_accounted(players: int, seed: int, profi: bool) -> None:
    """Plays one random deal round by round and checks every card is in one place."""
    rng = random.Random(seed)
    deck = list(cards_in_play(players, profi=profi))
    rng.shuffle(deck)
    hands = [deck[HAND_SIZE * s: HAND_SIZE * (s + 1)] for s in range(players)]
    rows = tuple((card,) for card in sorted(deck[HAND_SIZE * players: HAND_SIZE * players + 4]))
    piles: dict[str, list[int]] = {f"P{s + 1}": [] for s in range(players)}
    in_play = set(deck[: HAND_SIZE * players + 4])
    for _ in range(HAND_SIZE):
        plays = {f"P{s + 1}": hands[s].pop(rng.randrange(len(hands[s]))) for s in range(players)}
        resolution = resolve_round(rows, plays)
        while not resolution.complete:
            assert resolution.pending is not None
            pending = resolution.pending.card
            assert all(pending < row[-1] for row in resolution.rows)
            chosen = {step.card: step.row for step in resolution.steps
                      if step.rule is PlacementRule.LOW_CARD}
            chosen[pending] = rng.randrange(ROWS)
            resolution = resolve_round(rows, plays, row_choices=chosen)
        for step in resolution.steps:
            assert step.card not in step.taken
            piles[step.player].extend(step.taken)
        rows = resolution.rows
        assert all(1 <= len(row) <= ROW_LIMIT and list(row) == sorted(row) for row in rows)
        places = [c for row in rows for c in row] + [c for p in piles.values() for c in p] + [
            c for hand in hands for c in hand]
        assert sorted(places) == sorted(in_play)
    entries = {player: Entry(cards=tuple(pile)) for player, pile in piles.items()}
    scores = score_deal(entries, {"profi": profi})
    assert sum(scores.values()) == sum(hornochsen(c) for c in in_play) - sum(
        hornochsen(c) for row in rows for c in row)
    assert sum(scores.values()) > 0


@settings(max_examples=60, deadline=None)
@given(st.integers(2, 10), st.integers(0, 10**6), st.booleans())
def test_random_legal_rounds_keep_every_card_accounted_for(
    players: int, seed: int, profi: bool,
) -> None:
    _deal_accounted(players, seed, profi)


@settings(max_examples=30, deadline=None)
@given(st.integers(2, 10), st.integers(0, 10**6), st.sampled_from([None, {"target": 30},
                                                                  {"deals": 2, "profi": True}]))
def test_random_matches_end_exactly_when_the_rules_say(
    players: int, seed: int, options: dict[str, object] | None,
) -> None:
    game = random_game(players, random.Random(seed), options)
    scores = [score_deal(entries, options) for entries in game.deals]
    assert match_over(scores, options) and not match_over(scores[:-1], options)
    assert match_totals("sechs-nimmt", game.deals) == game.totals

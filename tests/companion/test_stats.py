"""Statistics on a hand-built history with known answers.

The history ("Donnerstagsrunde": Anna, Ben, Cem), in the order played:

Freaky (most cards wins)      Anna  Ben  Cem   winner
  1  2026-01-10                 30   20   10   Anna
  2  2026-01-17                 25   25    5   Anna and Ben (tie)
  3  2026-02-07                 10   40   20   Ben
  4  2026-02-14                 35   15   30   Anna
  -  2026-03-01 (running)        4   50        (not counted)
X nimmt! 2026-02-14 (fewest minus points wins), (hand, X-stack) Hornochsen:
  deal 1: Anna (5, 9) = 23, Ben (0, 1) = 2; deal 2: Anna (0, 1) = 2, Ben (3, 1) = 5
  totals Anna 25, Ben 7 → Ben (in every deal somebody's hand is empty: the deal has ended)
"""

from __future__ import annotations

import datetime as dt
import doctest
import re
from typing import Any

import pytest
from django.core.cache import cache
from django.utils import translation

from companion.models import Group, Player
from companion.selectors import history as selectors
from companion.selectors.history import (
    game_stats,
    group_history,
    head_to_head,
    leaderboard_places,
    player_stats,
)
from companion.selectors.sheet import sheet_for
from scoring import GAMES
from tests.companion.test_history_helpers import freaky, night, play, x_nimmt

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _fresh_cache() -> None:
    """Database ids repeat between tests; the statistics cache must not carry over."""
    cache.clear()


@pytest.fixture
def history(group: Group) -> Group:
    freaky(group, "2026-01-10", Anna=30, Ben=20, Cem=10)
    freaky(group, "2026-01-17", Anna=25, Ben=25, Cem=5)
    freaky(group, "2026-02-07", Anna=10, Ben=40, Cem=20)
    evening = night(group, "2026-02-14", "Bei Cem")
    freaky(group, evening, Anna=35, Ben=15, Cem=30)
    x_nimmt(group, evening, {"Anna": (5, 9), "Ben": (0, 1)}, {"Anna": (0, 1), "Ben": (3, 1)})
    freaky(group, "2026-03-01", finished=False, Anna=4, Ben=50)
    return group


def _player(group: Group, name: str) -> Player:
    return group.players.get(name=name)


def test_the_selector_doctests_pass() -> None:
    assert doctest.testmod(selectors).failed == 0


def test_a_player_page_counts_matches_wins_and_scores_per_game(history: Group) -> None:
    stats = player_stats(_player(history, "Anna"))
    lines = {line.game.slug: line for line in stats.games}
    assert set(lines) == {"freaky", "x-nimmt"}
    freaky_line = lines["freaky"]
    assert (freaky_line.matches, freaky_line.wins, freaky_line.win_percent) == (4, 3, 75)
    assert (freaky_line.average, freaky_line.best, freaky_line.worst) == (25.0, 35, 10)
    x_line = lines["x-nimmt"]
    # Fewer minus points are better: best is the lowest total.
    assert (x_line.matches, x_line.wins, x_line.best, x_line.worst) == (1, 0, 25, 25)
    assert (stats.matches, stats.wins, stats.win_percent) == (5, 3, 60)


def test_best_and_worst_follow_the_direction_of_the_game(history: Group) -> None:
    x_nimmt(history, "2026-04-01", {"Ben": (10, 0), "Anna": (0, 1)},
            {"Ben": (1, 1), "Anna": (0, 1)})
    line = {line.game.slug: line for line in player_stats(_player(history, "Ben")).games}["x-nimmt"]
    assert (line.matches, line.best, line.worst, line.average) == (2, 7, 13, 10.0)


def test_streaks_run_over_all_games_in_the_order_played(history: Group) -> None:
    anna = player_stats(_player(history, "Anna"))
    ben = player_stats(_player(history, "Ben"))
    # Anna: W W L W L; Ben: L W W L W (the tie in match 2 is a win for both).
    assert (anna.longest_streak, anna.current_streak) == (2, 0)
    assert (ben.longest_streak, ben.current_streak) == (2, 1)


def test_recent_form_lists_the_latest_results_first(history: Group) -> None:
    recent = player_stats(_player(history, "Ben")).recent
    assert [(r.game.slug, r.place, r.players, r.total, r.is_winner) for r in recent] == [
        ("x-nimmt", 1, 2, 7, True),
        ("freaky", 3, 3, 15, False),
        ("freaky", 1, 3, 40, True),
        ("freaky", 1, 3, 25, True),
        ("freaky", 2, 3, 20, False),
    ]


def test_recent_form_stops_at_ten(group: Group) -> None:
    for day in range(1, 13):
        freaky(group, f"2026-05-{day:02d}", Anna=day + 3, Ben=20)
    recent = player_stats(_player(group, "Anna")).recent
    assert [r.total for r in recent] == [15, 14, 13, 12, 11, 10, 9, 8, 7, 6]


def test_results_over_time_are_grouped_by_month(history: Group) -> None:
    months = player_stats(_player(history, "Anna")).months
    assert [(m.month.isoformat(), m.matches, m.wins, m.win_percent) for m in months] == [
        ("2026-01-01", 2, 2, 100),
        ("2026-02-01", 3, 1, 33),
    ]


def test_an_empty_history_gives_empty_statistics(group: Group) -> None:
    stats = player_stats(_player(group, "Cem"))
    assert (stats.matches, stats.wins, stats.win_rate, stats.games, stats.recent) == (
        0, 0, None, (), ()
    )
    assert (stats.longest_streak, stats.current_streak, stats.months) == (0, 0, ())
    game = game_stats(group, "x-nimmt")
    assert (game.matches, game.deals, game.leaderboard, game.best_total, game.worst_deal) == (
        0, 0, (), None, None
    )
    assert game.figures == () and game.win_shares == ()
    assert list(group_history(group)) == []


def test_head_to_head_counts_who_finished_ahead_per_game(history: Group) -> None:
    result = head_to_head(_player(history, "Anna"), _player(history, "Ben"))
    lines = {line.game.slug: (line.matches, line.first_ahead, line.second_ahead, line.level)
             for line in result.games if line.game}
    assert lines == {"freaky": (4, 2, 1, 1), "x-nimmt": (1, 0, 1, 0)}
    overall = result.overall
    assert (overall.matches, overall.first_ahead, overall.second_ahead, overall.level) == (
        5, 2, 2, 1
    )


def test_head_to_head_is_symmetric(history: Group) -> None:
    result = head_to_head(_player(history, "Cem"), _player(history, "Ben"))
    # Cem and Ben met in the four Freaky games: Ben ahead in 1, 2, 3 (20>10, 25>5, 40>20), Cem in 4.
    assert (result.overall.matches, result.overall.first_ahead, result.overall.second_ahead) == (
        4, 1, 3
    )


def test_the_leaderboard_ranks_by_win_rate_above_the_minimum(history: Group) -> None:
    stats = game_stats(history, "freaky", min_matches=3)
    assert [(line.place, line.name, line.matches, line.wins, line.win_percent)
            for line in stats.leaderboard] == [
        (1, "Anna", 4, 3, 75), (2, "Ben", 4, 2, 50), (3, "Cem", 4, 0, 0),
    ]
    assert stats.below_minimum == ()
    assert (stats.matches, stats.deals) == (4, 4)


def test_players_below_the_minimum_are_listed_apart(history: Group) -> None:
    stats = game_stats(history, "x-nimmt", min_matches=2)
    assert stats.leaderboard == ()
    assert [(line.name, line.matches, line.wins) for line in stats.below_minimum] == [
        ("Ben", 1, 1), ("Anna", 1, 0),
    ]


def test_equal_win_rates_share_a_place(group: Group) -> None:
    freaky(group, "2026-01-01", Anna=10, Ben=5, Cem=4)
    freaky(group, "2026-01-02", Anna=5, Ben=10, Cem=4)
    freaky(group, "2026-01-03", Anna=5, Ben=5, Cem=10)
    # Anna 1/3, Ben 1/3, Cem 1/3 → all first; then Dana joins with 0/1.
    play(group, "freaky", [{"Dana": {"collected": 0}, "Anna": {"collected": 9}}], on="2026-01-04")
    stats = game_stats(group, "freaky", min_matches=1)
    assert [(line.place, line.name, line.wins, line.matches) for line in stats.leaderboard] == [
        (1, "Anna", 2, 4), (2, "Ben", 1, 3), (2, "Cem", 1, 3), (4, "Dana", 0, 1),
    ]


def test_leaderboard_places_compare_rates_exactly() -> None:
    assert leaderboard_places([(2, 4), (1, 2), (1, 3), (2, 6), (0, 1)]) == [1, 1, 3, 3, 5]


def test_records_are_the_best_final_score_and_the_worst_deal(history: Group) -> None:
    freaky_stats = game_stats(history, "freaky")
    best = freaky_stats.best_total
    assert best is not None and (best.name, best.value, best.date.isoformat()) == (
        "Ben", 40, "2026-02-07"
    )
    worst = freaky_stats.worst_deal
    assert worst is not None and (worst.name, worst.value, worst.deal) == ("Cem", 5, 1)
    x_stats = game_stats(history, "x-nimmt")
    assert x_stats.best_total is not None and (x_stats.best_total.name,
                                               x_stats.best_total.value) == ("Ben", 7)
    assert x_stats.worst_deal is not None and (
        x_stats.worst_deal.name, x_stats.worst_deal.value, x_stats.worst_deal.deal
    ) == ("Anna", 23, 1)


def test_win_shares_count_every_winner_of_a_tie(history: Group) -> None:
    stats = game_stats(history, "freaky")
    assert stats.win_shares == (("Anna", 3), ("Ben", 2))
    assert stats.wins == 5


def _figures(group: Group, game: str) -> dict[str, tuple[str, list[tuple[str, str]]]]:
    with translation.override("en"):
        return {
            figure.label: (figure.display, figure.players_display)
            for figure in game_stats(group, game).figures
        }


def test_x_nimmt_counts_hornochsen_per_deal_and_the_x_stack_share(history: Group) -> None:
    figures = _figures(history, "x-nimmt")
    # (14 + 1 + 1 + 4) / 4 deals-and-players; X-stack 2 × (9 + 1) = 20 of Anna's 25 minus
    # points, 2 × (1 + 1) = 4 of Ben's 7: 24 of 32.
    assert figures["Hornochsen per player and deal"] == ("5.0", [("Anna", "7.5"), ("Ben", "2.5")])
    assert figures["Share of the minus points from the X-stack"] == (
        "75 %", [("Anna", "80 %"), ("Ben", "57 %")]
    )


def test_x_nimmt_counts_hornochsen_of_cards_recorded_by_number(group: Group) -> None:
    play(group, "x-nimmt", [{"Anna": {"hand_cards": [55, 3], "x_stack_cards": [10]},
                             "Ben": {"hand": 0, "x_stack": 1}}], on="2026-06-01")
    figures = _figures(group, "x-nimmt")
    # Anna: 55 → 7 and 3 → 1 in hand, 10 → 3 in the stack: 11 Hornochsen, 8 + 2 × 3 = 14
    # minus points, 6 of them from the X-stack; Ben 2 × 1 from his X-stack: 8 of 16 in all.
    assert figures["Hornochsen per player and deal"][1] == [("Anna", "11.0"), ("Ben", "1.0")]
    assert figures["Share of the minus points from the X-stack"] == (
        "50 %", [("Anna", "43 %"), ("Ben", "100 %")]
    )


def test_elf_nimmt_averages_the_hornochsen_left_in_hand(group: Group) -> None:
    play(group, "elf-nimmt", [{"Anna": {"went_out": True}, "Ben": {"hand": 12},
                               "Cem": {"hand_cards": [55, 10, 1]}}], on="2026-06-01")
    play(group, "elf-nimmt", [{"Anna": {"hand": 4}, "Ben": {"went_out": True},
                               "Cem": {"hand": 2}}], on="2026-06-02")
    figures = _figures(group, "elf-nimmt")
    # (0 + 12 + 11 + 4 + 0 + 2) / 6 = 4.83
    assert figures["Hornochsen per player and deal"] == (
        "4.8", [("Anna", "2.0"), ("Ben", "6.0"), ("Cem", "6.5")]
    )


def test_drei_counts_the_interim_bonus_cards_won(group: Group) -> None:
    every_colour = {c: 1 for c in ("orange", "flieder", "hellblau", "rot", "tuerkis", "magenta",
                                   "olivgruen")}
    play(group, "drei-sind-einer-zuviel", [{
        "Anna": {"taken": every_colour, "interim_bonus": 10},
        "Ben": {"taken": every_colour, "interim_bonus": 7},
        "Cem": {"taken": {"rot": 2}},
    }], on="2026-06-01")
    play(group, "drei-sind-einer-zuviel", [{
        "Anna": {"taken": {"rot": 1}}, "Ben": {"taken": every_colour, "interim_bonus": 10},
    }], on="2026-06-02")
    play(group, "drei-sind-einer-zuviel", [{"Anna": {"taken": {"rot": 1}}, "Cem": {"taken": {}}}],
         on="2026-06-03")
    figures = _figures(group, "drei-sind-einer-zuviel")
    won = "Matches in which an interim scoring card (Zwischenwertung) was won"
    assert figures[won][0] == "67 %"
    assert figures["Interim scoring card (Zwischenwertung) 10 won"] == (
        "2", [("Anna", "1"), ("Ben", "1")]
    )
    assert figures["Interim scoring card (Zwischenwertung) 7 won"] == ("1", [("Ben", "1")])
    assert figures["Interim scoring card (Zwischenwertung) 5 won"] == ("0", [])
    assert figures["Interim scoring card (Zwischenwertung) 3 won"] == ("0", [])


def test_freaky_averages_the_cards_collected(history: Group) -> None:
    figures = _figures(history, "freaky")
    # 265 cards over 12 player-matches; the running match does not count.
    assert figures["Cards collected per player and match"] == (
        "22.1", [("Anna", "25.0"), ("Ben", "25.0"), ("Cem", "16.2")]
    )


def test_dreizehn_counts_red_fours_per_deal(group: Group) -> None:
    play(group, "dreizehn", [
        {"Anna": {"yellow": 3, "red": 2}, "Ben": {"green": 2, "red": 1}, "Cem": {}},
        {"Anna": {"red": 1}, "Ben": {}, "Cem": {"blue": 4}},
    ], on="2026-06-01")
    figures = _figures(group, "dreizehn")
    assert figures["Red 4s taken per deal (all players)"] == ("2.0", [])
    assert figures["Red 4s per player and deal"] == (
        "0.7", [("Anna", "1.5"), ("Ben", "0.5"), ("Cem", "0.0")]
    )


def test_figures_use_the_language_of_the_page(history: Group) -> None:
    with translation.override("de"):
        figure = game_stats(history, "x-nimmt").figures[0]
        assert (figure.label, figure.display) == ("Hornochsen pro Spieler und Durchgang", "5,0")


def test_the_history_lists_nights_newest_first_with_ranked_seats(history: Group) -> None:
    nights = list(group_history(history))
    assert [n["date"].isoformat() for n in nights] == [
        "2026-03-01", "2026-02-14", "2026-02-07", "2026-01-17", "2026-01-10",
    ]
    evening = nights[1]
    assert evening["place"] == "Bei Cem"
    assert [(m["game"], m["title"]) for m in evening["matches"]] == [
        ("freaky", "Freaky"), ("x-nimmt", "X nimmt!"),
    ]
    x = evening["matches"][1]
    assert (x["running"], x["winners"]) == (False, "Ben")
    assert x["seats"] == [
        {"name": "Ben", "total": 7, "place": 1, "is_winner": True},
        {"name": "Anna", "total": 25, "place": 2, "is_winner": False},
    ]
    tie = nights[3]["matches"][0]
    assert tie["winners"] == "Anna, Ben"
    assert [(s["name"], s["place"], s["is_winner"]) for s in tie["seats"]] == [
        ("Anna", 1, True), ("Ben", 1, True), ("Cem", 3, False),
    ]
    running = nights[0]["matches"][0]
    assert (running["running"], running["winners"]) == (True, "")


def test_the_history_slices_and_counts_lazily(history: Group) -> None:
    nights = group_history(history)
    assert len(nights) == 5
    assert [n["date"].isoformat() for n in nights[1:3]] == ["2026-02-14", "2026-02-07"]
    assert nights[10:] == []


def test_the_history_filters_by_game_player_and_period(history: Group) -> None:
    def dates(**filters: object) -> list[str]:
        return [n["date"].isoformat()
                for n in group_history(history, **filters)]  # type: ignore[arg-type]

    assert dates(game="x-nimmt") == ["2026-02-14"]
    by_game = list(group_history(history, game="x-nimmt"))
    assert [m["game"] for m in by_game[0]["matches"]] == ["x-nimmt"]
    cem = _player(history, "Cem")
    assert dates(player=cem) == ["2026-02-14", "2026-02-07", "2026-01-17", "2026-01-10"]
    first = next(iter(group_history(history, player=cem)))
    assert [m["game"] for m in first["matches"]] == ["freaky"]
    assert dates(since=dt.date(2026, 1, 17), until=dt.date(2026, 2, 7)) == [
        "2026-02-07", "2026-01-17",
    ]


def test_the_history_shows_empty_nights_unless_filtered(group: Group) -> None:
    night(group, "2026-07-01")
    assert [n["matches"] for n in group_history(group)] == [[]]
    assert list(group_history(group, game="freaky")) == []


def test_the_games_count_the_finished_matches_of_each_game(history: Group) -> None:
    # The running Freaky match is not counted: only what the statistics count is.
    # Every game, in the registry's order; one without a match counts 0.
    finished = {"x-nimmt": 1, "freaky": 4}
    assert [(info.slug, n) for info, n in selectors.games_played(history)] == [
        (slug, finished.get(slug, 0)) for slug in GAMES
    ]


def test_the_progression_runs_the_totals_deal_by_deal(history: Group) -> None:
    match = history.matches.get(game="x-nimmt")
    progression = sheet_for(match).progression
    assert progression.deals == (1, 2)
    assert progression.lines == (("Anna", (23, 25)), ("Ben", (2, 7)))
    assert progression.rows == [(1, [23, 2]), (2, [25, 7])]


def test_cached_statistics_follow_every_change_of_the_deals(group: Group) -> None:
    from companion.services import deals as deal_services
    from companion.services import matches as match_services

    anna, ben = _player(group, "Anna"), _player(group, "Ben")
    match = match_services.match_start(group=group, game="x-nimmt", players=[anna, ben])
    deal_services.deal_record(
        match=match, number=1, entries={anna.pk: {"hand": 4}, ben.pk: {"x_stack": 2}}
    )
    deal_services.deal_record(
        match=match, number=2, entries={anna.pk: {"hand": 6}, ben.pk: {"x_stack": 1}}
    )
    match_services.match_finish(match=match)

    def seen() -> tuple[object, ...]:
        with translation.override("en"):
            stats = game_stats(group, "x-nimmt", min_matches=1)
            return (stats.figures[0].display, stats.figures[0].players_display,
                    [(line.name, line.wins) for line in stats.leaderboard],
                    stats.worst_deal and (stats.worst_deal.name, stats.worst_deal.value))

    assert seen() == ("3.2", [("Anna", "5.0"), ("Ben", "1.5")], [("Ben", 1), ("Anna", 0)],
                      ("Anna", 6))
    match_services.match_reopen(match=match)
    # While reopened the match does not count at all.
    reopened = game_stats(group, "x-nimmt", min_matches=1)
    assert (reopened.matches, reopened.deals, reopened.figures, reopened.leaderboard) == (
        0, 0, (), ()
    )
    deal_services.deal_edit(match=match, number=2, version=1,
                    entries={anna.pk: {"x_stack": 1}, ben.pk: {"hand": 9}})
    match_services.match_finish(match=match)
    assert seen() == ("4.0", [("Anna", "2.5"), ("Ben", "5.5")], [("Anna", 1), ("Ben", 0)],
                      ("Ben", 9))
    ben.name = "Benedikt"
    ben.save(update_fields=["name"])
    assert seen()[1] == [("Anna", "2.5"), ("Benedikt", "5.5")]


def test_an_abandoned_match_counts_in_no_statistics_and_is_listed_without_places(
    history: Group, client: Any, anna: Any
) -> None:
    from companion.services import matches as match_services

    abandoned = x_nimmt(history, "2026-04-01", {"Anna": (0, 6), "Ben": (8, 0)})
    match_services.match_reopen(match=abandoned)
    match_services.match_abandon(match=abandoned)
    counts = dict((info.slug, n) for info, n in selectors.games_played(history))
    # One finished X nimmt! match, as the game page says ("1 finished match").
    assert counts["x-nimmt"] == game_stats(history, "x-nimmt").matches == 1
    listed = next(iter(group_history(history)))["matches"][0]
    assert listed["abandoned"]
    # In seat order (Ben, with 8 against 12, would be first by place).
    assert [(s["name"], s["place"]) for s in listed["seats"]] == [("Anna", None), ("Ben", None)]
    client.force_login(anna)
    page = client.get(f"/g/{history.pk}/games/x-nimmt/", HTTP_ACCEPT_LANGUAGE="en")
    assert re.search(r"X nimmt! <span class=\"badge[^\"]*\">1</span>", page.content.decode())

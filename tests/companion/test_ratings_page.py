"""The ratings pages: a leaderboard per group across all games and per game, provisional
ratings set apart, each player's latest change; the player page's ratings."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from django.test import Client
from pytest_django import DjangoAssertNumQueries

from companion.models import Group
from companion.selectors.ratings import leaderboard, player_ratings
from tests.companion.test_history_helpers import freaky, night, x_nimmt

pytestmark = pytest.mark.django_db


@pytest.fixture
def rated(group: Group) -> Group:
    """Twelve Freaky matches of Anna, Ben and Cem (Anna wins eight, Ben four), and one
    X nimmt! match where Dora joins: Dora's ratings are provisional, as everybody's in
    X nimmt!."""
    for index in range(12):
        evening = night(group, f"2026-01-{index + 1:02d}")
        if index % 3:
            freaky(group, evening, Anna=30, Ben=20, Cem=10)
        else:
            freaky(group, evening, Anna=15, Ben=35, Cem=30)
    x_nimmt(group, night(group, "2026-02-01"), {"Anna": (5, 9), "Dora": (0, 1)})
    return group


def _table(body: str) -> tuple[str, str]:
    """The leaderboard's rated part and its provisional part."""
    board = body[body.index('class="table table-sm align-middle ratings-board"'):]
    board = board[:board.index("</table>")]
    provisional = board[board.index('tbody class="provisional"'):] if (
        'tbody class="provisional"' in board) else ""
    return board[:len(board) - len(provisional)], provisional


def test_the_leaderboard_ranks_the_rated_players_and_sets_the_provisional_apart(
    anna_client: Client, rated: Group
) -> None:
    board = leaderboard(rated)
    response = anna_client.get(f"/g/{rated.pk}/ratings/")

    assert response.status_code == 200
    ranked, provisional = _table(response.content.decode())
    assert [line.name for line in board.rated] == ["Anna", "Ben", "Cem"]
    assert [line.name for line in board.provisional] == ["Dora"]
    positions = [ranked.index(f">{name}</a>") for name in ("Anna", "Ben", "Cem")]
    assert positions == sorted(positions) and "Dora" not in ranked
    for line in board.rated:
        row = ranked[ranked.index(f">{line.name}</a>"):]
        row = row[:row.index("</tr>")]
        assert line.value_display in row and line.change_display in row
    assert "Dora" in provisional and "vorläufig" in provisional
    dora = board.provisional[0]
    assert dora.value_display in provisional and dora.change_display in provisional


def test_the_latest_change_is_what_the_players_last_match_did(rated: Group) -> None:
    board = {line.name: line for line in leaderboard(rated).lines}

    # Across all games, Anna's last match is the X nimmt! she lost to Dora: her rating fell.
    assert board["Anna"].change is not None and board["Anna"].change < 0
    assert board["Anna"].change_display.startswith("\u2212")
    assert board["Dora"].change is not None and board["Dora"].change > 0
    assert board["Dora"].change_display.startswith("+")


def test_a_games_leaderboard_counts_its_matches_only(anna_client: Client, rated: Group) -> None:
    body = anna_client.get(f"/g/{rated.pk}/ratings/x-nimmt/").content.decode()

    ranked, provisional = _table(body)
    assert "tbody class=\"rated\"" not in ranked  # two players, one match: all provisional
    assert ">Anna</a>" in provisional and ">Dora</a>" in provisional
    assert ">Ben</a>" not in provisional
    assert f'href="/g/{rated.pk}/ratings/x-nimmt/" aria-current="page"' in body


def test_a_group_without_finished_matches_has_no_ratings_yet(
    anna_client: Client, group: Group
) -> None:
    body = anna_client.get(f"/g/{group.pk}/ratings/").content.decode()

    assert "Noch keine beendeten Partien" in body and "ratings-board" not in body


def test_an_unknown_game_and_outsiders_get_not_found(
    anna_client: Client, outsider_client: Client, rated: Group
) -> None:
    assert anna_client.get(f"/g/{rated.pk}/ratings/skat/").status_code == 404
    assert outsider_client.get(f"/g/{rated.pk}/ratings/").status_code == 404
    assert outsider_client.get(f"/g/{rated.pk}/ratings/freaky/").status_code == 404


def test_the_statistics_links_lead_to_the_ratings(anna_client: Client, rated: Group) -> None:
    body = anna_client.get(f"/g/{rated.pk}/history/").content.decode()

    assert f'href="/g/{rated.pk}/ratings/"' in body


def test_the_player_page_shows_the_players_ratings(anna_client: Client, rated: Group) -> None:
    anna = rated.players.get(name="Anna")
    lines = {line.game: line for line in player_ratings(anna)}

    body = anna_client.get(f"/g/{rated.pk}/players/{anna.pk}/").content.decode()

    section = body[body.index('class="list-group player-ratings'):]
    section = section[:section.index("</section>")]
    assert list(lines) == ["x-nimmt", "freaky", ""]
    assert (section.index("X nimmt!") < section.index("Freaky")
            < section.index("Alle Spiele"))
    assert lines["freaky"].value_display in section and lines[""].value_display in section
    assert f'href="/g/{rated.pk}/ratings/freaky/"' in section
    assert "12 Partien" in section and "vorläufig" in section  # X nimmt!: one match


@pytest.mark.parametrize("path", ["ratings/", "ratings/freaky/", "players/{anna}/"])
def test_the_ratings_pages_run_the_same_queries_however_long_the_history(
    anna_client: Client, group: Group, path: str,
    django_assert_max_num_queries: Callable[[int], DjangoAssertNumQueries],
) -> None:
    def grow(count: int) -> None:
        for index in range(count):
            evening = night(group, f"2025-{index % 12 + 1:02d}-{index % 27 + 1:02d}")
            freaky(group, evening, Anna=10 + index, Ben=20, Cem=4)
            x_nimmt(group, evening, {"Anna": (index, 1), "Ben": (3, 0), "Cem": (0, 1)})

    url = f"/g/{group.pk}/" + path.format(anna=group.players.get(name="Anna").pk)
    grow(2)
    with django_assert_max_num_queries(1000) as small:
        assert anna_client.get(url).status_code == 200
    grow(10)
    with django_assert_max_num_queries(len(small.captured_queries)):
        assert anna_client.get(url).status_code == 200

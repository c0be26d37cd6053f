"""The history pages: content, htmx and full-page paths, permissions, no leaks, query counts."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.cache import cache
from django.test import Client
from pytest_django import DjangoAssertNumQueries

from companion.models import Group, Membership, Player
from tests.companion.test_history_helpers import freaky, night, play, x_nimmt

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _fresh_cache() -> None:
    """Database ids repeat between tests; the statistics cache must not carry over."""
    cache.clear()


@pytest.fixture
def history(group: Group) -> Group:
    freaky(group, "2026-01-10", Anna=30, Ben=20, Cem=10)
    evening = night(group, "2026-02-14", "Bei Cem")
    freaky(group, evening, Anna=15, Ben=35, Cem=30)
    x_nimmt(group, evening, {"Anna": (5, 9), "Ben": (0, 1)}, {"Anna": (0, 1), "Ben": (3, 1)})
    return group


@pytest.fixture
def other(outsider: User) -> Group:
    """The outsider's group with its own history; its names must never show up in ours."""
    group = Group.objects.get(name="Andere Runde")
    evening = night(group, "2026-02-14", "Geheimort")
    play(group, "freaky", [{"Zora": {"collected": 44}, "Xaver": {"collected": 8}}], on=evening)
    x_nimmt(group, evening, {"Zora": (17, 3), "Xaver": (0, 2)})
    return group


def _urls(group: Group) -> list[str]:
    player = group.players.get(name="Anna")
    ben = group.players.get(name="Ben")
    return [
        f"/g/{group.pk}/history/",
        f"/g/{group.pk}/history/?game=freaky&player={player.pk}",
        f"/g/{group.pk}/players/{player.pk}/",
        f"/g/{group.pk}/games/freaky/",
        f"/g/{group.pk}/games/x-nimmt/",
        f"/g/{group.pk}/head-to-head/?first={player.pk}&second={ben.pk}",
        f"/g/{group.pk}/export.json",
        f"/g/{group.pk}/export.csv",
    ]


def _text(response: Any) -> str:
    if response.streaming:  # a download, sent as it is written
        return b"".join(response.streaming_content).decode()
    return response.content.decode()


# --- History page ---------------------------------------------------------------------------


def test_the_history_lists_nights_with_winners_scores_and_links(
    anna_client: Client, history: Group
) -> None:
    response = anna_client.get(f"/g/{history.pk}/history/")
    assert response.status_code == 200
    body = _text(response)
    nights = body[body.index('id="history-results"'):]
    assert nights.index("Bei Cem") < nights.index("10. Januar 2026")  # newest night first
    x_match = history.matches.get(game="x-nimmt")
    assert f'href="/g/{history.pk}/matches/{x_match.pk}/"' in body
    # The X nimmt! match: Ben won with 7 minus points, Anna 25.
    fragment = nights[nights.index(f"/matches/{x_match.pk}/"):]  # the list, not the records
    fragment = fragment[:fragment.index("</a>")]
    assert re.search(r"Ben\s*</span>", fragment)
    assert re.search(r"1\.</span>\s*Ben <span class=\"font-monospace\">7</span>", fragment)
    assert re.search(r"2\.</span>\s*Anna <span class=\"font-monospace\">25</span>", fragment)
    assert "<html" in body


def test_the_history_escapes_player_names_in_the_score_lists(
    anna_client: Client, history: Group
) -> None:
    history.players.filter(name="Ben").update(name="<b>Ben</b> & Co")
    body = _text(anna_client.get(f"/g/{history.pk}/history/"))
    x_match = history.matches.get(game="x-nimmt")
    nights = body[body.index('id="history-results"'):]  # the list, not the records
    fragment = nights[nights.index(f"/matches/{x_match.pk}/"):]
    fragment = fragment[:fragment.index("</a>")]
    assert re.search(
        r"1\.</span>\s*&lt;b&gt;Ben&lt;/b&gt; &amp; Co <span class=\"font-monospace\">7</span>",
        fragment,
    )
    assert "<b>Ben" not in body


def test_the_history_filter_returns_the_partial_for_htmx(
    anna_client: Client, history: Group
) -> None:
    response = anna_client.get(
        f"/g/{history.pk}/history/?game=x-nimmt", HTTP_HX_REQUEST="true"
    )
    assert response.status_code == 200
    body = _text(response)
    assert "<html" not in body
    assert "X nimmt!" in body and "Freaky" not in body
    assert "14. Februar 2026" in body and "10. Januar 2026" not in body


def test_the_history_filter_by_period_and_player(anna_client: Client, history: Group) -> None:
    cem = history.players.get(name="Cem")
    response = anna_client.get(
        f"/g/{history.pk}/history/?player={cem.pk}&since=2026-02-01&until=2026-02-28"
    )
    body = _text(response)
    assert "Bei Cem" in body
    assert body.count('class="list-group-item list-group-item-action py-2"') == 1


def test_an_invalid_filter_shows_an_error_and_the_unfiltered_list(
    anna_client: Client, history: Group
) -> None:
    response = anna_client.get(f"/g/{history.pk}/history/?since=2026-03-01&until=2026-01-01")
    assert response.status_code == 200
    body = _text(response)
    assert "Der Zeitraum endet, bevor er beginnt. Es werden alle Spieleabende gezeigt." in " ".join(
        body.split()
    )
    assert body.count('class="list-group-item list-group-item-action py-2"') == 3
    partial = _text(anna_client.get(f"/g/{history.pk}/history/?since=2026-03-01&until=2026-01-01",
                                     HTTP_HX_REQUEST="true"))
    assert "Der Zeitraum endet, bevor er beginnt." in partial and "<html" not in partial


def test_a_player_of_another_group_is_not_a_valid_filter(
    anna_client: Client, history: Group, other: Group
) -> None:
    zora = other.players.get(name="Zora")
    response = anna_client.get(f"/g/{history.pk}/history/?player={zora.pk}")
    assert response.status_code == 200
    assert "Zora" not in _text(response)


def test_the_history_pages_through_many_nights(anna_client: Client, group: Group) -> None:
    for day in range(1, 13):
        freaky(group, f"2026-03-{day:02d}", Anna=day + 3, Ben=4)
    first = _text(anna_client.get(f"/g/{group.pk}/history/"))
    assert first.count('class="card mb-3"') == 10
    assert "?page=2" in first
    second = _text(anna_client.get(f"/g/{group.pk}/history/?page=2", HTTP_HX_REQUEST="true"))
    assert second.count('class="card mb-3"') == 2
    assert "<html" not in second


def test_an_empty_history_says_so(anna_client: Client, group: Group) -> None:
    response = anna_client.get(f"/g/{group.pk}/history/")
    assert response.status_code == 200


# --- Statistics pages -----------------------------------------------------------------------


def test_the_player_page_shows_the_record_and_a_chart(anna_client: Client, history: Group) -> None:
    anna = history.players.get(name="Anna")
    body = _text(anna_client.get(f"/g/{history.pk}/players/{anna.pk}/"))
    assert "<svg" in body and "<title id=" in body and "<desc id=" in body
    # Freaky: won 1 of 2 (30 and 15 cards: average 22,5, best 30, worst 15).
    assert re.search(r"Freaky</span>\s*<span class=\"fw-semibold text-nowrap\">50 %</span>", body)
    assert "1 von 2 gewonnen · Schnitt 22,5 · bestes 30 · schlechtestes 15" in body


def test_the_game_page_shows_leaderboard_records_figures_and_win_shares(
    anna_client: Client, history: Group
) -> None:
    body = _text(anna_client.get(f"/g/{history.pk}/games/x-nimmt/?min=1"))
    assert "<svg" in body
    board = body[body.index('class="table table-sm align-middle leaderboard"'):]
    board = board[:board.index("</table>")]
    assert board.index("Ben") < board.index("Anna")
    assert "Hornochsen" in body


def test_the_leaderboard_minimum_updates_the_partial_for_htmx(
    anna_client: Client, history: Group
) -> None:
    response = anna_client.get(f"/g/{history.pk}/games/freaky/?min=5", HTTP_HX_REQUEST="true")
    body = _text(response)
    assert "<html" not in body and "leaderboard" in body
    assert 'value="5"' in body
    assert "Anna</a> (1/2)" in body


def test_an_invalid_minimum_keeps_the_default_and_says_why(
    anna_client: Client, history: Group
) -> None:
    body = _text(anna_client.get(f"/g/{history.pk}/games/freaky/?min=0"))
    assert 'value="3"' in body and "is-invalid" in body
    assert "Nobody has played" in body or "Noch niemand hat 3 Partien gespielt." in body


def _stats_nav(html: str) -> str:
    start = html.index('<nav class="mb-3 stats-nav"')
    return html[start:html.index("</nav>", start)]


def test_the_statistics_links_count_the_matches_and_mark_the_current_page(
    anna_client: Client, history: Group
) -> None:
    Player.objects.create(group=history, name='<b>Zoë & "Co"</b>')
    link = '<a class="btn btn-sm text-nowrap flex-shrink-0 '
    games = f"/g/{history.pk}/games/"

    nav = _stats_nav(_text(anna_client.get(f"{games}x-nimmt/")))

    assert (f'{link}btn-secondary" href="{games}x-nimmt/" aria-current="page">X nimmt! '
            '<span class="badge text-bg-light">1</span></a>') in nav
    assert (f'{link}btn-outline-secondary" href="{games}freaky/">Freaky '
            '<span class="badge text-bg-light">2</span></a>') in nav
    assert '<span class="badge text-bg-light">0</span>' in nav  # 13 and others: none yet
    assert "&lt;b&gt;Zoë &amp; &quot;Co&quot;&lt;/b&gt;</a>" in nav
    assert nav.count("aria-current") == 1
    ben = history.players.get(name="Ben")
    nav = _stats_nav(_text(anna_client.get(f"/g/{history.pk}/players/{ben.pk}/")))
    assert (f'{link}btn-secondary" href="/g/{history.pk}/players/{ben.pk}/" '
            'aria-current="page">Ben</a>') in nav
    nav = _stats_nav(_text(anna_client.get(f"/g/{history.pk}/head-to-head/")))
    assert f'{link}btn-secondary" href="/g/{history.pk}/head-to-head/">' in nav


def test_an_unknown_game_is_not_found(anna_client: Client, history: Group) -> None:
    assert anna_client.get(f"/g/{history.pk}/games/skat/").status_code == 404


def test_head_to_head_compares_two_players(anna_client: Client, history: Group) -> None:
    anna, ben = history.players.get(name="Anna"), history.players.get(name="Ben")
    response = anna_client.get(
        f"/g/{history.pk}/head-to-head/?first={anna.pk}&second={ben.pk}", HTTP_HX_REQUEST="true"
    )
    body = _text(response)
    assert "<html" not in body
    # Freaky: Anna ahead once, Ben once; X nimmt!: Ben.
    assert re.search(r"Freaky</th><td class=\"text-end\">2</td><td class=\"text-end\">1</td>"
                     r"<td class=\"text-end\">1</td><td class=\"text-end\">0</td>", body)
    assert re.search(r"<td class=\"text-end\">3</td><td class=\"text-end\">1</td>"
                     r"<td class=\"text-end\">2</td><td class=\"text-end\">0</td>", body)


def test_head_to_head_from_a_player_page_presets_the_first_player(
    anna_client: Client, history: Group
) -> None:
    anna = history.players.get(name="Anna")
    player_page = _text(anna_client.get(f"/g/{history.pk}/players/{anna.pk}/"))
    assert f"/g/{history.pk}/head-to-head/?first={anna.pk}" in player_page
    body = _text(anna_client.get(f"/g/{history.pk}/head-to-head/?first={anna.pk}"))
    assert f'<option value="{anna.pk}" selected>Anna</option>' in body
    assert "invalid-feedback" not in body and "<tfoot>" not in body


def test_head_to_head_needs_two_different_players(anna_client: Client, history: Group) -> None:
    anna = history.players.get(name="Anna")
    body = _text(anna_client.get(f"/g/{history.pk}/head-to-head/?first={anna.pk}&second={anna.pk}"))
    assert "Choose two different players." in body or "zwei verschiedene" in body
    assert "<tfoot>" not in body


# --- Permissions and leaks ------------------------------------------------------------------


@pytest.mark.parametrize("index", range(8))
def test_an_outsider_gets_404_everywhere(outsider_client: Client, history: Group,
                                         index: int) -> None:
    assert outsider_client.get(_urls(history)[index]).status_code == 404


@pytest.mark.parametrize("index", range(8))
def test_a_logged_out_visitor_is_sent_to_log_in(client: Client, history: Group,
                                                index: int) -> None:
    url = _urls(history)[index]
    response = client.get(url)
    assert response.status_code == 302
    assert "/login/" in response["Location"]


def test_the_import_page_needs_a_login(client: Client) -> None:
    response = client.get("/groups/import/")
    assert response.status_code == 302 and "/login/" in response["Location"]


def test_a_player_of_another_group_is_not_found(
    anna_client: Client, history: Group, other: Group
) -> None:
    zora = other.players.get(name="Zora")
    assert anna_client.get(f"/g/{history.pk}/players/{zora.pk}/").status_code == 404
    assert anna_client.get(f"/g/{other.pk}/players/{zora.pk}/").status_code == 404


@pytest.mark.parametrize("index", range(8))
def test_no_page_chart_or_export_shows_another_groups_data(
    anna_client: Client, history: Group, other: Group, index: int
) -> None:
    body = _text(anna_client.get(_urls(history)[index]))
    for secret in ("Zora", "Xaver", "Geheimort", "Andere Runde", ">44<", '"collected": 44'):
        assert secret not in body


def test_head_to_head_ignores_players_of_another_group(
    anna_client: Client, history: Group, other: Group
) -> None:
    anna, zora = history.players.get(name="Anna"), other.players.get(name="Zora")
    body = _text(anna_client.get(f"/g/{history.pk}/head-to-head/?first={anna.pk}&second={zora.pk}"))
    assert "Zora" not in body and "<tfoot>" not in body


# --- Query counts ---------------------------------------------------------------------------


def _grow(group: Group, count: int) -> None:
    for index in range(count):
        evening = night(group, f"2025-{index % 12 + 1:02d}-{index % 27 + 1:02d}")
        freaky(group, evening, Anna=10 + index, Ben=20, Cem=4)
        x_nimmt(group, evening, {"Anna": (index, 1), "Ben": (3, 0), "Cem": (0, 1)},
                {"Anna": (1, 0), "Ben": (2, 2), "Cem": (0, 4)})
        play(group, "dreizehn", [{"Anna": {"yellow": 2, "red": 1}, "Ben": {"green": index % 3},
                                  "Cem": {"blue": 1}}], on=evening)


@pytest.mark.parametrize(
    "path",
    ["history/", "history/?game=freaky&since=2025-01-01", "players/{anna}/", "games/x-nimmt/",
     "games/dreizehn/", "games/freaky/", "head-to-head/?first={anna}&second={ben}"],
)
def test_pages_run_the_same_number_of_queries_however_long_the_history(
    anna_client: Client, group: Group, path: str,
    django_assert_max_num_queries: Callable[[int], DjangoAssertNumQueries],
) -> None:
    anna, ben = group.players.get(name="Anna"), group.players.get(name="Ben")
    url = f"/g/{group.pk}/" + path.format(anna=anna.pk, ben=ben.pk)
    _grow(group, 2)
    with django_assert_max_num_queries(1000) as small:
        assert anna_client.get(url).status_code == 200
    _grow(group, 14)
    with django_assert_max_num_queries(len(small.captured_queries)):
        assert anna_client.get(url).status_code == 200
    # The game pages' figures and the records go to the shared database cache: its reads
    # and writes (a fixed handful of queries, in a savepoint) come on top of the page's
    # own, and so does the records' stamp (one aggregate) and, the first time, their reading.
    own = [q for q in small.captured_queries
           if "kartenrunde_cache" not in q["sql"] and "SAVEPOINT" not in q["sql"]]
    assert len(own) <= 15


def test_the_exports_run_a_fixed_number_of_queries(
    anna_client: Client, group: Group, monkeypatch: pytest.MonkeyPatch,
    django_assert_max_num_queries: Callable[[int], DjangoAssertNumQueries],
) -> None:
    """A fixed number per round of EXPORT_BATCH matches (here both sizes fit in one)."""
    from companion.services.transfer import export

    monkeypatch.setattr(export, "EXPORT_BATCH", 1000)

    def download(url: str) -> bytes:
        # Sent as it is written: the queries run while the parts are read.
        return b"".join(anna_client.get(url).streaming_content)

    _grow(group, 3)
    with django_assert_max_num_queries(1000) as small:
        download(f"/g/{group.pk}/export.json")
    _grow(group, 10)
    with django_assert_max_num_queries(len(small.captured_queries)):
        download(f"/g/{group.pk}/export.json")
    with django_assert_max_num_queries(len(small.captured_queries)):
        download(f"/g/{group.pk}/export.csv")


def test_membership_is_enough_to_see_the_history(history: Group) -> None:
    ben_user = User.objects.create_user("ben", password="kartenrunde-ben-1")
    Membership.objects.create(group=history, user=ben_user)
    client = Client()
    client.force_login(ben_user)
    assert client.get(f"/g/{history.pk}/history/").status_code == 200
    assert Player.objects.filter(group=history).count() == 3

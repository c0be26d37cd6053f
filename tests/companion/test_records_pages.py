"""Records and streaks on the game pages and the history page, each linking to its match
(and deal); the per-deal statistics leave out matches imported with final scores only
and say how many."""

from __future__ import annotations

import datetime as dt
import json
from typing import Any

import pytest
from django.test import Client

from companion.bgstats import bgstats_plan
from companion.models import GameNight, Group, Match
from companion.selectors.records import game_records, group_records
from companion.services import matches as match_services
from companion.services.bgstats import bgstats_import
from companion.services.groups import game_night_update
from tests.companion.test_history_helpers import freaky, night, play, x_nimmt

pytestmark = pytest.mark.django_db


def _bg_stats(game: str, plays: list[dict[str, int]]) -> bytes:
    """A BG Stats export of ``plays`` of one game: each play the players' scores by name."""
    names = sorted({name for play in plays for name in play})
    ref = {name: index for index, name in enumerate(names, 1)}
    return json.dumps({
        "games": [{"id": 1, "name": game, "bggId": 0}],
        "players": [{"id": ref[name], "name": name} for name in names],
        "plays": [
            {"uuid": f"play-{index}", "gameRefId": 1,
             "playDate": f"2025-05-{index + 1:02d} 20:00:00",
             "playerScores": [{"playerRefId": ref[name], "score": str(score), "seatOrder": seat}
                              for seat, (name, score) in enumerate(play.items(), 1)]}
            for index, play in enumerate(plays)
        ],
    }).encode()


def _import(group: Group, game: str, plays: list[dict[str, int]]) -> None:
    imported = bgstats_import(group=group, plan=bgstats_plan(_bg_stats(game, plays), group=group))
    assert imported.matches == len(plays)


@pytest.fixture
def history(group: Group) -> Group:
    evening = night(group, "2026-02-14", "Bei Cem")
    # Fewest minus points win X nimmt!: Anna wins 24 to 28, then 3 to 6.
    x_nimmt(group, evening, {"Anna": (5, 9), "Ben": (0, 11)}, {"Anna": (1, 0), "Ben": (0, 3)})
    x_nimmt(group, evening, {"Anna": (1, 0), "Ben": (0, 2)}, {"Anna": (0, 1), "Ben": (2, 0)})
    freaky(group, "2026-02-20", Anna=30, Ben=20, Cem=10)
    return group


def _section(body: str, marker: str) -> str:
    part = body[body.index(marker):]
    return part[:part.index("</section>")]


def test_the_game_page_links_each_record_to_its_match_and_deal(
    anna_client: Client, history: Group
) -> None:
    records = game_records(history, "x-nimmt")
    first, second = Match.objects.filter(group=history, game="x-nimmt").order_by("created_at")

    body = anna_client.get(f"/g/{history.pk}/games/x-nimmt/").content.decode()

    section = _section(body, 'id="records-title"')
    g = history.pk
    # Anna's 3 in the second match is the best total, Ben's 28 in the first the worst;
    # Anna's deal 1 of the first match (5 + 2×9 = 23) the worst deal.
    assert records.best_total is not None and records.best_total.value == 3
    assert records.worst_total is not None and records.worst_total.value == 28
    assert records.worst_deal is not None and (records.worst_deal.value,
                                               records.worst_deal.deal) == (23, 1)
    assert f'href="/g/{g}/matches/{second.pk}/"' in section
    assert f'href="/g/{g}/matches/{first.pk}/"' in section
    assert f'href="/g/{g}/matches/{first.pk}/#deal-1"' in section
    assert "Bester Endstand" in section and "Schlechtester Endstand" in section
    # Anna won both: a streak of two, ending in the second match; two matches that night.
    assert records.longest_streak is not None and records.longest_streak.length == 2
    assert "Längste Siegesserie" in section
    night_id = GameNight.objects.get(group=history, date="2026-02-14").pk
    assert f'href="/g/{g}/nights/{night_id}/"' in section
    assert "Meiste Partien an einem Abend" in section
    # Its date in the list's short form, as every other record's.
    busiest = section.split(f'href="/g/{g}/nights/{night_id}/"', 1)[1].split("</a>", 1)[0]
    assert "14.02.2026" in busiest


def test_the_history_page_shows_the_records_across_all_games(
    anna_client: Client, history: Group
) -> None:
    records = group_records(history)

    body = anna_client.get(f"/g/{history.pk}/history/").content.decode()

    section = _section(body, 'id="group-records-title"')
    assert records.longest_streak is not None and records.longest_streak.name == "Anna"
    assert records.longest_streak.length == 3  # both X nimmt! and the Freaky after them
    assert f'href="/g/{history.pk}/matches/{records.longest_streak.last_match_id}/"' in section
    assert records.busiest_night is not None and records.busiest_night.matches == 2
    assert f'href="/g/{history.pk}/nights/{records.busiest_night.night_id}/"' in section


def test_the_kept_records_follow_every_change_of_the_results(
    anna_client: Client, history: Group, django_assert_max_num_queries: Any
) -> None:
    """Streak and busiest night are kept between pages, never past a change."""
    first = group_records(history)
    assert first.longest_streak is not None and first.longest_streak.length == 3
    with django_assert_max_num_queries(4):  # kept: roster, stamp, version, the kept value
        assert group_records(history) == first

    # Reopened: the Freaky that ended the streak no longer counts (fewer results).
    freaky_match = Match.objects.get(group=history, game="freaky")
    match_services.match_reopen(match=freaky_match)
    reopened = group_records(history)
    assert reopened.longest_streak is not None and reopened.longest_streak.length == 2
    # Finished again: it counts again (new results).
    match_services.match_finish(match=freaky_match)
    assert group_records(history).longest_streak == first.longest_streak

    # A night moved in place: the busiest night carries its new date at once.
    evening = GameNight.objects.get(group=history, date=dt.date(2026, 2, 14))
    game_night_update(night=evening, date=dt.date(2026, 2, 13), place="Bei Cem")
    busiest = group_records(history).busiest_night
    assert busiest is not None and busiest.date == dt.date(2026, 2, 13)
    assert "13.02.2026" in anna_client.get(f"/g/{history.pk}/history/").content.decode()


def test_the_history_filter_sends_the_nights_without_the_records(
    anna_client: Client, history: Group
) -> None:
    body = anna_client.get(f"/g/{history.pk}/history/?game=freaky",
                           HTTP_HX_REQUEST="true").content.decode()

    assert "group-records" not in body and "Freaky" in body


def test_imported_matches_count_in_the_records_but_not_in_the_worst_deal(
    anna_client: Client, history: Group
) -> None:
    _import(history, "X nimmt!", [{"Anna": 2, "Ben": 40}])

    body = anna_client.get(f"/g/{history.pk}/games/x-nimmt/").content.decode()

    section = _section(body, 'id="records-title"')
    imported = Match.objects.get(group=history, source=Match.Source.BGSTATS)
    assert f'href="/g/{history.pk}/matches/{imported.pk}/"' in section  # best and worst total
    assert game_records(history, "x-nimmt").worst_deal.value == 23  # type: ignore[union-attr]
    assert ("1 nur mit Endständen importierte Partie hat keine Durchgänge: Der schlechteste "
            "Durchgang lässt sie aus.") in section


EVERY_COLOUR = {c: 1 for c in ("orange", "flieder", "hellblau", "rot", "tuerkis", "magenta",
                               "olivgruen")}


def _drei(group: Group) -> None:
    """Three matches of 3 sind einer zuviel! with deals: an interim scoring card was won in
    two of them."""
    play(group, "drei-sind-einer-zuviel", [{
        "Anna": {"taken": EVERY_COLOUR, "interim_bonus": 10},
        "Ben": {"taken": EVERY_COLOUR, "interim_bonus": 7},
        "Cem": {"taken": {"rot": 2}},
    }], on="2026-06-01")
    play(group, "drei-sind-einer-zuviel", [{
        "Anna": {"taken": {"rot": 1}}, "Ben": {"taken": EVERY_COLOUR, "interim_bonus": 10},
    }], on="2026-06-02")
    play(group, "drei-sind-einer-zuviel", [{"Anna": {"taken": {"rot": 1}},
                                            "Cem": {"taken": {}}}], on="2026-06-03")


def _figure(body: str, label: str) -> str:
    part = body[body.index(label):]
    return part[part.index('fw-semibold text-nowrap">') + 25:part.index("</span></div>")]


@pytest.mark.parametrize("imported", [0, 2])
def test_the_per_deal_figures_leave_imported_matches_out_and_say_how_many(
    anna_client: Client, group: Group, imported: int
) -> None:
    _drei(group)
    if imported:
        _import(group, "3 sind eine zu viel!", [{"Anna": 12, "Ben": 3}, {"Cem": 5, "Ben": 9}])

    body = anna_client.get(f"/g/{group.pk}/games/drei-sind-einer-zuviel/",
                           HTTP_ACCEPT_LANGUAGE="en").content.decode()

    # Two of the three matches with deals had an interim scoring card won, whatever was
    # imported beside them.
    won = "Matches in which an interim scoring card (Zwischenwertung) was won"
    assert _figure(body, won) == "67 %"
    assert (f"{3 + imported} finished matches" in body)
    skipped = (f"These figures leave out {imported} matches imported with final scores only: "
               "they have no deals.")
    assert (skipped in body) == bool(imported)


def test_a_game_with_imported_matches_only_says_its_figures_need_deals(
    anna_client: Client, group: Group
) -> None:
    _import(group, "Freaky", [{"Anna": 12, "Ben": 3}])

    body = anna_client.get(f"/g/{group.pk}/games/freaky/",
                           HTTP_ACCEPT_LANGUAGE="en").content.decode()

    assert ("These figures leave out 1 match imported with final scores only: it has no deals."
            in body)
    assert 'class="list-group figures"' not in body

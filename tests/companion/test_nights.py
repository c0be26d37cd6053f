"""Game nights: create, see, edit."""

import datetime as dt

import pytest
from django.contrib.auth.models import User
from django.test import Client

from companion.models import GameNight, Group, Match, Seat
from companion.services.groups import game_night_date
from tests.companion.test_history_helpers import x_nimmt

pytestmark = pytest.mark.django_db


@pytest.fixture
def night(group: Group) -> GameNight:
    return GameNight.objects.create(group=group, date=dt.date(2026, 11, 26), place="Bei Cem",
                                    notes="Cem kocht.")


def _urls(group: Group, night: GameNight) -> list[tuple[str, str]]:
    g = group.pk
    return [
        ("get", f"/g/{g}/nights/new/"),
        ("post", f"/g/{g}/nights/new/"),
        ("get", f"/g/{g}/nights/{night.pk}/"),
        ("get", f"/g/{g}/nights/{night.pk}/edit/"),
        ("post", f"/g/{g}/nights/{night.pk}/edit/"),
    ]


def test_every_night_url_is_404_for_an_outsider(
    outsider_client: Client, group: Group, night: GameNight
) -> None:
    for method, url in _urls(group, night):
        data = {"date": "2026-11-27", "place": "Hacked"}
        assert getattr(outsider_client, method)(url, data).status_code == 404, (method, url)
    night.refresh_from_db()
    assert night.place == "Bei Cem"
    assert GameNight.objects.filter(group=group).count() == 1


def test_a_night_of_another_group_is_404_for_a_member(
    anna_client: Client, group: Group, outsider: User
) -> None:
    foreign = GameNight.objects.create(group=Group.objects.get(name="Andere Runde"))
    assert anna_client.get(f"/g/{group.pk}/nights/{foreign.pk}/").status_code == 404
    assert anna_client.get(f"/g/{group.pk}/nights/{foreign.pk}/edit/").status_code == 404


def test_every_night_url_sends_a_logged_out_visitor_to_log_in(
    client: Client, group: Group, night: GameNight
) -> None:
    for method, url in _urls(group, night):
        response = getattr(client, method)(url)
        assert response.status_code == 302
        assert response.url.startswith("/accounts/login/?next=")


def test_the_new_night_form_defaults_to_this_evening(anna_client: Client, group: Group) -> None:
    body = anna_client.get(f"/g/{group.pk}/nights/new/").content.decode()
    assert f'value="{game_night_date():%Y-%m-%d}"' in body
    assert 'type="date"' in body


def test_creating_a_night(anna_client: Client, group: Group) -> None:
    response = anna_client.post(
        f"/g/{group.pk}/nights/new/",
        {"date": "2026-11-20", "place": " Bei Anna ", "notes": "Neue Karten"},
    )
    night = GameNight.objects.get(group=group)
    assert response.status_code == 302
    assert response.url == f"/g/{group.pk}/nights/{night.pk}/"
    assert (night.date, night.place, night.notes) == (dt.date(2026, 11, 20), "Bei Anna",
                                                      "Neue Karten")


def test_creating_a_night_with_only_a_date(anna_client: Client, group: Group) -> None:
    anna_client.post(f"/g/{group.pk}/nights/new/", {"date": "2026-11-20"})
    night = GameNight.objects.get(group=group)
    assert (night.place, night.notes) == ("", "")


@pytest.mark.parametrize("date", ["", "2026-13-40", "gestern"])
def test_a_night_with_a_bad_date_is_not_saved(anna_client: Client, group: Group, date: str) -> None:
    response = anna_client.post(f"/g/{group.pk}/nights/new/", {"date": date, "place": "X"})
    assert response.status_code == 200
    assert "is-invalid" in response.content.decode()
    assert not GameNight.objects.filter(group=group).exists()


def test_the_night_page_lists_its_matches_and_offers_to_start_one(
    anna_client: Client, group: Group, night: GameNight
) -> None:
    match = Match.objects.create(group=group, game_night=night, game="elf-nimmt",
                                 status="finished")
    for number, player in enumerate(group.players.order_by("name")):
        Seat.objects.create(match=match, player=player, number=number,
                            is_winner=player.name == "Cem")
    other_night = GameNight.objects.create(group=group)
    elsewhere = Match.objects.create(group=group, game_night=other_night, game="freaky")
    body = anna_client.get(f"/g/{group.pk}/nights/{night.pk}/").content.decode()
    assert "Bei Cem" in body
    assert "Cem kocht." in body
    assert "11 nimmt!" in body
    assert f'href="/g/{group.pk}/matches/{match.pk}/"' in body
    assert f'/matches/{elsewhere.pk}/' not in body
    assert f'href="/g/{group.pk}/matches/new/?night={night.pk}"' in body
    assert f'href="/g/{group.pk}/nights/{night.pk}/edit/"' in body


def test_editing_a_night(anna_client: Client, group: Group, night: GameNight) -> None:
    body = anna_client.get(f"/g/{group.pk}/nights/{night.pk}/edit/").content.decode()
    assert 'value="2026-11-26"' in body
    assert 'value="Bei Cem"' in body
    response = anna_client.post(
        f"/g/{group.pk}/nights/{night.pk}/edit/",
        {"date": "2026-11-27", "place": "Bei Ben", "notes": ""},
    )
    assert response.url == f"/g/{group.pk}/nights/{night.pk}/"
    night.refresh_from_db()
    assert (night.date, night.place, night.notes) == (dt.date(2026, 11, 27), "Bei Ben", "")


def test_editing_a_night_with_a_bad_date_changes_nothing(
    anna_client: Client, group: Group, night: GameNight
) -> None:
    response = anna_client.post(
        f"/g/{group.pk}/nights/{night.pk}/edit/", {"date": "", "place": "Bei Ben"}
    )
    assert response.status_code == 200
    night.refresh_from_db()
    assert (night.date, night.place) == (dt.date(2026, 11, 26), "Bei Cem")


def test_the_night_page_runs_the_same_queries_for_2_or_20_matches(
    anna_client: Client, group: Group, night: GameNight, django_assert_max_num_queries
) -> None:
    players = list(group.players.all())

    def add(n: int) -> None:
        for index in range(n):
            match = Match.objects.create(group=group, game_night=night, game="x-nimmt")
            for number, player in enumerate(players):
                Seat.objects.create(match=match, player=player, number=number)
            x_nimmt(group, night, {"Anna": (index, 1), "Ben": (0, 3)},
                    {"Anna": (1, 0), "Ben": (0, 2)})

    add(1)
    # The tally, the matches with their rating changes: a fixed number of queries (the
    # first look after a change also reads the tally and keeps it in the database cache).
    with django_assert_max_num_queries(40) as small:
        anna_client.get(f"/g/{group.pk}/nights/{night.pk}/")
    with django_assert_max_num_queries(14):  # the tally kept
        anna_client.get(f"/g/{group.pk}/nights/{night.pk}/")
    add(10)
    with django_assert_max_num_queries(len(small.captured_queries)):
        anna_client.get(f"/g/{group.pk}/nights/{night.pk}/")

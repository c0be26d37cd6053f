"""The roster: add, rename and link players."""

import re

import pytest
from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.test import Client

from companion.models import Group, GroupChange, Membership, Player
from companion.services import groups as services

pytestmark = pytest.mark.django_db


def test_the_roster_lists_the_players(anna_client: Client, group: Group) -> None:
    body = anna_client.get(f"/g/{group.pk}/roster/").content.decode()
    assert body.index("Anna") < body.index("Ben") < body.index("Cem")


def test_a_member_adds_a_player(anna_client: Client, group: Group) -> None:
    response = anna_client.post(f"/g/{group.pk}/roster/", {"name": " Dora  Maier "})
    assert response.status_code == 302
    assert response.url == f"/g/{group.pk}/roster/"
    assert group.players.filter(name="Dora Maier", user=None).exists()


def test_adding_with_htmx_answers_with_the_roster_partial(
    anna_client: Client, group: Group,
) -> None:
    response = anna_client.post(f"/g/{group.pk}/roster/", {"name": "Dora"}, HTTP_HX_REQUEST="true")
    body = response.content.decode()
    assert "<html" not in body
    assert body.lstrip().startswith('<div id="roster">')
    assert "Dora" in body


@pytest.mark.parametrize("name", ["Ben", "ben", " BEN "])
def test_a_name_already_on_the_roster_is_refused(
    anna_client: Client, group: Group, name: str
) -> None:
    response = anna_client.post(f"/g/{group.pk}/roster/", {"name": name}, HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    assert "Es gibt schon einen Spieler" in response.content.decode()
    assert group.players.count() == 3


def test_an_empty_name_is_refused(anna_client: Client, group: Group) -> None:
    response = anna_client.post(f"/g/{group.pk}/roster/", {"name": "   "})
    assert response.status_code == 200
    assert "is-invalid" in response.content.decode()
    assert group.players.count() == 3


def test_the_same_name_may_be_in_another_group(group: Group, outsider: User) -> None:
    other = Group.objects.get(name="Andere Runde")
    assert services.player_add(group=other, name="Ben").group == other


def test_renaming_a_player(anna_client: Client, group: Group) -> None:
    ben = group.players.get(name="Ben")
    response = anna_client.post(f"/g/{group.pk}/roster/{ben.pk}/rename/", {"name": "Benedikt"})
    assert response.status_code == 302
    ben.refresh_from_db()
    assert ben.name == "Benedikt"


def test_renaming_a_player_to_the_same_name_in_other_case_is_allowed(group: Group) -> None:
    ben = group.players.get(name="Ben")
    assert services.player_rename(player=ben, name="BEN").name == "BEN"


def test_renaming_to_a_taken_name_is_refused_at_the_row(anna_client: Client, group: Group) -> None:
    ben = group.players.get(name="Ben")
    response = anna_client.post(
        f"/g/{group.pk}/roster/{ben.pk}/rename/", {"name": "cem"}, HTTP_HX_REQUEST="true"
    )
    body = response.content.decode()
    assert "Es gibt schon einen Spieler „cem“ in dieser Gruppe." in body
    assert 'value="cem"' in body
    ben.refresh_from_db()
    assert ben.name == "Ben"


def test_linking_a_player_to_a_member(anna_client: Client, group: Group) -> None:
    dora = User.objects.create_user("dora")
    Membership.objects.create(group=group, user=dora)
    cem = group.players.get(name="Cem")
    response = anna_client.post(
        f"/g/{group.pk}/roster/{cem.pk}/link/", {"user": str(dora.pk)}, HTTP_HX_REQUEST="true"
    )
    assert response.status_code == 200
    cem.refresh_from_db()
    assert cem.user == dora


def test_linking_moves_the_account_from_its_previous_player(group: Group, anna: User) -> None:
    cem = group.players.get(name="Cem")
    services.player_link(player=cem, user=anna)
    assert list(group.players.filter(user=anna).values_list("name", flat=True)) == ["Cem"]


def test_unlinking_a_player(anna_client: Client, group: Group) -> None:
    anna_player = group.players.get(name="Anna")
    anna_client.post(f"/g/{group.pk}/roster/{anna_player.pk}/link/", {"user": ""})
    anna_player.refresh_from_db()
    assert anna_player.user is None


def test_linking_to_an_account_outside_the_group_is_refused(
    anna_client: Client, group: Group, outsider: User
) -> None:
    cem = group.players.get(name="Cem")
    response = anna_client.post(f"/g/{group.pk}/roster/{cem.pk}/link/", {"user": str(outsider.pk)})
    assert response.status_code == 200
    cem.refresh_from_db()
    assert cem.user is None
    with pytest.raises(ValidationError):
        services.player_link(player=cem, user=outsider)
    cem.refresh_from_db()
    assert cem.user is None


def test_roster_changes_need_a_post(anna_client: Client, group: Group) -> None:
    ben = group.players.get(name="Ben")
    assert anna_client.get(f"/g/{group.pk}/roster/{ben.pk}/rename/").status_code == 405
    assert anna_client.put(f"/g/{group.pk}/roster/{ben.pk}/link/").status_code == 405
    # GET shows the link form (the roster's row loads it when opened); nothing changes.
    assert anna_client.get(f"/g/{group.pk}/roster/{ben.pk}/link/").status_code == 200
    assert GroupChange.objects.count() == 0


def test_a_players_link_form_lists_the_members_with_the_linked_one_chosen(
    anna_client: Client, group: Group, anna: User,
) -> None:
    dora = User.objects.create_user("dora")
    Membership.objects.create(group=group, user=dora)
    anna_player = group.players.get(name="Anna")
    url = f"/g/{group.pk}/roster/{anna_player.pk}/link/"
    form = anna_client.get(url, HTTP_HX_REQUEST="true").content.decode()
    assert form.lstrip().startswith("<form") and "<html" not in form
    assert f'<option value="{anna.pk}" selected>anna</option>' in form
    assert f'<option value="{dora.pk}">dora</option>' in form
    page = anna_client.get(url).content.decode()  # without JavaScript: a page of its own
    assert "<html" in page and f'<option value="{dora.pk}">dora</option>' in page


def test_a_member_gets_no_link_form_for_a_player_linked_to_someone_else(
    group: Group, anna: User,
) -> None:
    ben = User.objects.create_user("ben")
    Membership.objects.create(group=group, user=ben)
    client = Client()
    client.force_login(ben)
    anna_player = group.players.get(name="Anna")
    assert client.get(f"/g/{group.pk}/roster/{anna_player.pk}/link/").status_code == 403


def test_the_roster_lists_the_members_in_no_players_row(
    anna_client: Client, group: Group,
) -> None:
    """The link form with its list of members is loaded when a row is opened: the roster
    does not grow with players x members (30 players: 108 KB with 3 members, 244 KB with 63;
    500 players and 100 members would have been 3.4 MB of options)."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    Player.objects.bulk_create(Player(group=group, name=f"P{n}") for n in range(27))

    def members(count: int) -> None:
        for _ in range(count):
            user = User.objects.create_user(f"member{User.objects.count()}")
            Membership.objects.create(group=group, user=user)

    def cost() -> tuple[int, int]:
        with CaptureQueriesContext(connection) as queries:
            body = anna_client.get(f"/g/{group.pk}/roster/").content
        return len(queries), len(body)

    members(2)
    queries_3, bytes_3 = cost()
    members(60)
    queries_63, bytes_63 = cost()
    assert queries_63 <= queries_3
    assert abs(bytes_63 - bytes_3) < 200, (bytes_3, bytes_63)


def test_the_roster_runs_the_same_queries_for_3_or_30_players(
    anna_client: Client, group: Group, django_assert_max_num_queries
) -> None:
    with django_assert_max_num_queries(8):
        anna_client.get(f"/g/{group.pk}/roster/")
    Player.objects.bulk_create(Player(group=group, name=f"P{n}") for n in range(27))
    with django_assert_max_num_queries(8):
        anna_client.get(f"/g/{group.pk}/roster/")


def test_the_roster_is_sorted_ignoring_case(anna_client: Client, group: Group) -> None:
    services.player_add(group=group, name="anton")
    services.player_add(group=group, name="Berta")
    body = anna_client.get(f"/g/{group.pk}/roster/").content.decode()
    names = ["Anna", "anton", "Ben", "Berta", "Cem"]
    positions = [body.index(f'<span class="fw-semibold text-break">{n}</span>') for n in names]
    assert positions == sorted(positions)


def _options(html: str, select: str) -> list[str]:
    found = re.search(rf'<select name="{select}"[^>]*>(.*?)</select>', html, re.S)
    assert found, select
    return [name for value, name in re.findall(r'<option value="([^"]*)"[^>]*>([^<]*)</option>',
                                               found[1]) if value]


def test_names_are_listed_ignoring_case_wherever_the_roster_is_chosen_from(
    anna_client: Client, group: Group
) -> None:
    for name in ("Clara", "David", "bea"):
        Player.objects.create(group=group, name=name)
    expected = ["Anna", "bea", "Ben", "Cem", "Clara", "David"]  # not "..., David, bea"
    assert [p.name for p in Player.objects.filter(group=group)] == expected
    start = anna_client.get(f"/g/{group.pk}/matches/new/").content.decode()
    assert _options(start, "seat_0") == expected
    assert _options(start, "first_player") == expected
    history = anna_client.get(f"/g/{group.pk}/history/").content.decode()
    assert _options(history, "player") == expected
    roster = anna_client.get(f"/g/{group.pk}/roster/").content.decode()
    assert [roster.index(f">{name}<") for name in expected] == sorted(
        roster.index(f">{name}<") for name in expected)

import pytest
from django.contrib.auth.models import User
from django.test import Client

from companion.models import Group

pytestmark = pytest.mark.django_db


def test_the_home_page_lists_the_five_games(client: Client) -> None:
    response = client.get("/")
    assert response.status_code == 200
    body = response.content.decode()
    for title in ["3 sind einer zuviel!", "X nimmt!", "Freaky", "11 nimmt!", "13"]:
        assert title in body


def test_the_home_page_invites_a_visitor_to_sign_up_or_log_in(client: Client) -> None:
    body = client.get("/").content.decode()
    assert 'href="/accounts/signup/"' in body
    assert 'href="/accounts/login/"' in body


def test_the_home_page_shows_a_members_groups_and_not_others(
    anna_client: Client, group: Group, outsider: User
) -> None:
    body = anna_client.get("/").content.decode()
    assert "Donnerstagsrunde" in body
    assert f'href="/g/{group.pk}/"' in body
    assert "Andere Runde" not in body
    assert 'href="/groups/new/"' in body
    assert 'href="/accounts/signup/"' not in body


def test_the_home_page_offers_to_create_a_first_group(client: Client, anna: User) -> None:
    client.force_login(anna)
    body = client.get("/").content.decode()
    assert 'href="/groups/new/"' in body
    assert "noch in keiner Gruppe" in body


def test_the_home_page_runs_one_query_for_the_groups(
    anna_client: Client, group: Group, django_assert_max_num_queries
) -> None:
    for n in range(5):
        extra = Group.objects.create(name=f"Runde {n}", owner=group.owner)
        extra.memberships.create(user=group.owner, role="owner")
    with django_assert_max_num_queries(4):  # session, user, groups, running matches
        anna_client.get("/")

"""Lists that stay small: the start page and the group home show the newest few running
matches, game nights, a night's matches and group changes, with a link to the whole list,
a page at a time ("Show more" adds the next page with htmx, or opens it without). So
both pages cost the same queries and bytes with 700 running matches as with 5."""

from __future__ import annotations

import datetime as dt
import re

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from companion.models import (
    Deal,
    GameNight,
    Group,
    GroupChange,
    Match,
    Membership,
    Player,
    Seat,
)
from companion.selectors.groups import (
    GROUPS_PER_PAGE,
    GROUPS_SHOWN,
    LOG_PER_PAGE,
    LOG_SHOWN,
    NIGHT_MATCHES_SHOWN,
    RUNNING_PER_PAGE,
    RUNNING_SHOWN,
)

pytestmark = pytest.mark.django_db


def run(group: Group, players: list[Player], count: int, *, night: GameNight | None = None
        ) -> list[Match]:
    """``count`` more running matches of X nimmt!, one deal each, in today's game night
    (where the score sheet's "New match" puts them), one minute apart."""
    night = night or GameNight.objects.get_or_create(group=group, date=timezone.localdate())[0]
    start = Match.objects.count()
    matches = Match.objects.bulk_create(
        Match(group=group, game_night=night, game="x-nimmt", status=Match.Status.OPEN,
              created_at=timezone.now() - dt.timedelta(days=1) + dt.timedelta(minutes=start + i))
        for i in range(count)
    )
    Seat.objects.bulk_create(Seat(match=m, player=p, number=n, total=n, place=n + 1)
                             for m in matches for n, p in enumerate(players))
    Deal.objects.bulk_create(Deal(match=m, number=1) for m in matches)
    return matches


def sheet_links(html: str) -> list[str]:
    return re.findall(r'href="(/g/\d+/matches/\d+/)"', html)


def cost(client: Client, url: str) -> tuple[int, int]:
    """The queries and bytes of ``url``."""
    with CaptureQueriesContext(connection) as queries:
        response = client.get(url)
    assert response.status_code == 200
    return len(queries), len(response.content)


@pytest.mark.parametrize("page", ["home", "group_home"])
def test_a_home_page_costs_the_same_with_700_running_matches_as_with_5(
    anna_client: Client, group: Group, players: list[Player], page: str
) -> None:
    url = reverse(page, args=[group.pk] if page == "group_home" else [])
    run(group, players, 5)
    anna_client.get(url)
    queries_5, bytes_5 = cost(anna_client, url)
    run(group, players, 695)
    queries_700, bytes_700 = cost(anna_client, url)

    assert queries_700 == queries_5
    # Only the links to the rest, and longer match numbers, come in.
    assert abs(bytes_700 - bytes_5) < 600, (bytes_5, bytes_700)
    assert bytes_700 < 30_000


@pytest.mark.parametrize("page", ["home", "group_home"])
def test_a_home_page_shows_the_newest_running_matches_and_links_to_all_of_them(
    anna_client: Client, group: Group, players: list[Player], page: str
) -> None:
    matches = run(group, players, RUNNING_SHOWN + 3)
    url = reverse(page, args=[group.pk] if page == "group_home" else [])
    html = anna_client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()

    running = html[html.index('class="list-group running-matches"'):]
    running = running[: running.index("</section>")]
    newest = [f"/g/{group.pk}/matches/{m.pk}/" for m in reversed(matches)][:RUNNING_SHOWN]
    assert sheet_links(running) == newest
    everything = reverse("running") if page == "home" else reverse("group_running",
                                                                    args=[group.pk])
    assert f'href="{everything}">All running matches ›</a>' in running


@pytest.mark.parametrize("page", ["home", "group_home"])
def test_with_few_running_matches_there_is_no_link_to_more(
    anna_client: Client, group: Group, players: list[Player], page: str
) -> None:
    run(group, players, RUNNING_SHOWN)
    url = reverse(page, args=[group.pk] if page == "group_home" else [])
    html = anna_client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert html.count("running-match py-2") == RUNNING_SHOWN
    assert "All running matches" not in html


@pytest.mark.parametrize("list_name", ["running", "group_running"])
def test_the_list_of_running_matches_shows_every_one_across_its_pages(
    anna_client: Client, group: Group, players: list[Player], list_name: str
) -> None:
    matches = run(group, players, 2 * RUNNING_PER_PAGE + 5)
    url = reverse(list_name, args=[group.pk] if list_name == "group_running" else [])
    seen: list[str] = []
    page = 1
    while True:
        html = anna_client.get(f"{url}?page={page}", HTTP_ACCEPT_LANGUAGE="en").content.decode()
        seen += sheet_links(html)
        following = re.search(r'href="\?page=(\d+)"\s+hx-get="\?page=\1"', html)
        if following is None:
            break
        page = int(following.group(1))
    assert page == 3
    assert seen == [f"/g/{group.pk}/matches/{m.pk}/" for m in reversed(matches)]


def test_show_more_over_htmx_answers_only_the_next_rows_and_the_next_link(
    anna_client: Client, group: Group, players: list[Player]
) -> None:
    matches = run(group, players, 2 * RUNNING_PER_PAGE + 5)
    html = anna_client.get(reverse("group_running", args=[group.pk]) + "?page=2",
                           HTTP_HX_REQUEST="true", HTTP_ACCEPT_LANGUAGE="en").content.decode()

    assert "<html" not in html
    page_two = list(reversed(matches))[RUNNING_PER_PAGE: 2 * RUNNING_PER_PAGE]
    assert sheet_links(html) == [f"/g/{group.pk}/matches/{m.pk}/" for m in page_two]
    assert html.count(" autofocus") == 1  # the first new row takes the focus
    assert 'hx-get="?page=3" hx-target="this" hx-swap="outerHTML">Show more</a>' in html


def test_the_list_of_a_users_running_matches_names_their_groups_and_leaves_others_out(
    anna_client: Client, group: Group, players: list[Player], outsider_client: Client
) -> None:
    run(group, players, 3)
    html = anna_client.get(reverse("running")).content.decode()
    assert html.count("· Donnerstagsrunde") == 3
    assert sheet_links(outsider_client.get(reverse("running")).content.decode()) == []


def test_the_lists_are_for_members_only(
    group: Group, outsider_client: Client, client: Client
) -> None:
    for name in ("group_running", "group_changes"):
        assert outsider_client.get(reverse(name, args=[group.pk])).status_code == 404
    assert client.get(reverse("running"))["Location"].startswith(reverse("login"))


@pytest.mark.parametrize("page", ["abc", "0", "99", "-1", "1.5"])
def test_a_page_number_out_of_range_or_not_a_number_gives_the_nearest_page(
    anna_client: Client, group: Group, players: list[Player], page: str
) -> None:
    run(group, players, 3)
    response = anna_client.get(reverse("group_running", args=[group.pk]), {"page": page})
    assert response.status_code == 200
    assert len(sheet_links(response.content.decode())) == 3


def test_a_night_with_many_matches_shows_its_newest_on_the_group_home_with_a_link_to_all(
    anna_client: Client, group: Group, players: list[Player]
) -> None:
    night = GameNight.objects.create(group=group, date=dt.date(2026, 3, 1))
    matches = run(group, players, NIGHT_MATCHES_SHOWN + 4, night=night)
    html = anna_client.get(reverse("group_home", args=[group.pk]),
                           HTTP_ACCEPT_LANGUAGE="en").content.decode()

    card = html[html.index(f'id="night-{night.pk}"'):]
    card = card[: card.index("</section>")]
    assert sheet_links(card) == [f"/g/{group.pk}/matches/{m.pk}/"
                                 for m in matches[-NIGHT_MATCHES_SHOWN:]]  # in start order
    night_page = reverse("night_detail", args=[group.pk, night.pk])
    assert f'href="{night_page}">All matches of this game night ›</a>' in card


def test_a_night_with_few_matches_lists_them_all_without_a_link(
    anna_client: Client, group: Group, players: list[Player]
) -> None:
    night = GameNight.objects.create(group=group, date=dt.date(2026, 3, 1))
    run(group, players, NIGHT_MATCHES_SHOWN, night=night)
    html = anna_client.get(reverse("group_home", args=[group.pk]),
                           HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert len(sheet_links(html)) == NIGHT_MATCHES_SHOWN * 2  # running and in the night
    assert "All matches of this game night" not in html


def test_the_settings_show_the_newest_changes_and_the_changes_page_all_of_them(
    anna_client: Client, group: Group, anna: object
) -> None:
    now = timezone.now()
    GroupChange.objects.bulk_create(
        GroupChange(group=group, kind=GroupChange.Kind.RENAME, created_by=anna,
                    created_at=now + dt.timedelta(minutes=i),
                    detail={"from": f"Name {i}", "to": f"Name {i + 1}"})
        for i in range(LOG_PER_PAGE + 5)
    )
    settings = anna_client.get(reverse("group_settings", args=[group.pk]),
                               HTTP_ACCEPT_LANGUAGE="en").content.decode()
    shown = re.findall(r"to “Name (\d+)”", settings)
    assert shown == [str(LOG_PER_PAGE + 5 - i) for i in range(LOG_SHOWN)]
    changes = reverse("group_changes", args=[group.pk])
    assert f'href="{changes}">All changes ›</a>' in settings

    first = anna_client.get(changes, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    more = anna_client.get(changes + "?page=2", HTTP_HX_REQUEST="true",
                           HTTP_ACCEPT_LANGUAGE="en").content.decode()
    every = re.findall(r"to “Name (\d+)”", first) + re.findall(r"to “Name (\d+)”", more)
    assert every == [str(LOG_PER_PAGE + 5 - i) for i in range(LOG_PER_PAGE + 5)]
    assert "Show more" in first and "Show more" not in more
    assert "<html" not in more


def join_groups(group: Group, count: int) -> None:
    """``count`` more groups of the group's owner, with a player each."""
    start = Group.objects.count()
    for index in range(start, start + count):
        extra = Group.objects.create(name=f"Runde {index:03d}", owner=group.owner)
        Membership.objects.create(group=extra, user=group.owner, role=Membership.Role.OWNER)
        Player.objects.create(group=extra, name="Anna", user=group.owner)


@pytest.mark.parametrize("page", ["home", "group_list", "account"])
def test_the_pages_listing_ones_groups_cost_the_same_with_120_groups_as_with_31(
    anna_client: Client, group: Group, page: str
) -> None:
    """The start page and the account page show the first few groups, the list of groups a
    page of them (each page was every group: 24 KB at 62 groups, growing 230 bytes a group)."""
    url = reverse(page)
    join_groups(group, max(GROUPS_SHOWN, GROUPS_PER_PAGE))
    anna_client.get(url)
    queries_31, bytes_31 = cost(anna_client, url)
    join_groups(group, 89)
    queries_120, bytes_120 = cost(anna_client, url)

    assert queries_120 == queries_31
    assert abs(bytes_120 - bytes_31) < 300, (bytes_31, bytes_120)


@pytest.mark.parametrize("page", ["home", "account"])
def test_a_page_with_the_first_groups_links_to_all_of_them(
    anna_client: Client, group: Group, page: str
) -> None:
    join_groups(group, GROUPS_SHOWN - 1)
    html = anna_client.get(reverse(page)).content.decode()
    assert len(re.findall(r'href="/g/\d+/"', html)) == GROUPS_SHOWN
    more = re.compile(r'class="btn btn-link w-100 mb-\d" href="/groups/"')  # not the top bar's
    assert not more.search(html)
    join_groups(group, 1)
    html = anna_client.get(reverse(page)).content.decode()
    first = Group.objects.filter(memberships__user=group.owner).order_by("name", "id")
    assert re.findall(r'href="/g/(\d+)/"', html) == [
        str(g.pk) for g in first[:GROUPS_SHOWN]]
    assert more.search(html)


def test_the_list_of_groups_shows_every_one_by_name_across_its_pages(
    anna_client: Client, group: Group
) -> None:
    join_groups(group, 2 * GROUPS_PER_PAGE + 4)
    seen: list[str] = []
    page = 1
    while True:
        headers = {"HTTP_HX_REQUEST": "true"} if page > 1 else {}
        html = anna_client.get(f"{reverse('group_list')}?page={page}", **headers).content.decode()
        seen += re.findall(r'href="/g/(\d+)/"', html)
        following = re.search(r'href="\?page=(\d+)"\s+hx-get="\?page=\1"', html)
        if following is None:
            break
        page = int(following.group(1))
    assert page == 3
    expected = Group.objects.filter(memberships__user=group.owner).order_by("name", "id")
    assert seen == [str(g.pk) for g in expected]

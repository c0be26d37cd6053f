"""The sheet's parts are kept per match revision and viewer (templatetags/revision_parts.py):
a repeat load is the same page, with its own CSRF token, form key and ETag; every change
shows on the next load, whatever it changed (deals, the match, the roster, the night,
the language, who looks)."""

from __future__ import annotations

import datetime as dt
import re
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from companion.models import Deal, Group, Match, Membership, Player
from companion.services import groups as group_services
from companion.services import matches as services

HX = {"HTTP_HX_REQUEST": "true"}
PER_REQUEST = re.compile(
    r'(name="csrfmiddlewaretoken" value="|name="client_key" value="|data-etag="'
    r'|"X-CSRFToken": ")[^"]*'
)


def url(name: str, match: Match, **kwargs: Any) -> str:
    return reverse(name, kwargs={"group_id": match.group_id, "match_id": match.pk, **kwargs})


def sheet(client: Client, match: Match, query: str = "", **headers: Any) -> str:
    response = client.get(url("match_sheet", match) + query, **headers)
    assert response.status_code == 200
    return response.content.decode()


def same_but_per_request(html: str) -> str:
    return PER_REQUEST.sub(lambda m: m[1] + "…", html)


def record(match: Match, players: list[Player], *hands: int) -> Deal:
    return services.deal_record(
        match=match, number=match.deals.count() + 1,
        entries={p.pk: {"hand": hand} for p, hand in zip(players, hands, strict=True)},
    )


def a_running_match(group: Group, players: list[Player]) -> Match:
    match = services.match_start(group=group, game="x-nimmt", players=players)
    record(match, players, 5, 1, 2)
    return match


@pytest.mark.django_db
@pytest.mark.parametrize("headers", [{}, HX], ids=["page", "htmx"])
@pytest.mark.parametrize("query", ["", "?view=table", "?mode=cards"])
def test_a_repeat_load_is_the_same_page_with_its_own_token_key_and_etag(
    anna_client: Client, group: Group, players: list[Player], headers: dict[str, str],
    query: str,
) -> None:
    match = a_running_match(group, players)
    first, second = (sheet(anna_client, match, query, **headers) for _ in range(2))
    assert same_but_per_request(second) == same_but_per_request(first)
    keys = [re.findall(r'name="client_key" value="([0-9a-f]{32})"', html)
            for html in (first, second)]
    assert len(keys[0]) == len(keys[1]) == 1
    assert keys[0] != keys[1]
    token = anna_client.cookies["csrftoken"].value
    assert token  # each page carries a token of this client, never another's
    for html in (first, second):
        tokens = set(re.findall(r'name="csrfmiddlewaretoken" value="([^"]+)"', html))
        assert len(tokens) == 1
        assert "\x00" not in html


@pytest.mark.django_db
def test_a_kept_page_serves_another_client_its_own_csrf_token(
    group: Group, players: list[Player], anna: User
) -> None:
    match = a_running_match(group, players)
    phones = [Client(enforce_csrf_checks=True) for _ in range(2)]
    tokens = []
    for phone in phones:
        phone.force_login(anna)
        html = sheet(phone, match)
        tokens.append(re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', html)[1])
    # The second phone's token works for the second phone (a kept part held the first's).
    response = phones[1].post(url("match_undo", match), {
        "csrfmiddlewaretoken": tokens[1], "change": match.changes.get().pk})
    assert response.status_code == 302
    assert not match.deals.exists()


@pytest.mark.django_db
def test_the_kept_form_has_the_shape_a_save_compares_with(
    anna_client: Client, group: Group, players: list[Player]
) -> None:
    match = services.match_start(group=group, game="x-nimmt", players=players)
    shapes = [re.search(r'data-shape="([0-9a-f]+)"', sheet(anna_client, match))[1]
              for _ in range(2)]
    assert shapes[0] == shapes[1]
    response = anna_client.post(
        url("deal_new", match),
        {"number": 1, "mode": "counts", "s0-hand": 3, "s1-hand": 0, "s2-hand": 1},
        HTTP_KR_FORM_SHAPE=shapes[1], **HX,
    )
    assert response.status_code == 200
    assert "kr:form" in response["HX-Trigger-After-Swap"]
    assert 'id="deal-form"' not in response.content.decode()


@pytest.mark.django_db
def test_every_change_of_the_match_shows_on_the_next_load(
    anna_client: Client, group: Group, players: list[Player]
) -> None:
    match = services.match_start(group=group, game="x-nimmt", players=players)
    sheet(anna_client, match)
    anna_client.post(url("deal_new", match), {"number": 1, "s0-hand": 5, "s1-hand": 1,
                                               "s2-hand": 2})
    html = sheet(anna_client, match)
    assert 'id="deal-1" class="table-success saved-row"' in html  # the row just saved
    html = sheet(anna_client, match)
    assert 'id="deal-1">' in html  # marked once only
    assert 'name="number" value="2"' in html
    anna_client.post(url("deal_edit", match, number=1),
                     {"number": 1, "version": 1, "s0-hand": 9, "s1-hand": 1, "s2-hand": 2})
    assert '<span>9</span></li>' in sheet(anna_client, match)
    anna_client.post(url("deal_new", match), {"number": 2, "s0-hand": 1, "s1-hand": 1,
                                               "s2-hand": 1})
    assert 'id="deal-2"' in sheet(anna_client, match)
    anna_client.post(url("deal_delete", match, number=2), {"version": 1, "confirm": "yes"})
    assert 'id="deal-2"' not in sheet(anna_client, match)
    anna_client.post(url("match_undo", match), {"change": match.changes.order_by("-id")[0].pk})
    html = sheet(anna_client, match)
    assert 'id="deal-2"' in html
    assert 'id="winners"' not in html
    anna_client.post(url("match_finish", match))
    html = sheet(anna_client, match)
    assert 'id="winners"' in html
    assert 'id="deal-form"' not in html
    anna_client.post(url("match_reopen", match))
    html = sheet(anna_client, match)
    assert 'id="winners"' not in html
    assert 'class="btn btn-sm btn-outline-secondary deal-edit"' in html


@pytest.mark.django_db
def test_a_renamed_or_recoloured_player_shows_on_the_next_load(
    anna_client: Client, group: Group, players: list[Player]
) -> None:
    match = a_running_match(group, players)
    assert ">Ben</th>" in sheet(anna_client, match)
    group_services.player_rename(player=players[1], name="Benedikt")
    html = sheet(anna_client, match)
    assert ">Benedikt</th>" in html
    assert ">Ben</th>" not in html
    group_services.player_recolour(player=players[1], colour="#123456")
    assert '--player: #123456">Benedikt</th>' in sheet(anna_client, match)
    # A player outside the match choosing a colour moves the others' default colours on.
    before = re.findall(r'player-head" style="--player: (#[0-9a-f]{6})"', sheet(anna_client, match))
    dora = Player.objects.create(group=group, name="Dora")
    group_services.player_recolour(player=dora, colour=before[0])
    after = re.findall(r'player-head" style="--player: (#[0-9a-f]{6})"', sheet(anna_client, match))
    assert after[0] != before[0]


@pytest.mark.django_db
def test_a_renamed_group_and_a_moved_night_show_on_the_next_load(
    anna_client: Client, group: Group, players: list[Player]
) -> None:
    match = a_running_match(group, players)
    sheet(anna_client, match, HTTP_ACCEPT_LANGUAGE="en")
    Group.objects.filter(pk=group.pk).update(name="Freitagsrunde")
    group_services.game_night_update(night=match.game_night, date=dt.date(2024, 2, 29))
    html = sheet(anna_client, match, HTTP_ACCEPT_LANGUAGE="en")
    assert "← Freitagsrunde</a>" in html
    assert "Freitagsrunde</title>" in html
    assert ">02/29/2024</a>" in html


@pytest.mark.django_db
def test_the_language_switch_shows_on_the_next_load(
    anna_client: Client, group: Group, players: list[Player]
) -> None:
    match = a_running_match(group, players)
    assert ">läuft</span>" in sheet(anna_client, match)
    anna_client.post(reverse("set_language"), {"language": "en", "next": "/"})
    html = sheet(anna_client, match)
    assert ">running</span>" in html
    assert ">läuft</span>" not in html


@pytest.mark.django_db
def test_only_who_may_delete_the_match_is_offered_to(
    anna_client: Client, group: Group, players: list[Player]
) -> None:
    match = a_running_match(group, players)
    ben = User.objects.create_user("ben", password="kartenrunde-ben-1")
    Membership.objects.create(group=group, user=ben, role=Membership.Role.MEMBER)
    ben_client = Client()
    ben_client.force_login(ben)
    for _ in range(2):
        assert 'id="delete-match"' in sheet(anna_client, match)
        assert 'id="delete-match"' not in sheet(ben_client, match)
    # Ben becomes the group's owner: he may delete it now, on the next load.
    Group.objects.filter(pk=group.pk).update(owner=ben)
    assert 'id="delete-match"' in sheet(ben_client, match)


def test_a_part_keeps_at_most_its_bound_of_keys_the_least_recently_used_going_first() -> None:
    from django.template import Context, Template

    from companion.templatetags.revision_parts import MAX_KEPT, RevisionPartNode

    page = Template("{% load layout revision_parts %}{% revision_part %}{{ n }}"
                    "{% endrevision_part %}")
    part = next(node for node in page.nodelist if isinstance(node, RevisionPartNode))
    assert page.render(Context({"revision_key": 0, "n": 0})) == "0"
    for key in range(1, MAX_KEPT + 1):
        page.render(Context({"revision_key": 0, "n": "kept"}))  # 0 stays the most recent
        assert page.render(Context({"revision_key": key, "n": key})) == str(key)
    assert len(part.kept) == MAX_KEPT
    assert 1 not in part.kept
    assert page.render(Context({"revision_key": 0, "n": "new"})) == "0"
    assert page.render(Context({"revision_key": 1, "n": "new"})) == "new"

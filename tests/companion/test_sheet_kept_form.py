"""A fresh deal form is rendered once per shape and kept (templatetags/kept_form.py): the
next deal's form, after any change, is the form a render without keeping gives, with its
own number, key and CSRF token; forms with something in them are never kept."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from companion.models import Group, Match, Player
from companion.services import matches as services
from companion.templatetags import kept_form

HX = {"HTTP_HX_REQUEST": "true"}
PER_REQUEST = re.compile(
    r'(name="csrfmiddlewaretoken" value="|name="client_key" value="|data-etag="'
    r'|"X-CSRFToken": ")[^"]*'
)
DEALS = {
    "x-nimmt": {"hand": 3, "x_stack": 1},
    "elf-nimmt": {"hand": 4},
    "dreizehn": {"yellow": 2, "green": 1, "blue": 0, "red": 1},
}


def url(name: str, match: Match, **kwargs: Any) -> str:
    return reverse(name, kwargs={"group_id": match.group_id, "match_id": match.pk, **kwargs})


def page(client: Client, address: str, **headers: Any) -> str:
    response = client.get(address, **headers)
    assert response.status_code == 200
    return PER_REQUEST.sub(lambda m: m[1] + "…", response.content.decode())


def deal_form(html: str) -> str:
    return html[html.index('<section class="card mb-2" id="deal-form"'):
                html.index("</section>", html.index('id="deal-form"'))]


def not_kept(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(kept_form, "form_key", lambda context: None)


def record(match: Match, players: list[Player], number: int) -> None:
    entry = DEALS[match.game]
    entries = {p.pk: dict(entry) for p in players}
    if match.game == "elf-nimmt":
        for i, p in enumerate(players):
            entries[p.pk] = {"hand": 0 if i == 0 else 4, "went_out": i == 0}
    services.deal_record(match=match, number=number, entries=entries)


@pytest.mark.django_db
@pytest.mark.parametrize("game", sorted(DEALS))
@pytest.mark.parametrize("headers", [{}, HX], ids=["page", "htmx"])
def test_the_next_deals_form_after_a_save_is_the_form_rendered_without_keeping(
    anna_client: Client, group: Group, players: list[Player], game: str,
    headers: dict[str, str], monkeypatch: pytest.MonkeyPatch,
) -> None:
    match = services.match_start(group=group, game=game, players=players)
    assert '<h2 class="h6 mb-0">Durchgang 1</h2>' in page(anna_client, url("match_sheet", match),
                                                       **headers)
    record(match, players, 1)
    kept = page(anna_client, url("match_sheet", match), **headers)
    assert '<h2 class="h6 mb-0">Durchgang 2</h2>' in kept
    assert '<input type="hidden" name="number" value="2" id="id_number">' in kept
    not_kept(monkeypatch)
    Match.objects.filter(pk=match.pk).update(revision=match.revision + 10)
    assert kept == page(anna_client, url("match_sheet", match), **headers)


@pytest.mark.django_db
@pytest.mark.parametrize("mode", ["counts", "cards", "grid"])
def test_the_form_of_another_entry_mode_and_its_own_htmx_answer_are_their_own(
    anna_client: Client, group: Group, players: list[Player], mode: str,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    match = services.match_start(group=group, game="x-nimmt", players=players)
    addresses = [url("match_sheet", match), url("match_sheet", match) + f"?mode={mode}"]
    kept = [page(anna_client, address) for address in addresses]
    partial = page(anna_client, url("deal_new", match) + f"?mode={mode}", **HX)
    not_kept(monkeypatch)
    Match.objects.filter(pk=match.pk).update(revision=match.revision + 10)
    assert kept == [page(anna_client, address) for address in addresses]
    assert partial == page(anna_client, url("deal_new", match) + f"?mode={mode}", **HX)
    assert f'value="{mode}" id="id_mode"' in deal_form(kept[1])


@pytest.mark.django_db
def test_every_kept_form_carries_its_own_key(
    anna_client: Client, group: Group, players: list[Player]
) -> None:
    match = services.match_start(group=group, game="x-nimmt", players=players)
    keys = []
    for revision in range(2):
        Match.objects.filter(pk=match.pk).update(revision=match.revision + revision)
        for address in (url("match_sheet", match), url("deal_new", match)):
            for headers in ({}, HX, {}, HX):
                response = anna_client.get(address, **headers)
                assert response.status_code == 200
                keys += re.findall(r'name="client_key" value="([0-9a-f]{32})"',
                                   response.content.decode())
    assert len(keys) == len(set(keys)) == 16


@pytest.mark.django_db
def test_a_form_with_typed_values_is_shown_with_them_not_the_kept_fresh_one(
    anna_client: Client, group: Group, players: list[Player]
) -> None:
    match = services.match_start(group=group, game="x-nimmt", players=players)
    page(anna_client, url("match_sheet", match))
    response = anna_client.post(url("deal_new", match),
                                {"number": 1, "s0-hand": "7", "s1-hand": "x", "s2-hand": "1"})
    assert response.status_code == 422
    html = response.content.decode()
    assert 'name="s0-hand" value="7"' in html
    assert 'name="s1-hand" value="x"' in html
    assert 'data-shape="' not in html


@pytest.mark.django_db
def test_a_renamed_player_and_another_language_show_in_the_next_form(
    anna_client: Client, group: Group, players: list[Player]
) -> None:
    from companion.services import groups as group_services

    match = services.match_start(group=group, game="dreizehn", players=players)
    assert ">Ben</legend>" in page(anna_client, url("match_sheet", match))
    group_services.player_rename(player=players[1], name="Benedikt")
    html = page(anna_client, url("match_sheet", match))
    assert ">Benedikt</legend>" in html
    assert ">Ben</legend>" not in html
    english = page(anna_client, url("match_sheet", match), HTTP_ACCEPT_LANGUAGE="en")
    with translation.override("en"):
        assert '<h2 class="h6 mb-0">Deal 1</h2>' in english
        assert ">Save deal</button>" in english



def test_a_forms_shape_leaves_out_what_the_expression_leaves_out_in_any_text() -> None:
    import random

    from companion.templatetags.form_shape import _VARYING, _plain

    pieces = ["<h2", "<h2 class=x>", ">", "</h2>", "<", "x", '"', " ", "</h", 'name="',
              ' hx-swap-oob="true"', 'name="number" value="', 'name="client_key" value="',
              'name="csrfmiddlewaretoken" value="', "Durchgang 2"]
    rng = random.Random(12)
    for _ in range(20_000):
        text = "".join(rng.choice(pieces) for _ in range(rng.randint(0, 14)))
        assert _plain(text) == _VARYING.sub(
            lambda m: (m[1] or "") + (m[2] or "") + (m[3] or ""), text), text


def test_at_most_64_forms_are_kept_the_least_recently_used_going_first() -> None:
    from django.template import Template

    from companion.templatetags.kept_form import KeptFormNode

    node = next(node for node in Template("{% load kept_form %}{% kept_form %}x{% endkept_form %}")
                .nodelist if isinstance(node, KeptFormNode))
    for key in range(65):
        node._keep(key, (("x",), ()))
        assert node._kept(0) is not None  # 0 stays the most recently used
    assert len(node.kept) == 64
    assert 1 not in node.kept

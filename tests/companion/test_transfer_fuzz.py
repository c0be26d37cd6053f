"""The import, fed a real export with one thing changed: imported whole, or refused whole.

Hypothesis takes the export of a group that played all five games (finished,
running and live matches, corrections in the log) and changes one place of it:
a value replaced by a number out of range, a fraction, NaN, text with a NUL
or a lone surrogate, 10 kB of text, another type or deep nesting; a key
removed; a list item dropped, doubled or moved. The file then goes through the
import page. Either the group is imported and every page of it renders, or
the page says why the file was refused and no table has a row more. Never a
server error.
"""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import transaction
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from companion.models import Group, MatchChange
from companion.services import live as live_services
from companion.services import matches as match_services
from companion.services.transfer.export import group_export, group_export_json
from companion.services.transfer.importer import group_import
from tests.companion.test_fuzz_inputs import fill, routes, table_counts
from tests.companion.test_history_helpers import night, play

pytestmark = pytest.mark.django_db

Path = tuple[str | int, ...]


@pytest.fixture
def exported(group: Group, anna: User) -> dict[str, Any]:
    """The export of a group with every game, a live match and an undone correction."""
    first = night(group, "2026-01-10", "Bei Anna")
    play(group, "freaky", [{"Anna": {"collected": 30}, "Ben": {"collected": 20},
                            "Cem": {"collected": 10}}], on=first)
    x = play(group, "x-nimmt", [
        {"Anna": {"hand": 5, "x_stack": 9}, "Ben": {"hand": 0, "x_stack": 1}},
        {"Anna": {"hand_cards": [55, 3], "x_stack_cards": [10]}, "Ben": {"hand": 0, "x_stack": 1}},
    ], on=first, finished=False)
    players = {p.name: p for p in group.players.all()}
    MatchChange.objects.create(
        match=x, kind=MatchChange.Kind.EDIT, deal_number=2,
        before={str(players["Anna"].pk): {"hand": 2, "x_stack": 0, "hand_cards": None,
                                          "x_stack_cards": None}},
    )
    MatchChange.objects.create(
        match=x, kind=MatchChange.Kind.RECORD, deal_number=3, client_key="phone-1234-abcd",
        after={str(players["Ben"].pk): {"hand": 1, "x_stack": 0, "hand_cards": None,
                                        "x_stack_cards": None}},
        undone_at=timezone.now(),
    )
    second = night(group, "2026-02-01", "=SUMME(A1)")
    three = [players["Anna"], players["Ben"], players["Cem"]]
    for game in ("drei-sind-einer-zuviel", "elf-nimmt", "dreizehn", "freaky"):
        match_services.match_start(group=group, game=game, players=three, game_night=second)
    live = group.matches.filter(game="freaky", status="open").get()
    live_services.live_step(
        match=live, revision=0, action="collect", data={"player": players["Ben"].pk, "cards": 5},
    )
    drei = group.matches.get(game="drei-sind-einer-zuviel")
    live_services.live_step(
        match=drei, revision=0, action="take", data={"player": players["Anna"].pk, "colour": "rot"},
    )
    document = group_export(group)
    # The export is a real one: it imports as it is.
    assert group_import(user=anna, content=json.dumps(document)).name == group.name
    return document


def places(value: Any, path: Path = ()) -> list[Path]:
    """Every place (object key or list index) of a document, the root excluded."""
    found: list[Path] = [path] if path else []
    if isinstance(value, dict):
        for key, item in value.items():
            found += places(item, (*path, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            found += places(item, (*path, index))
    return found


def texts(document: dict[str, Any]) -> list[Path]:
    """The places of a document that hold text."""
    found = []
    for path in places(document):
        value: Any = document
        for part in path:
            value = value[part]
        if isinstance(value, str):
            found.append(path)
    return found


TEXTS = st.one_of(
    st.text(max_size=50),
    st.sampled_from(["", " ", "Ｄｏｒａ", "Do\u200bra", "\u202eDora", "<b>Dora</b>", "x" * 101,
                     "x" * 10_240, "=SUMME(A1)", "Anna", "ANNA", "Ben ", "a\x00b"]),
)


def nested(depth: int) -> Any:
    value: Any = 1
    for _ in range(depth):
        value = [value]
    return value


REPLACEMENTS = st.one_of(
    st.sampled_from([
        None, True, False, 0, -1, 1, 2, 7, 32767, 32768, 2**31, 2**63, -(2**63) - 1, 10**40,
        1.5, float("nan"), float("inf"), -0.0, "", " ", "x" * 10_240, "a\x00b", "\ud800",
        "\u202eANNA", "Ａｎｎａ", "ANNA", "anna", "p1", "p2", "p99", "0001-01-01",
        "9999-12-31T23:59:59-12:00", "0001-01-01T00:00:00+14:00", "2026-02-30", "2026-01-10",
        "2026-01-10T12:00:00", "2026-01-10T12:00:00+00:00", "finished", "open", "abandoned",
        "record", "edit", "delete", "finish", "x-nimmt", "freaky", "hand", [], {}, [1, 2],
        {"hand": 1}, nested(40), "<script>", "𝟙𝟚",
    ]),
    st.integers(min_value=-(2**70), max_value=2**70),
    st.text(max_size=30),
)


def mutate(document: dict[str, Any], path: Path, how: str, value: Any) -> dict[str, Any]:
    changed = copy.deepcopy(document)
    parent: Any = changed
    for part in path[:-1]:
        parent = parent[part]
    last = path[-1]
    if how == "replace":
        parent[last] = value
    elif how == "remove":
        del parent[last]
    elif how == "double" and isinstance(parent, list):
        parent.insert(int(last), copy.deepcopy(parent[int(last)]))
    elif how == "move" and isinstance(parent, list):
        parent.append(parent.pop(int(last)))
    else:
        parent[last] = value
    return changed


def pages_of(group: Group) -> list[str]:
    """Every page of ``group`` that a GET can reach, with the group's own ids."""
    ids = {
        "group_id": [str(group.pk)],
        "match_id": [str(pk) for pk in group.matches.values_list("pk", flat=True)],
        "night_id": [str(pk) for pk in group.game_nights.values_list("pk", flat=True)],
        "player_id": [str(pk) for pk in group.players.values_list("pk", flat=True)],
        "number": ["1"],
        "game": ["x-nimmt", "freaky", "elf-nimmt", "dreizehn", "drei-sind-einer-zuviel"],
    }
    urls: list[str] = []
    for route in routes():
        names = [name for name, _kind in route.params]
        if "group_id" not in names or not set(names) <= set(ids):
            continue
        base = {name: (ids[name] or ["1"])[0] for name in names}
        urls.append(fill(route, base))
        for name in names:
            for value in ids[name][1:]:
                urls.append(fill(route, {**base, name: value}))
    return urls


def test_pages_of_walks_the_imported_groups_pages(group: Group) -> None:
    urls = pages_of(group)
    assert reverse("history", args=[group.pk]) in urls
    assert reverse("roster", args=[group.pk]) in urls


@pytest.mark.slow  # 100 imports of changed exports: make test, not make test-fast
@settings(max_examples=100, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(data=st.data())
def test_a_changed_export_is_imported_whole_or_refused_whole(
    exported: dict[str, Any], anna: User, data: st.DataObject
) -> None:
    how = data.draw(st.sampled_from(["text", "text", "replace", "replace", "remove", "double",
                                     "move"]), label="how")
    if how == "text":
        # Text places (names, places, notes, dates, keys) with other text: often still a
        # valid file, so the pages of an imported group get rendered too.
        path = data.draw(st.sampled_from(texts(exported)), label="place")
        value = data.draw(TEXTS, label="value")
        how = "replace"
    else:
        path = data.draw(st.sampled_from(places(exported)), label="place")
        value = data.draw(REPLACEMENTS, label="value") if how == "replace" else None
    document = mutate(exported, path, how, value)
    try:
        text = json.dumps(document, ensure_ascii=False)
    except ValueError:
        text = json.dumps(document)
    content = text.encode("utf-8", "surrogatepass")
    client = Client(raise_request_exception=False)
    client.force_login(anna)
    with transaction.atomic():
        before = table_counts()
        response = client.post(
            reverse("group_import"),
            {"file": SimpleUploadedFile("export.json", content, "application/json")},
            HTTP_ACCEPT_LANGUAGE="en",
        )
        assert response.status_code < 500, (path, how, value)
        event("imported" if response.status_code == 302 else "refused")
        if response.status_code == 302:
            group = Group.objects.order_by("-id").first()
            assert group is not None
            for url in pages_of(group):
                page = client.get(url)
                assert page.status_code < 500, (url, path, how, value)
            # What was imported exports again (the round trip holds for any accepted file).
            group_export_json(group)
        else:
            assert response.status_code == 200
            html = response.content.decode()
            assert 'class="invalid-feedback' in html or "is-invalid" in html, (path, how, value)
            assert table_counts() == before, (path, how, value)
        transaction.set_rollback(True)

"""Every write form carries its own key (issue 21): the same send arriving twice (a
double tap, a retry after a lost answer, the offline queue) is answered "saved already"
with the current state and changes nothing more, instead of being refused as stale or
stored twice. The key sent again with other values is refused and saves nothing."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.contrib.messages import get_messages
from django.test import Client
from django.urls import reverse

from companion.models import ChangeReceipt, Deal, Group, Match, MatchChange, Player
from companion.services import deals as deal_services
from companion.services import matches as match_services

pytestmark = pytest.mark.django_db

HX = {"HTTP_HX_REQUEST": "true", "HTTP_ACCEPT_LANGUAGE": "en"}
EN = {"HTTP_ACCEPT_LANGUAGE": "en"}


def url(name: str, match: Match, **kwargs: Any) -> str:
    return reverse(name, kwargs={"group_id": match.group_id, "match_id": match.pk, **kwargs})


def x_nimmt(group: Group, players: list[Player], deals: int = 0) -> Match:
    match = match_services.match_start(group=group, game="x-nimmt", players=players)
    for number in range(1, deals + 1):
        deal_services.deal_record(match=match, number=number, entries={
            players[0].pk: {"hand": number}, players[1].pk: {"hand": 1},
            players[2].pk: {"hand": 0}})
    return match


def twice(client: Client, address: str, data: dict[str, Any], **headers: Any) -> tuple[Any, Any]:
    """The same send twice, with one key (the second as if the first answer got lost)."""
    data = {**data, "client_key": "k" * 8 + "-twice-0001"}
    return client.post(address, data, **headers), client.post(address, data, **headers)


def message(response: Any) -> str:
    """The notice of an htmx answer, or the message a redirect carries (a cookie)."""
    if response.status_code == 302:
        return " ".join(str(m) for m in get_messages(response.wsgi_request))
    found = re.search(r'id="notice"[^>]*>(.*?)</div>', response.content.decode(), re.S)
    return re.sub(r"<[^>]+>|\s+", " ", found.group(1)).strip() if found else ""


def test_every_write_form_of_the_sheet_carries_a_key_of_its_own(
    anna_client: Client, group: Group, players: list[Player]
) -> None:
    match = x_nimmt(group, players, deals=1)
    html = anna_client.get(url("match_sheet", match)).content.decode()
    forms = [form for form in re.findall(r"<form\b[^>]*method=\"post\".*?</form>", html, re.S)
             if f"/matches/{match.pk}/" in form.partition(">")[0]]
    assert len(forms) >= 4  # the deal form, undo, abandon, delete …
    keys = [re.search(r'name="client_key" value="([0-9a-f]{32})"', form) for form in forms]
    assert all(keys), "every write form has its key"
    assert len({key.group(1) for key in keys if key}) == len(forms)


def test_a_correction_sent_twice_is_saved_once_and_answered_as_saved(
    anna_client: Client, group: Group, players: list[Player]
) -> None:
    match = x_nimmt(group, players, deals=1)
    data = {"number": 1, "version": 1, "s0-hand": 9, "s1-hand": 1, "s2-hand": 0}
    first, second = twice(anna_client, url("deal_edit", match, number=1), data, **HX)
    assert (first.status_code, second.status_code) == (200, 200)
    assert message(second) == "Deal 1 was corrected already."
    assert Deal.objects.get(match=match, number=1).version == 2
    assert match.changes.filter(kind=MatchChange.Kind.EDIT).count() == 1


def test_a_correction_sent_twice_without_javascript_redirects_both_times(
    anna_client: Client, group: Group, players: list[Player]
) -> None:
    match = x_nimmt(group, players, deals=1)
    data = {"number": 1, "version": 1, "s0-hand": 9, "s1-hand": 1, "s2-hand": 0}
    first, second = twice(anna_client, url("deal_edit", match, number=1), data, **EN)
    assert (first.status_code, second.status_code) == (302, 302)
    assert message(second).endswith("Deal 1 was corrected already.")


def test_a_deletion_sent_twice_deletes_one_deal(
    anna_client: Client, group: Group, players: list[Player]
) -> None:
    match = x_nimmt(group, players, deals=2)
    first, second = twice(anna_client, url("deal_delete", match, number=1),
                          {"version": 1, "confirm": "yes"}, **HX)
    assert (first.status_code, second.status_code) == (200, 200)
    assert message(second) == "Deal 1 was deleted already."
    assert match.deals.count() == 1


@pytest.mark.parametrize(("name", "kind"), [("match_undo", "undo"), ("match_redo", "redo")])
def test_an_undo_or_redo_sent_twice_takes_one_step(
    anna_client: Client, group: Group, players: list[Player], name: str, kind: str
) -> None:
    match = x_nimmt(group, players, deals=2)
    newest = match.changes.order_by("-id").first()
    assert newest is not None
    if kind == "redo":
        deal_services.match_undo(match=match)
    first, second = twice(anna_client, url(name, match), {"change": newest.pk}, **HX)
    assert (first.status_code, second.status_code) == (200, 200)
    assert message(second) == ("Undone already." if kind == "undo" else "Redone already.")
    assert match.deals.count() == (1 if kind == "undo" else 2)


@pytest.mark.parametrize(("name", "setup", "status", "said"), [
    ("match_finish", "complete", Match.Status.FINISHED, "The match was finished already."),
    ("match_reopen", "finished", Match.Status.OPEN, "The match was reopened already."),
    ("match_abandon", "running", Match.Status.ABANDONED, "The match was abandoned already."),
])
def test_a_step_of_the_match_sent_twice_is_answered_as_saved(
    anna_client: Client, group: Group, players: list[Player], name: str, setup: str,
    status: str, said: str,
) -> None:
    match = x_nimmt(group, players, deals=0 if setup == "running" else 2)
    if setup == "finished":
        match_services.match_finish(match=match)
    first, second = twice(anna_client, url(name, match), {}, **HX)
    assert (first.status_code, second.status_code) == (200, 200)
    assert message(second) == said
    match.refresh_from_db()
    assert match.status == status
    assert match.changes.exclude(kind__in=MatchChange.DEAL_KINDS).count() == (
        2 if setup == "finished" else 1)


def test_a_match_deleted_twice_answers_the_second_time_that_it_is_gone(
    anna_client: Client, group: Group, players: list[Player]
) -> None:
    match = x_nimmt(group, players, deals=1)
    first, second = twice(anna_client, url("match_delete", match), {"confirm": "yes"}, **EN)
    assert (first.status_code, second.status_code) == (302, 302)
    assert second["Location"] == reverse("group_home", args=[group.pk])
    assert message(second).endswith("The match was deleted already.")


def test_a_match_started_twice_is_one_match(
    anna_client: Client, group: Group, players: list[Player]
) -> None:
    start = reverse("match_new", args=[group.pk])
    first, second = twice(anna_client, start, {
        "game": "x-nimmt", "seat_0": players[0].pk, "seat_1": players[1].pk,
        "seat_2": players[2].pk})
    match = Match.objects.get()
    assert first["Location"] == second["Location"] == url("match_sheet", match)


def test_a_rematch_sent_twice_starts_one_match(
    anna_client: Client, group: Group, players: list[Player]
) -> None:
    match = x_nimmt(group, players, deals=2)
    match_services.match_finish(match=match)
    first, second = twice(anna_client, url("match_rematch", match), {})
    rematch = Match.objects.exclude(pk=match.pk).get()
    assert first["Location"] == second["Location"] == url("match_sheet", rematch)


def test_a_live_tap_sent_twice_is_one_card_on_the_board(
    anna_client: Client, group: Group, players: list[Player]
) -> None:
    match = match_services.match_start(group=group, game="drei-sind-einer-zuviel",
                                       players=players)
    first, second = twice(anna_client, url("match_live", match), {
        "revision": 0, "player": players[0].pk, "colour": "rot", "action": "take"}, **HX)
    assert (first.status_code, second.status_code) == (200, 200)
    match.refresh_from_db()
    assert match.options["live_turns"] == [[players[0].pk, ["rot"], False]]
    assert 'id="board"' in second.content.decode()


def test_the_live_result_put_on_the_sheet_twice_is_one_deal(
    anna_client: Client, group: Group, players: list[Player]
) -> None:
    match = match_services.match_start(group=group, game="freaky", players=players)
    anna_client.post(url("match_live", match), {"revision": 0, "action": "collect",
                                                "player": players[0].pk, "cards": 5})
    first, second = twice(anna_client, url("match_live", match),
                          {"revision": 1, "action": "save"}, **HX)
    assert (first.status_code, second.status_code) == (200, 200)
    assert message(second) == "The live result is on the sheet already."
    assert match.deals.count() == 1


def test_a_key_sent_again_with_other_values_is_refused_and_saves_nothing(
    anna_client: Client, group: Group, players: list[Player]
) -> None:
    match = x_nimmt(group, players, deals=1)
    key = {"client_key": "reused-key-0001"}
    anna_client.post(url("deal_edit", match, number=1),
                     {**key, "number": 1, "version": 1, "s0-hand": 9, "s1-hand": 1,
                      "s2-hand": 0}, **HX)
    response = anna_client.post(url("deal_edit", match, number=1),
                                {**key, "number": 1, "version": 2, "s0-hand": 7, "s1-hand": 1,
                                 "s2-hand": 0}, **HX)
    assert response.status_code == 422
    assert "sent with the key of another change and was not saved" in response.content.decode()
    assert Deal.objects.get(match=match, number=1).version == 2


def test_a_damaged_key_is_refused_and_saves_nothing(
    anna_client: Client, group: Group, players: list[Player]
) -> None:
    match = x_nimmt(group, players, deals=2)
    response = anna_client.post(url("match_finish", match), {"client_key": "x"}, **HX)
    assert response.status_code == 409
    assert "key is damaged, so nothing was saved." in response.content.decode()
    match.refresh_from_db()
    assert match.status == Match.Status.OPEN


def test_another_users_key_is_not_theirs(
    anna_client: Client, group: Group, players: list[Player], outsider_client: Client
) -> None:
    """Receipts belong to the user who sent them: Ben sending Anna's key does his own
    change (nothing of Anna's is answered to him)."""
    from django.contrib.auth.models import User

    match = x_nimmt(group, players, deals=2)
    ben = User.objects.create_user("ben", password="kartenrunde-ben-1")
    group.memberships.create(user=ben)
    ben_client = Client()
    ben_client.force_login(ben)
    key = {"client_key": "shared-key-0001"}
    anna_client.post(url("match_abandon", match), key, **HX)
    match_services.match_reopen(match=match)
    response = ben_client.post(url("match_abandon", match), key, **HX)
    assert message(response) == (
        "Match abandoned. It stays in the history and counts in no statistics.")
    assert ChangeReceipt.objects.filter(key="shared-key-0001").count() == 2


# ------------------------------------------------------------ forms that create something


def test_a_new_group_sent_twice_is_one_group(anna_client: Client, anna: Any) -> None:
    first, second = twice(anna_client, reverse("group_create"),
                          {"name": "Freitagsrunde", "players": "Ben\nCem"})
    group = Group.objects.get(name="Freitagsrunde")
    assert first["Location"] == second["Location"] == reverse("group_home", args=[group.pk])


def test_a_player_added_twice_is_one_player_and_no_refusal(
    anna_client: Client, group: Group, players: list[Player]
) -> None:
    first, second = twice(anna_client, reverse("roster", args=[group.pk]), {"name": "Dora"},
                          **HX)
    assert (first.status_code, second.status_code) == (200, 200)
    assert "already" not in second.content.decode()
    assert group.players.filter(name="Dora").count() == 1


def test_an_invite_link_made_twice_is_one_link(
    anna_client: Client, group: Group, players: list[Player]
) -> None:
    twice(anna_client, reverse("invite_create", args=[group.pk]), {}, **HX)
    assert group.invites.count() == 1


def test_a_game_night_sent_twice_is_one_night(
    anna_client: Client, group: Group, players: list[Player]
) -> None:
    twice(anna_client, reverse("night_new", args=[group.pk]),
          {"date": "2026-03-01", "place": "Bei Ben", "notes": ""})
    assert group.game_nights.count() == 1


def test_an_import_sent_twice_is_one_group(
    anna_client: Client, group: Group, players: list[Player]
) -> None:
    from django.core.files.uploadedfile import SimpleUploadedFile

    from companion.services.transfer.export import group_export_json

    content = group_export_json(group).encode()
    answers = [anna_client.post(reverse("group_import"), {
        "client_key": "import-key-0001",
        "file": SimpleUploadedFile("runde.json", content, content_type="application/json"),
    }) for _ in range(2)]
    imported = Group.objects.exclude(pk=group.pk).get()
    assert [a["Location"] for a in answers] == [reverse("history", args=[imported.pk])] * 2

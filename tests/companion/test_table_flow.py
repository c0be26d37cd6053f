"""The table flow: undo keeps the log and can be redone, abandon and delete (with who
may delete), the rematch, Weiterspielen, the start form by names, and the defects of
issue 10 (edit in every state, mode switches keep input, all-zero deals ask first,
live replacements ask first, success notices, ties sorted ignoring case)."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.test import Client
from django.urls import reverse

from companion.models import Deal, Group, Match, Membership, Player
from companion.selectors import sheet as sheet_reads
from companion.selectors.groups import RUNNING_SHOWN
from companion.selectors.history import game_stats
from companion.selectors.sheet import rematch_plan, sheet_for
from companion.services import deals as deal_services
from companion.services import live as live_services
from companion.services import matches as match_services
from companion.services import sheet as sheet_services

HX = {"HTTP_HX_REQUEST": "true"}
pytestmark = pytest.mark.django_db


def start(group: Group, players: list[Player], game: str, **kwargs: Any) -> Match:
    return match_services.match_start(group=group, game=game, players=players, **kwargs)


def url(name: str, match: Match, **kwargs: Any) -> str:
    return reverse(name, kwargs={"group_id": match.group_id, "match_id": match.pk, **kwargs})


def record(match: Match, players: list[Player], *datas: dict[str, Any]) -> Deal:
    return deal_services.deal_record(
        match=match, number=match.deals.count() + 1,
        entries={p.pk: d for p, d in zip(players, datas, strict=True)},
    )


def totals(match: Match) -> list[int]:
    return [seat.total for seat in match.seats.order_by("number")]


@pytest.fixture
def ben_user(group: Group) -> User:
    user = User.objects.create_user("ben", password="kartenrunde-ben-1")
    Membership.objects.create(group=group, user=user)
    return user


# ------------------------------------------------------------------ undo and redo


def test_undo_marks_the_change_and_redo_applies_it_again(
    group: Group, players: list[Player], anna: User
) -> None:
    match = start(group, players, "x-nimmt")
    record(match, players, {"hand": 5}, {"hand": 2}, {})
    change = sheet_reads.undo_target(match)
    assert change is not None
    deal_services.match_undo(match=match, change_id=change.pk, user=anna)
    change.refresh_from_db()
    assert change.undone_at is not None and change.undone_by == anna
    assert not match.deals.exists()
    assert sheet_reads.redo_target(match) == change
    deal_services.match_redo(match=match, change_id=change.pk, user=anna)
    assert totals(match) == [5, 2, 0]
    assert match.changes.get(kind="record").undone_at is None


def test_the_log_never_loses_a_change_and_replays_to_the_sheet(
    group: Group, players: list[Player]
) -> None:
    match = start(group, players, "dreizehn")
    record(match, players, {"red": 1}, {}, {})
    record(match, players, {}, {"red": 1}, {})
    deal_services.deal_edit(match=match, number=1, version=1, entries={
        players[0].pk: {"red": 2}, players[1].pk: {}, players[2].pk: {}})
    deal_services.deal_delete(match=match, number=2, version=1)
    deal_services.match_undo(match=match)  # the delete
    deal_services.match_undo(match=match)  # the edit
    deal_services.match_redo(match=match)  # the edit again
    kinds = list(match.changes.order_by("id").values_list("kind", "deal_number", "undone_at"))
    assert [(kind, number, undone is not None) for kind, number, undone in kinds] == [
        ("record", 1, False), ("record", 2, False), ("edit", 1, False), ("delete", 2, True),
        ("undo", 2, False), ("undo", 1, False), ("redo", 1, False),
    ]
    # Replaying the deal changes that are not undone gives the sheet.
    deals: dict[int, Any] = {}
    for change in match.changes.filter(
        undone_at__isnull=True, kind__in=("record", "edit", "delete")
    ).order_by("id"):
        deals[change.deal_number] = change.after
    assert {deal.number: {str(s.player_id): s.data for s in deal.scores.all()}
            for deal in match.deals.all()} == deals


def test_a_new_change_after_an_undo_ends_the_redo_but_keeps_the_undone_change(
    group: Group, players: list[Player]
) -> None:
    match = start(group, players, "x-nimmt")
    record(match, players, {"hand": 5}, {}, {})
    deal_services.match_undo(match=match)
    record(match, players, {"hand": 1}, {}, {})
    assert sheet_reads.redo_target(match) is None
    assert list(match.changes.order_by("id").values_list("kind", flat=True)) == [
        "record", "undo", "record"]
    with pytest.raises(ValidationError):
        deal_services.match_redo(match=match)


def test_a_stale_redo_is_refused_and_changes_nothing(
    anna_client: Client, group: Group, players: list[Player]
) -> None:
    match = start(group, players, "x-nimmt")
    record(match, players, {"hand": 5}, {}, {})
    record(match, players, {"hand": 1}, {}, {})
    deal_services.match_undo(match=match)
    seen = sheet_reads.redo_target(match)
    assert seen is not None
    deal_services.match_undo(match=match)  # another phone undid one more meanwhile
    response = anna_client.post(url("match_redo", match), {"change": seen.pk},
                                HTTP_ACCEPT_LANGUAGE="en", **HX)
    assert response.status_code == 409
    assert "nothing was redone" in response.content.decode()
    assert not match.deals.exists()


def test_the_sheet_offers_redo_after_an_undo(
    anna_client: Client, group: Group, players: list[Player]
) -> None:
    match = start(group, players, "x-nimmt")
    record(match, players, {"hand": 5}, {}, {})
    change = match.changes.get()
    response = anna_client.post(url("match_undo", match), {"change": change.pk},
                                HTTP_ACCEPT_LANGUAGE="en", **HX)
    html = response.content.decode()
    assert "Undone: recorded deal 1." in html
    assert 'class="alert alert-success' in html
    assert f'<input type="hidden" name="change" value="{change.pk}">' in html
    assert "Redo (recorded deal 1)" in html
    assert "window.confirm" not in html and "hx-confirm" not in html


@pytest.mark.parametrize("raw", ["", "abc", "-1", "99999999999999999999"])
def test_undo_and_redo_with_bad_ids_never_fail(
    anna_client: Client, group: Group, players: list[Player], raw: str
) -> None:
    match = start(group, players, "x-nimmt")
    for name in ("match_undo", "match_redo"):
        response = anna_client.post(url(name, match), {"change": raw}, **HX)
        assert response.status_code == 409


def test_unknown_matches_and_deals_are_404_not_500(
    anna_client: Client, group: Group, players: list[Player]
) -> None:
    match = start(group, players, "x-nimmt")
    for name in ("match_redo", "match_abandon", "match_delete", "match_rematch"):
        response = anna_client.post(reverse(name, args=[group.pk, 999999]))
        assert response.status_code == 404
    assert anna_client.get(reverse("match_changes", args=[group.pk, 999999])).status_code == 404
    assert anna_client.get(url("deal_edit", match, number=7)).status_code == 404


# ----------------------------------------------------------------- the match's log


def test_the_log_page_says_who_changed_what_and_marks_undone_changes(
    anna_client: Client, group: Group, players: list[Player], anna: User
) -> None:
    match = start(group, players, "x-nimmt", user=anna)
    deal_services.deal_record(match=match, number=1, user=anna, entries={
        players[0].pk: {"hand": 3}, players[1].pk: {}, players[2].pk: {}})
    deal_services.match_undo(match=match, user=anna)
    html = anna_client.get(url("match_changes", match), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Deal 1 recorded" in html
    assert "by Anna" in html  # her name on the roster, not her user name "anna"
    assert "by anna" not in html
    assert "undone" in html
    html = anna_client.get(url("match_changes", match), HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert "rückgängig gemacht" in html


def _log_text(client: Client, match: Match) -> list[str]:
    html = client.get(url("match_changes", match), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    items = re.findall(r'<li class="list-group-item[^"]*" id="change-\d+"[^>]*>(.*?)</li>',
                       html, re.S)
    return [" ".join(re.sub(r"<[^>]+>", " ", item).split()) for item in items]


def test_undo_and_redo_are_entries_of_their_own_and_nothing_is_erased(
    anna_client: Client, group: Group, players: list[Player], anna: User, ben_user: User
) -> None:
    match = start(group, players, "x-nimmt", user=anna)
    deal_services.deal_record(match=match, number=1, user=anna, entries={
        players[0].pk: {"hand": 3}, players[1].pk: {}, players[2].pk: {}})
    deal_services.match_undo(match=match, user=anna)
    deal_services.match_redo(match=match, user=ben_user)
    undo = match.changes.get(kind="undo")
    redo = match.changes.get(kind="redo")
    # Who undid it and when stays after the redo: the undo is an entry of its own.
    assert (undo.created_by, undo.deal_number) == (anna, 1)
    assert (redo.created_by, redo.deal_number) == (ben_user, 1)
    assert undo.created_at <= redo.created_at
    log = _log_text(anna_client, match)
    assert log[0].startswith("↷ Deal 1 redone") and "by ben" in log[0]
    assert log[1].startswith("↶ Deal 1 undone") and "by Anna" in log[1]
    assert log[2].startswith("Deal 1 recorded") and "by Anna" in log[2]
    # The undo took Anna's 3 away, the redo put them back.
    assert "Anna Hornochsen in hand 3 → — 3 → —" in log[1]
    assert "Anna — → Hornochsen in hand 3 — → 3" in log[0]


def test_the_log_shows_each_players_entry_and_score_before_and_after_a_correction(
    anna_client: Client, group: Group, players: list[Player], anna: User
) -> None:
    match = start(group, players, "x-nimmt", user=anna)
    record(match, players, {"hand": 3, "x_stack": 2}, {"hand": 4}, {})
    deal_services.deal_edit(match=match, number=1, version=1, user=anna, entries={
        players[0].pk: {"hand": 3, "x_stack": 5}, players[1].pk: {"hand": 4},
        players[2].pk: {}})
    log = _log_text(anna_client, match)
    assert log[0].startswith("Deal 1 edited")
    # Only Anna's X-stack changed: 3 + 2 × 2 = 7 became 3 + 2 × 5 = 13.
    assert "Anna Hornochsen in the X-stack 2 → 5 7 → 13" in log[0]
    assert "Ben" not in log[0]


def test_finish_reopen_and_abandon_are_logged(group: Group, players: list[Player]) -> None:
    match = start(group, players, "freaky")
    record(match, players, {"collected": 5}, {}, {})
    match_services.match_finish(match=match)
    match_services.match_reopen(match=match)
    match_services.match_abandon(match=match)
    assert list(match.changes.order_by("id").values_list("kind", flat=True)) == [
        "record", "finish", "reopen", "abandon",
    ]


# ----------------------------------------------------------- abandon and delete


def test_an_abandoned_match_stays_in_the_history_and_counts_in_no_statistics(
    anna_client: Client, group: Group, players: list[Player]
) -> None:
    match = start(group, players, "freaky")
    record(match, players, {"collected": 5}, {}, {})
    response = anna_client.post(url("match_abandon", match), HTTP_ACCEPT_LANGUAGE="en", **HX)
    assert "Match abandoned." in response.content.decode()
    match.refresh_from_db()
    assert match.status == Match.Status.ABANDONED
    assert game_stats(group, "freaky").matches == 0
    history = anna_client.get(reverse("history", args=[group.pk]), HTTP_ACCEPT_LANGUAGE="de")
    assert "abgebrochen" in history.content.decode()
    response = anna_client.post(url("deal_new", match), {"number": "2", "s0-collected": "5"},
                                HTTP_ACCEPT_LANGUAGE="en", **HX)
    assert response.status_code == 422
    assert "This match was abandoned. Resume it to change it." in response.content.decode()
    assert Deal.objects.count() == 1


def test_only_the_owner_or_the_starter_may_delete_a_match(
    client: Client, group: Group, players: list[Player], anna: User, ben_user: User
) -> None:
    match = start(group, players, "x-nimmt", user=anna)
    client.force_login(ben_user)
    page = client.get(url("match_sheet", match)).content.decode()
    assert url("match_delete", match) not in page
    response = client.post(url("match_delete", match), {"confirm": "yes"},
                           HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 403
    assert "Only the group&#x27;s owner and the one who started the match" in (
        response.content.decode())
    assert Match.objects.filter(pk=match.pk).exists()
    own = start(group, players, "x-nimmt", user=ben_user)
    assert url("match_delete", own) in client.get(url("match_sheet", own)).content.decode()
    response = client.post(url("match_delete", own), {"confirm": "yes"})
    assert response.status_code == 302
    assert not Match.objects.filter(pk=own.pk).exists()


def test_deleting_asks_first_and_the_owner_may_delete(
    anna_client: Client, group: Group, players: list[Player]
) -> None:
    match = start(group, players, "x-nimmt")
    record(match, players, {"hand": 5}, {}, {})
    response = anna_client.post(url("match_delete", match), HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 409
    assert "Delete the match for good?" in response.content.decode()
    response = anna_client.post(url("match_delete", match), {"confirm": "yes"}, **HX)
    assert response["HX-Redirect"] == reverse("group_home", args=[group.pk])
    assert not Match.objects.exists() and not Deal.objects.exists()


def test_deleting_a_deal_asks_first(
    anna_client: Client, group: Group, players: list[Player]
) -> None:
    match = start(group, players, "x-nimmt")
    record(match, players, {"hand": 5}, {}, {})
    response = anna_client.post(url("deal_delete", match, number=1), {"version": 1},
                                HTTP_ACCEPT_LANGUAGE="en", **HX)
    assert response.status_code == 409
    assert "Delete deal 1? Tap “Delete for good” to confirm." in response.content.decode()
    assert Deal.objects.count() == 1


# -------------------------------------------------------------------- the rematch


def test_the_rematch_rotates_the_seats_and_moves_the_first_player_one_seat(
    anna_client: Client, group: Group, players: list[Player]
) -> None:
    match = start(group, players, "freaky", first_dealer=0)
    record(match, players, {"collected": 5}, {}, {})
    match_services.match_finish(match=match)
    page = anna_client.get(url("match_sheet", match), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Seats: Ben, Cem, Anna." in page
    assert "Ben starts" in page
    response = anna_client.post(url("match_rematch", match))
    new = Match.objects.exclude(pk=match.pk).get()
    assert response.status_code == 302
    assert response["Location"] == url("match_sheet", new)
    assert list(new.seats.values_list("player__name", flat=True)) == ["Ben", "Cem", "Anna"]
    assert new.first_dealer == 0  # Ben, one seat on from Anna
    assert new.game == "freaky" and new.status == Match.Status.OPEN


def test_the_rematch_of_13_goes_on_dealing_clockwise(
    group: Group, players: list[Player]
) -> None:
    match = start(group, players, "dreizehn", first_dealer=1, options={"variant": "fixed"})
    for _ in range(6):
        record(match, players, {"red": 1}, {}, {})
    match_services.match_finish(match=match)
    plan = rematch_plan(match)
    # 6 deals from Ben: the last dealer is Anna (seat 0), so Ben deals next.
    assert (plan.names, plan.opener.player.name, plan.rule) == (
        ["Ben", "Cem", "Anna"], "Ben", "continue-dealing")
    new = match_services.match_rematch(match=match)
    assert new.options == {"variant": "fixed"}
    assert new.first_dealer == 0


def test_the_rematch_of_11_nimmt_starts_with_the_most_minus_points_of_the_last_deal(
    group: Group, players: list[Player]
) -> None:
    match = start(group, players, "elf-nimmt")
    for hand in ({"hand": 3}, {"hand": 9}, {"hand": 4}):
        record(match, players, hand | {"went_out": False}, {"went_out": True}, {"hand": 12})
    match_services.match_finish(match=match)
    plan = rematch_plan(match)
    assert (plan.opener.player.name, plan.rule) == ("Cem", "most-minus-starts")


def test_a_running_match_has_no_rematch(
    anna_client: Client, group: Group, players: list[Player]
) -> None:
    match = start(group, players, "x-nimmt")
    response = anna_client.post(url("match_rematch", match), HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 409
    assert Match.objects.count() == 1


# ------------------------------------------------------------------- Weiterspielen


def test_home_and_group_home_offer_to_continue_a_running_match(
    anna_client: Client, group: Group, players: list[Player]
) -> None:
    match = start(group, players, "x-nimmt")
    record(match, players, {"hand": 5}, {"hand": 2}, {"x_stack": 1})
    for page in ("/", reverse("group_home", args=[group.pk])):
        html = anna_client.get(page, HTTP_ACCEPT_LANGUAGE="de").content.decode()
        assert f'href="{url("match_sheet", match)}"' in html
        assert "Weiterspielen" in html
        assert "Durchgang 2 von 2" in html
        assert "Vorne: Ben, Cem (2)" in html
        assert "Anna, Ben, Cem" in html


@pytest.mark.parametrize("page", ["home", "group_home"])
def test_the_running_matches_cost_the_same_queries_for_1_and_10_matches(
    anna_client: Client, group: Group, players: list[Player], page: str
) -> None:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    target = "/" if page == "home" else reverse("group_home", args=[group.pk])
    counts = []
    for total in (1, 10):
        while Match.objects.count() < total:
            record(start(group, players, "x-nimmt"), players, {"hand": 1}, {}, {})
        with CaptureQueriesContext(connection) as queries:
            html = anna_client.get(target).content.decode()
        assert html.count("running-match py-2") == min(total, RUNNING_SHOWN)  # the newest few
        counts.append(len(queries))
    assert counts[0] == counts[1]


# -------------------------------------------------------------------- start form


def test_the_first_dealer_is_chosen_by_name_and_must_be_seated(
    anna_client: Client, group: Group, players: list[Player]
) -> None:
    anna, ben, cem = players
    page = anna_client.get(reverse("match_new", args=[group.pk])).content.decode()
    assert f'<option value="{cem.pk}">Cem</option>' in page
    response = anna_client.post(reverse("match_new", args=[group.pk]), {
        "game": "x-nimmt", "seat_0": anna.pk, "seat_1": ben.pk, "first_player": cem.pk,
    }, HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 200
    assert "Cem has no seat in this match" in response.content.decode()
    assert not Match.objects.exists()


def test_a_guest_is_added_from_the_start_form_onto_the_next_free_seat(
    anna_client: Client, group: Group, players: list[Player]
) -> None:
    anna, ben, _cem = players
    response = anna_client.post(reverse("match_new", args=[group.pk]), {
        "game": "freaky", "seat_0": anna.pk, "seat_1": ben.pk, "new_player": "  Dora ",
        "add_player": "1",
    }, HTTP_ACCEPT_LANGUAGE="en")
    dora = Player.objects.get(group=group, name="Dora")
    html = response.content.decode()
    assert "Dora is on the roster now" in html
    assert f'<option value="{dora.pk}" selected>Dora</option>' in html
    assert not Match.objects.exists()


@pytest.mark.parametrize("name", ["Ben", "ben", " BEN "])
def test_a_guest_with_a_name_already_on_the_roster_is_refused(
    anna_client: Client, group: Group, players: list[Player], name: str
) -> None:
    response = anna_client.post(reverse("match_new", args=[group.pk]), {
        "game": "freaky", "new_player": name, "add_player": "1",
    }, HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 200
    assert "There is already a player called" in response.content.decode()
    assert group.players.count() == 3


def test_a_match_started_from_the_form_remembers_who_started_it(
    anna_client: Client, anna: User, group: Group, players: list[Player]
) -> None:
    anna_client.post(reverse("match_new", args=[group.pk]), {
        "game": "freaky", "seat_0": players[0].pk, "seat_1": players[1].pk,
    })
    assert Match.objects.get().created_by == anna


# ------------------------------------------------------------------------ defects


@pytest.mark.parametrize(("game", "datas"), [
    ("drei-sind-einer-zuviel", [{"taken": {"rot": 1}}, {}, {}]),
    ("freaky", [{"collected": 5}, {}, {}]),
    ("x-nimmt", [{"hand": 5}, {}, {}]),
    ("elf-nimmt", [{"hand": 5}, {"went_out": True}, {"hand": 2}]),
    ("dreizehn", [{"red": 1}, {}, {}]),
])
def test_the_edit_link_works_on_a_complete_and_on_a_reopened_match(
    anna_client: Client, group: Group, players: list[Player], game: str,
    datas: list[dict[str, Any]],
) -> None:
    match = start(group, players, game)
    needed = sheet_services.deals_needed(match, 3)
    for _ in range(needed):
        record(match, players, *datas)
    page = anna_client.get(url("match_sheet", match)).content.decode()
    # the ✎ link, swapping the sheet (hx-target and hx-swap from its table)
    assert 'sheet-table mb-0" hx-target="#sheet" hx-swap="outerHTML">' in page
    assert f'hx-get="{url("deal_edit", match, number=needed)}" title=' in page
    answer = anna_client.get(url("deal_edit", match, number=needed), **HX)
    assert answer["HX-Retarget"] == "#sheet"
    assert 'id="deal-form"' in answer.content.decode()
    match_services.match_finish(match=match)
    match_services.match_reopen(match=match)
    answer = anna_client.get(url("deal_edit", match, number=1), **HX)
    assert answer["HX-Retarget"] == "#sheet"
    assert 'id="deal-form"' in answer.content.decode()


def test_switching_the_entry_mode_keeps_what_was_typed(
    anna_client: Client, group: Group, players: list[Player]
) -> None:
    match = start(group, players, "x-nimmt")
    response = anna_client.post(url("deal_new", match), {
        "mode": "cards", "number": "1", "s0-hand_cards": "55, 10", "s1-x_stack_cards": "5",
        "switch_mode": "counts",
    }, **HX)
    html = response.content.decode()
    # 55 → 7 and 10 → 3 Hornochsen; 5 → 2; the typed cards go along hidden.
    assert 'name="s0-hand" value="10"' in html
    assert 'name="s1-x_stack" value="2"' in html
    assert '<input type="hidden" name="s0-hand_cards" value="55, 10">' in html
    response = anna_client.post(url("deal_new", match), {
        "mode": "counts", "number": "1", "s0-hand": "10", "s0-hand_cards": "55, 10",
        "s2-hand": "4", "switch_mode": "cards",
    }, **HX)
    html = response.content.decode()
    assert 'name="s0-hand_cards" value="55, 10"' in html
    assert '<input type="hidden" name="s2-hand" value="4">' in html
    assert not Deal.objects.exists()


def test_an_all_zero_deal_is_saved_only_after_a_yes(
    anna_client: Client, group: Group, players: list[Player]
) -> None:
    match = start(group, players, "dreizehn")
    response = anna_client.post(url("deal_new", match), {"number": "1"},
                                HTTP_ACCEPT_LANGUAGE="en", **HX)
    assert response.status_code == 422
    assert "Every player has 0 in this deal. Save it like that?" in response.content.decode()
    assert not Deal.objects.exists()
    response = anna_client.post(url("deal_new", match), {"number": "1", "confirm_empty": "1"},
                                **HX)
    assert response.status_code == 200
    assert Deal.objects.count() == 1


def test_an_all_zero_deal_mentions_the_cards_on_the_live_board(
    anna_client: Client, group: Group, players: list[Player]
) -> None:
    match = start(group, players, "freaky")
    live_services.live_step(
        match=match, revision=0, action="collect", data={"player": players[2].pk, "cards": 26},
    )
    response = anna_client.post(url("deal_new", match), {"number": "1"},
                                HTTP_ACCEPT_LANGUAGE="en", **HX)
    html = response.content.decode()
    assert "the live board holds 26 cards" in html
    assert f'href="{url("match_live", match)}">To the live board</a>' in html
    assert not Deal.objects.exists()
    # A game without a board of cards asks only about the zeros.
    plain = start(group, players, "x-nimmt")
    html = anna_client.post(url("deal_new", plain), {"number": "1"},
                            HTTP_ACCEPT_LANGUAGE="en", **HX).content.decode()
    assert "Every player has 0 in this deal. Save it like that?" in html
    assert "To the live board" not in html


def test_the_live_board_never_replaces_a_result_without_a_yes(
    anna_client: Client, group: Group, players: list[Player]
) -> None:
    match = start(group, players, "freaky")
    record(match, players, {"collected": 5}, {"collected": 4}, {})
    live = url("match_live", match)
    response = anna_client.post(live, {"revision": 0, "action": "save"},
                                HTTP_ACCEPT_LANGUAGE="en")
    assert "the sheet&#x27;s result would be replaced by zeros" in response.content.decode()
    assert totals(match) == [5, 4, 0]
    response = anna_client.post(live, {"revision": 0, "action": "save", "confirm": "yes"})
    assert response.status_code == 302
    assert totals(match) == [0, 0, 0]


def test_the_live_button_goes_and_the_live_board_closes_when_the_match_is_finished(
    anna_client: Client, group: Group, players: list[Player]
) -> None:
    match = start(group, players, "freaky")
    record(match, players, {"collected": 5}, {}, {})
    response = anna_client.post(url("match_finish", match), **HX)
    assert '<span id="live-link" class="d-flex" hx-swap-oob="true"></span>' in (
        response.content.decode())
    page = anna_client.get(url("match_live", match), HTTP_ACCEPT_LANGUAGE="en")
    assert "This match is finished: the live board is closed." in page.content.decode()
    assert 'name="action" value="collect"' not in page.content.decode()
    tap = anna_client.post(url("match_live", match), {
        "revision": 0, "action": "collect", "player": players[0].pk, "cards": "5",
    }, HTTP_ACCEPT_LANGUAGE="en", **HX)
    assert tap.status_code == 409
    assert "This match is finished. Reopen it to change it." in tap.content.decode()
    assert "This match is finished: the live board is closed." in tap.content.decode()


def test_a_saved_deal_answers_in_the_success_colour_with_its_scores(
    anna_client: Client, group: Group, players: list[Player]
) -> None:
    match = start(group, players, "x-nimmt")
    response = anna_client.post(url("deal_new", match), {
        "number": "1", "s0-hand": "5", "s1-x_stack": "1",
    }, HTTP_ACCEPT_LANGUAGE="en", **HX)
    html = response.content.decode()
    assert ('<div class="alert alert-success py-2 my-2" role="status" id="notice" '
            'tabindex="-1" data-focus>Deal 1 saved. Scores: Anna 5, Ben 2, Cem 0.</div>') in html
    assert '<tr id="deal-1" class="table-success saved-row">' in html


def test_tied_players_are_listed_ignoring_case(group: Group) -> None:
    eva = Player.objects.create(group=group, name="Eva")
    dora = Player.objects.create(group=group, name="dora")
    match = start(group, [eva, dora], "x-nimmt")
    record(match, [eva, dora], {"x_stack": 1}, {"hand": 2})
    assert [s.seat.player.name for s in sheet_for(match).standings] == ["dora", "Eva"]


def test_without_javascript_a_saved_deal_is_marked_after_the_redirect(
    anna_client: Client, group: Group, players: list[Player]
) -> None:
    match = start(group, players, "x-nimmt")
    response = anna_client.post(url("deal_new", match), {"number": "1", "s0-hand": "5"},
                                HTTP_ACCEPT_LANGUAGE="en", follow=True)
    html = response.content.decode()
    assert ('<div class="alert alert-success py-2" role="alert">'
            "Deal 1 saved. Scores: Anna 5, Ben 0, Cem 0.</div>") in html
    assert '<tr id="deal-1" class="table-success saved-row">' in html
    again = anna_client.get(url("match_sheet", match)).content.decode()
    assert "table-success saved-row" not in again


def test_the_engine_ranks_tied_players_by_name_ignoring_case() -> None:
    from scoring import rank

    assert rank({"Eva": 5, "anna": 5, "Ben": 2}, lower_is_better=True) == (
        (1, "Ben", 2), (2, "anna", 5), (2, "Eva", 5),
    )


def test_switching_11_nimmt_to_counts_counts_the_typed_cards(
    anna_client: Client, group: Group, players: list[Player]
) -> None:
    match = start(group, players, "elf-nimmt")
    response = anna_client.post(url("deal_new", match), {
        "mode": "cards", "number": "1", "s0-hand_cards": "55, 11", "s1-hand_cards": "7, 7x",
        "went_out": "2", "switch_mode": "counts",
    }, **HX)
    html = response.content.decode()
    # 55 → 7 and 11 → 5 Hornochsen; "7, 7x" is a card twice: not counted, kept as typed.
    assert 'name="s0-hand" value="12"' in html
    assert '<input type="hidden" name="s1-hand_cards" value="7, 7x">' in html
    assert 'value="2" checked' in html  # who went out stays chosen


def _toggle(match: Match, anna: User, times: int) -> None:
    for _ in range(times):
        deal_services.match_undo(match=match, user=anna)
        deal_services.match_redo(match=match, user=anna)


def test_the_log_page_shows_a_page_of_changes_in_the_same_queries_however_long_the_log(
    anna_client: Client, group: Group, players: list[Player], anna: User,
    monkeypatch: pytest.MonkeyPatch, django_assert_max_num_queries: Any,
) -> None:
    """Undo and redo tapped a thousand times make a log of two thousand entries: the page
    lists a page of them, the rest a click away (issue 30: no page grows with a log)."""
    monkeypatch.setattr(sheet_reads, "LOG_PER_PAGE", 4)
    match = start(group, players, "x-nimmt", user=anna)
    deal_services.deal_record(match=match, number=1, user=anna, entries={
        players[0].pk: {"hand": 3}, players[1].pk: {}, players[2].pk: {}})
    _toggle(match, anna, 3)  # 7 changes
    with django_assert_max_num_queries(1000) as short:
        first = _log_text(anna_client, match)
    _toggle(match, anna, 6)  # 19 changes
    with django_assert_max_num_queries(len(short.captured_queries)):
        newest = _log_text(anna_client, match)
    html = anna_client.get(url("match_changes", match) + "?page=5",
                           HTTP_ACCEPT_LANGUAGE="en").content.decode()

    assert len(first) == len(newest) == 4
    assert newest[0].startswith("↷ Deal 1")  # the newest first
    assert '<ol class="list-group" id="changes" reversed start="19">' in anna_client.get(
        url("match_changes", match)).content.decode()
    assert 'reversed start="3"' in html and html.count('id="change-') == 3  # the oldest three
    assert "Deal 1 recorded" in html and "Newer" in html and "Show more" not in html


def test_the_log_page_reads_no_query_per_change_of_its_page(
    anna_client: Client, group: Group, players: list[Player], anna: User,
    django_assert_max_num_queries: Any,
) -> None:
    """A page of 3 changes and one of 41 (both within LOG_PER_PAGE) cost the same queries:
    the changes are read with their match, not each asked for it again."""
    assert sheet_reads.LOG_PER_PAGE > 41
    match = start(group, players, "x-nimmt", user=anna)
    deal_services.deal_record(match=match, number=1, user=anna, entries={
        players[0].pk: {"hand": 3}, players[1].pk: {}, players[2].pk: {}})
    _toggle(match, anna, 1)  # 3 changes
    with django_assert_max_num_queries(1000) as short:
        assert len(_log_text(anna_client, match)) == 3
    _toggle(match, anna, 19)  # 41 changes
    with django_assert_max_num_queries(len(short.captured_queries)):
        assert len(_log_text(anna_client, match)) == 41

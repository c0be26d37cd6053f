"""Every phone sees the current sheet, and no deal is recorded twice: the sheet's ETag
(304 for an unchanged sheet, from one indexed read), the idempotency key of a deal, and
the installable app's manifest and service worker."""

from __future__ import annotations

import json
import struct
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from companion.models import Deal, DealScore, Group, Match, MatchChange, Membership, Player
from companion.services import deals as deal_services
from companion.services import live as live_services
from companion.services import matches as match_services
from companion.services import sheet as sheet_services

HX = {"HTTP_HX_REQUEST": "true"}
KEY = "0b6f3c1e-8d2a-4b7e-9c3f-1a2b3c4d5e6f"


def start(group: Group, players: list[Player], game: str = "x-nimmt") -> Match:
    return match_services.match_start(group=group, game=game, players=players)


def url(name: str, match: Match, **kwargs: Any) -> str:
    return reverse(name, kwargs={"group_id": match.group_id, "match_id": match.pk, **kwargs})


def deal_1(**extra: Any) -> dict[str, Any]:
    """X nimmt! deal 1: Anna 5 in hand and 9 in the X-stack (23), Ben 3, Cem went out with 1
    in the X-stack (2)."""
    return {"mode": "counts", "number": 1, "s0-hand": "5", "s0-x_stack": "9", "s1-hand": "3",
            "s2-x_stack": "1", **extra}


def etag_of(client: Client, match: Match, **headers: Any) -> str:
    response = client.get(url("match_sheet", match), **HX, **headers)
    assert response.status_code == 200
    return str(response["ETag"])


# ------------------------------------------------------------------ idempotency key


@pytest.mark.django_db
def test_the_same_deal_posted_twice_with_one_key_is_recorded_once(
    anna_client: Client, group: Group, players: list[Player]
) -> None:
    match = start(group, players)
    first = anna_client.post(url("deal_new", match), deal_1(client_key=KEY), **HX)
    again = anna_client.post(url("deal_new", match), deal_1(client_key=KEY), **HX,
                             HTTP_ACCEPT_LANGUAGE="en")
    assert first.status_code == 200
    assert again.status_code == 200
    assert "Deal 1 was saved already." in again.content.decode()
    assert match.deals.count() == 1
    assert [s.total for s in match.seats.order_by("number")] == [23, 3, 2]
    assert list(match.changes.values_list("kind", "client_key")) == [("record", KEY)]


@pytest.mark.django_db
def test_a_plain_form_posted_twice_records_one_deal_and_says_so_in_german(
    anna_client: Client, group: Group, players: list[Player]
) -> None:
    match = start(group, players)
    anna_client.post(url("deal_new", match), deal_1(client_key=KEY))
    again = anna_client.post(url("deal_new", match), deal_1(client_key=KEY), follow=True)
    assert again.redirect_chain == [(url("match_sheet", match), 302)]
    assert "Durchgang 1 wurde schon gespeichert." in again.content.decode()
    assert match.deals.count() == 1


@pytest.mark.django_db
def test_it_refuses_a_key_sent_again_with_other_values(
    anna_client: Client, group: Group, players: list[Player]
) -> None:
    match = start(group, players)
    anna_client.post(url("deal_new", match), deal_1(client_key=KEY), **HX)
    other = deal_1(client_key=KEY, number=2)
    other["s1-hand"] = "4"
    response = anna_client.post(url("deal_new", match), other, **HX, HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 422
    assert ("These entries were sent with the key of another send and were not saved. "
            "Send them again as a new deal.") in response.content.decode()
    assert match.deals.count() == 1


@pytest.mark.django_db
def test_it_refuses_an_unreadable_key(
    anna_client: Client, group: Group, players: list[Player]
) -> None:
    match = start(group, players)
    response = anna_client.post(url("deal_new", match), deal_1(client_key="<script>"), **HX,
                                HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 422
    assert "The form was damaged on its way (its key is unreadable)." in response.content.decode()
    assert match.deals.count() == 0


@pytest.mark.django_db
def test_a_repeat_of_a_deal_that_was_undone_since_records_nothing(
    group: Group, players: list[Player]
) -> None:
    match = start(group, players, "freaky")
    entries = {players[0].pk: {"collected": 8}, players[1].pk: {"collected": 0},
               players[2].pk: {"collected": 4}}
    deal_services.deal_record(match=match, number=1, entries=entries, client_key=KEY)
    deal_services.match_undo(match=match)
    with pytest.raises(deal_services.AlreadyRecorded) as repeat:
        deal_services.deal_record(match=match, number=1, entries=entries, client_key=KEY)
    assert repeat.value.change.deal_number == 1
    assert match.deals.count() == 0


@pytest.mark.django_db
def test_a_repeat_after_the_match_was_finished_is_still_a_success(
    group: Group, players: list[Player]
) -> None:
    match = start(group, players, "freaky")
    entries = {players[0].pk: {"collected": 8}, players[1].pk: {"collected": 0},
               players[2].pk: {"collected": 4}}
    deal_services.deal_record(match=match, number=1, entries=entries, client_key=KEY)
    match_services.match_finish(match=match)
    with pytest.raises(deal_services.AlreadyRecorded):
        deal_services.deal_record(match=match, number=1, entries=entries, client_key=KEY)
    assert MatchChange.objects.filter(client_key=KEY).count() == 1


@pytest.mark.django_db
def test_every_new_deal_form_carries_a_key_of_its_own(
    anna_client: Client, group: Group, players: list[Player]
) -> None:
    match = start(group, players)
    first = anna_client.get(url("match_sheet", match)).content.decode()
    second = anna_client.get(url("match_sheet", match)).content.decode()

    def key(html: str) -> str:
        return html.split('name="client_key" value="', 1)[1].split('"', 1)[0]

    assert len(key(first)) == 32
    assert key(first) != key(second)


# ------------------------------------------------------------------------- the ETag


@pytest.mark.django_db
def test_an_unchanged_sheet_answers_304_without_a_body(
    anna_client: Client, group: Group, players: list[Player]
) -> None:
    match = start(group, players)
    etag = etag_of(anna_client, match)
    response = anna_client.get(url("match_sheet", match), **HX, HTTP_IF_NONE_MATCH=etag)
    assert response.status_code == 304
    assert response.content == b""
    assert response["ETag"] == etag


@pytest.mark.django_db
def test_the_sheet_carries_the_etag_it_answers_with(
    anna_client: Client, group: Group, players: list[Player]
) -> None:
    match = start(group, players)
    response = anna_client.get(url("match_sheet", match), **HX)
    quoted = response["ETag"].replace('"', "&quot;")
    assert f'data-etag="{quoted}"' in response.content.decode()


@pytest.mark.django_db
def test_a_recorded_deal_changes_the_etag(
    anna_client: Client, group: Group, players: list[Player]
) -> None:
    match = start(group, players)
    etag = etag_of(anna_client, match)
    saved = anna_client.post(url("deal_new", match), deal_1(), **HX)
    response = anna_client.get(url("match_sheet", match), **HX, HTTP_IF_NONE_MATCH=etag)
    assert response.status_code == 200
    assert 'id="deal-1"' in response.content.decode()
    assert response["ETag"] != etag
    assert saved["ETag"] == response["ETag"]  # the save's answer shows the same sheet


@pytest.mark.django_db
def test_the_etag_differs_by_language(
    anna_client: Client, group: Group, players: list[Player]
) -> None:
    match = start(group, players)
    german = etag_of(anna_client, match)
    response = anna_client.get(url("match_sheet", match), **HX, HTTP_IF_NONE_MATCH=german,
                               HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 200
    assert "Deal 1" in response.content.decode()


@pytest.mark.django_db
def test_a_304_costs_the_same_few_queries_however_long_the_sheet(
    anna_client: Client, group: Group, players: list[Player]
) -> None:
    counts = []
    for deals in (1, 12):
        match = start(group, players, "dreizehn")
        Deal.objects.bulk_create(Deal(match=match, number=n) for n in range(1, deals + 1))
        DealScore.objects.bulk_create(
            DealScore(deal=deal, player=player, data={"red": 1}, score=2)
            for deal in match.deals.all() for player in players
        )
        sheet_services.refresh_seats(match=match)
        etag = etag_of(anna_client, match)
        with CaptureQueriesContext(connection) as queries:
            response = anna_client.get(url("match_sheet", match), **HX, HTTP_IF_NONE_MATCH=etag)
        assert response.status_code == 304
        counts.append([q["sql"].split(" FROM ")[1].split()[0] for q in queries.captured_queries])
    # Django's session and user (the login check of every view), then the match's revision
    # joined with the membership: nothing of the sheet is read.
    assert counts == [['"django_session"', '"auth_user"', '"companion_match"']] * 2


@pytest.mark.django_db
def test_an_outsider_gets_404_even_with_the_right_etag(
    anna_client: Client, outsider_client: Client, group: Group, players: list[Player]
) -> None:
    match = start(group, players)
    etag = etag_of(anna_client, match)
    for guess in (etag, "*", etag.replace(".de.", ".en.")):
        response = outsider_client.get(url("match_sheet", match), **HX, HTTP_IF_NONE_MATCH=guess)
        assert response.status_code == 404


@pytest.mark.django_db
def test_a_member_removed_from_the_group_gets_404_with_the_etag_of_before(
    anna_client: Client, group: Group, players: list[Player]
) -> None:
    match = start(group, players)
    etag = etag_of(anna_client, match)
    Membership.objects.filter(group=group).delete()
    response = anna_client.get(url("match_sheet", match), **HX, HTTP_IF_NONE_MATCH=etag)
    assert response.status_code == 404


@pytest.mark.django_db
def test_a_logged_out_phone_gets_no_304_but_the_login(
    anna_client: Client, group: Group, players: list[Player]
) -> None:
    match = start(group, players)
    etag = etag_of(anna_client, match)
    anna_client.logout()
    response = anna_client.get(url("match_sheet", match), **HX, HTTP_IF_NONE_MATCH=etag)
    assert response.status_code == 302
    assert response["Location"].startswith("/accounts/login/")


@pytest.mark.django_db
def test_an_etag_of_another_kind_of_viewer_or_language_gets_the_sheet_not_a_304(
    anna_client: Client, group: Group, players: list[Player]
) -> None:
    """The ETag names the kind of viewer (companion.access.Viewer.kind), whose sheets
    differ: Anna, the owner, may delete the match (``d``), another member may not (``m``),
    a guest's pass writes or only follows."""
    from companion import waiting

    match = start(group, players)
    revision, language, kind, _signature = etag_of(anna_client, match).strip('"').split(".")
    assert kind == "d"
    # Another kind's, language's or revision's ETag, even signed as the app signs them.
    for value in (f"{revision}.{language}.m", f"{revision}.{language}.gwm",
                  f"{revision}.en.{kind}", f"{int(revision) - 1}.{language}.{kind}"):
        forged = f'"{waiting.sign(match.pk, value)}"'
        response = anna_client.get(url("match_sheet", match), **HX, HTTP_IF_NONE_MATCH=forged)
        assert response.status_code == 200


@pytest.mark.django_db
def test_a_full_page_is_never_answered_with_304(
    anna_client: Client, group: Group, players: list[Player]
) -> None:
    match = start(group, players)
    etag = etag_of(anna_client, match)
    response = anna_client.get(url("match_sheet", match), HTTP_IF_NONE_MATCH=etag)
    assert response.status_code == 200
    assert "<html" in response.content.decode()
    assert "HX-Request" in response["Vary"]


@pytest.mark.django_db
def test_an_open_sheet_polls_and_a_finished_one_only_when_shown_again(
    anna_client: Client, group: Group, players: list[Player]
) -> None:
    match = start(group, players, "freaky")
    open_sheet = anna_client.get(url("match_sheet", match)).content.decode()
    assert "every 2s [window.Kartenrunde && Kartenrunde.pollDue()]" in open_sheet
    deal_services.deal_record(match=match, number=1, entries={
        players[0].pk: {"collected": 8}, players[1].pk: {"collected": 0},
        players[2].pk: {"collected": 4},
    })
    match_services.match_finish(match=match)
    finished = anna_client.get(url("match_sheet", match)).content.decode()
    assert 'id="sheet-poll"' in finished
    assert "every 2s" not in finished


@pytest.mark.django_db
def test_the_live_board_answers_304_until_a_card_is_tapped(
    anna_client: Client, group: Group, players: list[Player]
) -> None:
    match = start(group, players, "freaky")
    live = url("match_live", match)
    etag = _board_etag(anna_client, live)
    assert anna_client.get(live, **HX, HTTP_IF_NONE_MATCH=etag).status_code == 304
    live_services.live_step(
        match=match, revision=0, action="collect", data={"player": players[0].pk, "cards": 5},
    )
    changed = anna_client.get(live, **HX, HTTP_IF_NONE_MATCH=etag)
    assert changed.status_code == 200
    assert 'id="board-poll"' in changed.content.decode()


def _board_etag(client: Client, live: str) -> str:
    html = client.get(live, **HX).content.decode()
    return html.split('data-etag="', 1)[1].split('"', 1)[0].replace("&quot;", '"')


# ------------------------------------------------------------ manifest, service worker


def png_size(path: Path) -> tuple[int, int]:
    header = path.read_bytes()[:24]
    assert header[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = struct.unpack(">II", header[16:24])
    return width, height


@pytest.mark.django_db
def test_the_manifest_names_the_app_in_the_users_language(client: Client) -> None:
    german = client.get("/manifest.webmanifest")
    english = client.get("/manifest.webmanifest", HTTP_ACCEPT_LANGUAGE="en")
    assert german["Content-Type"] == "application/manifest+json"
    data = json.loads(german.content)
    assert data["name"] == "Kartenrunde: Spielzettel für den Kartentisch"
    assert json.loads(english.content)["name"] == "Kartenrunde: score sheets for the card table"
    assert data["short_name"] == "Kartenrunde"
    assert (data["start_url"], data["scope"], data["display"]) == ("/", "/", "standalone")
    assert (data["theme_color"], data["background_color"]) == ("#f8f9fa", "#ffffff")
    assert data["user_preferences"]["color_scheme_dark"] == {
        "theme_color": "#2b3035", "background_color": "#212529"}
    assert [(i["sizes"], i["purpose"]) for i in data["icons"]] == [
        ("192x192", "any"), ("512x512", "any"), ("512x512", "maskable")]


@pytest.mark.parametrize(("name", "size"), [
    ("icon-192.png", 192), ("icon-512.png", 512), ("icon-maskable-512.png", 512),
])
def test_the_icons_have_their_sizes(name: str, size: int) -> None:
    assert png_size(Path(settings.BASE_DIR) / "static" / "icons" / name) == (size, size)


@pytest.mark.django_db
def test_the_service_worker_is_served_from_the_root_and_never_cached(client: Client) -> None:
    response = client.get("/sw.js")
    assert response.status_code == 200
    assert response["Content-Type"] == "application/javascript; charset=utf-8"
    assert "no-cache" in response["Cache-Control"]
    body = response.content.decode()
    assert 'const STATIC_PREFIX = "/static/";' in body
    assert "/static/js/queue.js" in body
    assert "Keine Verbindung" in body

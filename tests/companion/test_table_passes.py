"""Table passes ("Tischpass"): the phones at the table join a match or a game night without
an account, follow the sheet, enter deals when the pass allows it, and lose access when
the pass is revoked or expires. A pass opens nothing outside its match or night.
"""

from __future__ import annotations

import datetime as dt
import re
import zoneinfo
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from companion.models import (
    ChangeReceipt,
    GameNight,
    Group,
    Match,
    MatchChange,
    Membership,
    Player,
    TablePass,
)
from companion.services import deals as deal_services
from companion.services import matches as match_services
from companion.services import passes as services
from companion.services.sheet import Guest

pytestmark = pytest.mark.django_db

HX = {"HTTP_HX_REQUEST": "true"}
EN = {"HTTP_ACCEPT_LANGUAGE": "en"}
BERLIN = zoneinfo.ZoneInfo("Europe/Berlin")
X_NIMMT_DEAL = {"mode": "counts", "number": 1, "s0-hand": "5", "s0-x_stack": "9",
                "s1-hand": "3", "s2-x_stack": "1"}


def start(group: Group, players: list[Player], game: str = "x-nimmt", **kwargs: Any) -> Match:
    return match_services.match_start(group=group, game=game, players=players, **kwargs)


def url(name: str, match: Match, **kwargs: Any) -> str:
    return reverse(name, kwargs={"group_id": match.group_id, "match_id": match.pk, **kwargs})


def make_pass(*, by: User, may_write: bool = True, match: Match | None = None,
              night: GameNight | None = None) -> TablePass:
    return services.table_pass_create(created_by=by, may_write=may_write, match=match,
                                      game_night=night)


def join_url(table_pass: TablePass) -> str:
    return reverse("pass_join", args=[services.pass_token(table_pass)])


def guest_with(table_pass: TablePass, name: str = "Zoe") -> Client:
    """A phone that never logged in, joined through the pass's link as ``name``."""
    client = Client(**EN)
    response = client.post(join_url(table_pass), {"typed": name})
    assert response.status_code == 302, response.content.decode()[:500]
    return client


@pytest.fixture
def match(group: Group, players: list[Player]) -> Match:
    return start(group, players)


@pytest.fixture
def writing(match: Match, anna: User) -> TablePass:
    return make_pass(by=anna, match=match, may_write=True)


@pytest.fixture
def following(match: Match, anna: User) -> TablePass:
    return make_pass(by=anna, match=match, may_write=False)


# ------------------------------------------------------------------------ the token


def test_a_pass_link_names_its_pass_and_nothing_else(writing: TablePass) -> None:
    token = services.pass_token(writing)
    assert services.pass_for_token(token) == writing
    assert token == services.pass_token(writing)  # the QR code can be shown again


@pytest.mark.parametrize("change", [
    lambda token: token[:-1] + ("A" if token[-1] != "A" else "B"),  # the signature
    lambda token: token.replace(token.split(".")[0], str(int(token.split(".")[0]) + 1), 1),
    lambda token: token.split(":")[0],  # unsigned
    lambda token: "",
    lambda token: "1.x:y",
])
def test_a_changed_token_is_refused(writing: TablePass, anna: User, match: Match,
                                    change: Any) -> None:
    make_pass(by=anna, match=match)  # the next id exists too
    assert services.pass_for_token(change(services.pass_token(writing))) is None


def test_a_token_signed_with_another_key_is_refused(writing: TablePass, settings: Any) -> None:
    token = services.pass_token(writing)
    settings.SECRET_KEY = "another-secret-key-" + "x" * 40
    assert services.pass_for_token(token) is None


def test_a_token_with_the_nonce_of_another_pass_is_refused(
    writing: TablePass, following: TablePass
) -> None:
    from django.core import signing
    forged = signing.Signer(salt=services.SALT).sign(f"{writing.pk}.{following.nonce}")
    assert services.pass_for_token(forged) is None


# ------------------------------------------------------------------------ expiry


@pytest.mark.parametrize(("made", "ends"), [
    (dt.datetime(2026, 3, 6, 19, 30), dt.datetime(2026, 3, 7, 6, 0)),  # the evening
    (dt.datetime(2026, 3, 7, 1, 15), dt.datetime(2026, 3, 7, 6, 0)),  # after midnight
    (dt.datetime(2026, 3, 7, 6, 0), dt.datetime(2026, 3, 8, 6, 0)),  # a new day: 24 h
    (dt.datetime(2026, 3, 7, 14, 0), dt.datetime(2026, 3, 8, 6, 0)),  # an afternoon
])
def test_a_pass_works_until_the_end_of_the_game_night(made: dt.datetime, ends: dt.datetime) -> None:
    expiry = services.pass_expiry(made.replace(tzinfo=BERLIN))
    assert expiry == ends.replace(tzinfo=BERLIN)
    assert expiry - made.replace(tzinfo=BERLIN) <= dt.timedelta(hours=24)


def test_a_pass_never_works_longer_than_24_hours_across_a_clock_change() -> None:
    made = dt.datetime(2026, 10, 24, 6, 0, tzinfo=BERLIN)  # the night the clocks go back
    assert services.pass_expiry(made) - made == dt.timedelta(hours=24)


# ------------------------------------------------------------------------ joining


def test_the_link_says_what_it_opens_and_offers_the_matchs_players(writing: TablePass) -> None:
    html = Client(**EN).get(join_url(writing)).content.decode()
    assert "Join at the table" in html
    assert "X nimmt! of the group “Donnerstagsrunde”" in html
    assert "you follow the sheet live and can enter deals" in html
    for name in ("Anna", "Ben", "Cem"):
        assert f'value="{name}"' in html


def test_a_guest_picks_a_name_and_lands_on_the_sheet(writing: TablePass, match: Match) -> None:
    client = Client(**EN)
    response = client.post(join_url(writing), {"picked": "Ben"})
    assert response["Location"] == url("match_sheet", match)
    html = client.get(url("match_sheet", match)).content.decode()
    assert "Table pass: you play along as <strong>Ben</strong>." in html
    assert 'id="deal-form"' in html


def test_a_guest_must_give_a_name(writing: TablePass) -> None:
    client = Client(**EN)
    response = client.post(join_url(writing), {"typed": "  \u200b "})
    assert response.status_code == 200
    assert "Pick your name or type one." in response.content.decode()
    assert "table_passes" not in client.session


def test_a_typed_name_wins_over_a_picked_one_and_is_cleaned(
    writing: TablePass, match: Match
) -> None:
    client = Client(**EN)
    client.post(join_url(writing), {"picked": "Ben", "typed": "  Ｚｏｅ "})
    assert client.session["table_passes"] == {str(writing.pk): "Zoe"}


def test_joining_gives_the_browser_a_new_session_key(writing: TablePass) -> None:
    client = Client(**EN)
    client.get(join_url(writing))
    client.session.save()
    before = client.session.session_key
    client.post(join_url(writing), {"typed": "Zoe"})
    assert client.session.session_key != before


def test_a_member_opening_the_link_goes_straight_to_the_sheet(
    anna_client: Client, writing: TablePass, match: Match
) -> None:
    response = anna_client.get(join_url(writing))
    assert response["Location"] == url("match_sheet", match)
    assert "table_passes" not in anna_client.session


def test_a_logged_in_outsider_joins_as_a_guest(
    outsider_client: Client, writing: TablePass, match: Match
) -> None:
    outsider_client.post(join_url(writing), {"typed": "Olaf"})
    assert outsider_client.get(url("match_sheet", match)).status_code == 200
    assert outsider_client.get(reverse("group_home", args=[match.group_id])).status_code == 404


# ------------------------------------------------------------------ what a guest does


def test_a_guests_deal_is_logged_via_the_table_pass(writing: TablePass, match: Match) -> None:
    client = guest_with(writing, "Zoe")
    response = client.post(url("deal_new", match), X_NIMMT_DEAL, **HX)
    assert response.status_code == 200
    change = MatchChange.objects.get(match=match)
    assert (change.created_by, change.created_by_guest) == (None, "Zoe")
    log = client.get(url("match_changes", match)).content.decode()
    assert "via table pass (Zoe)" in log


def test_a_guests_undo_is_logged_via_the_table_pass(writing: TablePass, match: Match,
                                                    anna: User) -> None:
    deal_services.deal_record(match=match, number=1, user=anna, entries={
        seat.player_id: {"hand": [5, 3, 0][seat.number]} for seat in match.seats.all()})
    client = guest_with(writing, "Zoe")
    change = MatchChange.objects.get(match=match)
    response = client.post(url("match_undo", match), {"change": change.pk})
    assert response.status_code == 302
    change.refresh_from_db()
    assert (change.undone_by, change.undone_by_guest) == (None, "Zoe")
    log = client.get(url("match_changes", match)).content.decode()
    assert "by Anna" in log and "via table pass (Zoe)" in log


def test_a_guests_correction_sent_twice_is_applied_once(
    writing: TablePass, match: Match, anna: User
) -> None:
    """The receipt of a guest's send is kept with the pass (a guest has no account)."""
    deal_services.deal_record(match=match, number=1, user=anna, entries={
        seat.player_id: {"hand": [5, 3, 0][seat.number]} for seat in match.seats.all()})
    client = guest_with(writing, "Zoe")
    sent = {"number": 1, "version": 1, "s0-hand": 9, "s1-hand": 3, "s2-x_stack": 1,
            "client_key": "guest-fix-0001"}
    first = client.post(url("deal_edit", match, number=1), sent, **HX)
    again = client.post(url("deal_edit", match, number=1), sent, **HX)
    assert (first.status_code, again.status_code) == (200, 200)
    assert "Deal 1 was corrected already." in again.content.decode()
    assert match.deals.get(number=1).version == 2
    receipt = ChangeReceipt.objects.get(key="guest-fix-0001")
    assert (receipt.user, receipt.table_pass) == (None, writing)
    # The same key from another pass's guest is not this guest's receipt.
    other = make_pass(by=anna, match=match)
    stranger = guest_with(other, "Yuri")
    changed = {**sent, "version": 2, "s0-hand": 7}
    response = stranger.post(url("deal_edit", match, number=1), changed, **HX)
    assert response.status_code == 200
    assert match.deals.get(number=1).version == 3


def test_a_guest_who_may_write_finishes_a_complete_match(
    group: Group, players: list[Player], anna: User
) -> None:
    match = start(group, players, "freaky")  # one deal with three players
    client = guest_with(make_pass(by=anna, match=match), "Zoe")
    client.post(url("deal_new", match), {
        "number": 1, "s0-collected": "12", "s1-collected": "4", "s2-collected": ""})
    html = client.get(url("match_sheet", match), **EN).content.decode()
    assert "All deals recorded: finish the match" in html
    assert client.post(url("match_finish", match)).status_code == 302
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    assert [(c.kind, c.created_by_guest) for c in match.changes.order_by("id")] == [
        ("record", "Zoe"), ("finish", "Zoe")]
    html = client.get(url("match_sheet", match), **EN).content.decode()
    assert "Reopen to correct" not in html
    assert 'id="rematch"' not in html


@pytest.mark.parametrize("name", ["match_reopen", "match_abandon", "match_delete",
                                  "match_rematch", "match_new"])
def test_reopening_abandoning_deleting_and_starting_matches_are_for_members(
    writing: TablePass, match: Match, name: str
) -> None:
    client = guest_with(writing)
    html = client.get(url("match_sheet", match)).content.decode()
    assert "Abandon the match" not in html and "Delete the match" not in html
    path = reverse(name, args=[match.group_id]) if name == "match_new" else url(name, match)
    response = client.post(path, {"confirm": "yes"})
    assert response.status_code == 302  # to the login page
    assert response["Location"].startswith(reverse("login"))
    match.refresh_from_db()
    assert match.status == Match.Status.OPEN
    assert Match.objects.count() == 1


def test_a_read_only_guest_sees_the_sheet_without_a_way_to_change_it(
    following: TablePass, match: Match, anna: User
) -> None:
    deal_services.deal_record(match=match, number=1, user=anna, entries={
        seat.player_id: {"hand": [5, 3, 0][seat.number]} for seat in match.seats.all()})
    html = guest_with(following, "Zoe").get(url("match_sheet", match)).content.decode()
    assert "Table pass: you follow as <strong>Zoe</strong>." in html
    assert 'id="deal-form"' not in html
    assert 'class="btn btn-sm btn-outline-secondary deal-edit"' not in html
    assert 'id="undo"' not in html
    assert f'href="{reverse("group_home", args=[match.group_id])}"' not in html
    assert reverse("match_pass", args=[match.group_id, match.pk]) not in html


@pytest.mark.parametrize(("method", "name", "kwargs"), [
    ("post", "deal_new", {}),
    ("get", "deal_new", {}),
    ("post", "deal_preview", {}),
    ("get", "deal_edit", {"number": 1}),
    ("post", "deal_edit", {"number": 1}),
    ("post", "deal_delete", {"number": 1}),
    ("post", "match_undo", {}),
    ("post", "match_finish", {}),
    ("get", "match_live", {}),
    ("post", "match_live", {}),
])
def test_a_read_only_pass_may_not_write(
    following: TablePass, group: Group, players: list[Player], anna: User,
    method: str, name: str, kwargs: dict[str, Any],
) -> None:
    match = start(group, players, "drei-sind-einer-zuviel")
    deal_services.deal_record(match=match, number=1, user=anna, entries={
        p.pk: ({"taken": {"rot": 1}} if i == 0 else {}) for i, p in enumerate(players)})
    read_only = make_pass(by=anna, match=match, may_write=False)
    client = guest_with(read_only)
    match.refresh_from_db()
    before = (match.revision, MatchChange.objects.count(), match.deals.get().version)
    data = {**X_NIMMT_DEAL, "version": 1, "number": 2, "action": "save", "confirm": "yes"}
    response = getattr(client, method)(url(name, match, **kwargs), data)
    assert response.status_code == 403
    match.refresh_from_db()
    assert (match.revision, MatchChange.objects.count(), match.deals.get().version) == before


# ------------------------------------------------------------------ the access matrix


def revoked(table_pass: TablePass) -> TablePass:
    return services.table_pass_revoke(table_pass=table_pass)


def expired(table_pass: TablePass) -> TablePass:
    TablePass.objects.filter(pk=table_pass.pk).update(
        expires_at=timezone.now() - dt.timedelta(seconds=1))
    return table_pass


def guest_urls(match: Match) -> list[tuple[str, str]]:
    return [
        ("get", url("match_sheet", match)),
        ("get", url("match_changes", match)),
        ("get", url("deal_new", match)),
        ("post", url("deal_new", match)),
        ("post", url("deal_preview", match)),
        ("post", url("match_undo", match)),
        ("post", url("match_finish", match)),
        ("get", url("match_live", match)),
    ]


@pytest.mark.parametrize(("spoil", "status"), [(revoked, 410), (expired, 410)])
def test_a_revoked_or_expired_pass_opens_nothing_and_says_why(
    writing: TablePass, match: Match, spoil: Any, status: int
) -> None:
    client = guest_with(writing)
    spoil(writing)
    for method, path in guest_urls(match):
        response = getattr(client, method)(path, X_NIMMT_DEAL)
        assert response.status_code == status, (method, path)
    html = client.get(url("match_sheet", match)).content.decode()
    assert "This table pass no longer works" in html
    assert not MatchChange.objects.filter(match=match).exists()
    assert match.deals.count() == 0


def test_an_expired_pass_link_gets_a_clear_page(writing: TablePass) -> None:
    expired(writing)
    response = Client(**EN).get(join_url(writing))
    assert response.status_code == 410
    html = response.content.decode()
    assert "This table pass no longer works" in html
    assert "a table pass works until the end of the game night" in html


def test_a_revoked_pass_link_gets_a_clear_page(writing: TablePass) -> None:
    revoked(writing)
    response = Client(**EN).get(join_url(writing))
    assert response.status_code == 410
    assert "It was revoked at the table." in response.content.decode()


def test_a_tampered_link_gets_a_clear_page_and_no_access(writing: TablePass, match: Match) -> None:
    client = Client(**EN)
    token = services.pass_token(writing)
    response = client.post(reverse("pass_join", args=[token[:-2] + "xx"]), {"typed": "Mallory"})
    assert response.status_code == 404
    assert "This link does not work" in response.content.decode()
    assert "table_passes" not in client.session
    assert client.get(url("match_sheet", match))["Location"].startswith(reverse("login"))


def test_a_match_pass_opens_no_other_match_of_the_group(
    writing: TablePass, group: Group, players: list[Player]
) -> None:
    other = start(group, players, "freaky")
    client = guest_with(writing)
    for method, path in guest_urls(other):
        assert getattr(client, method)(path, X_NIMMT_DEAL).status_code == 404, (method, path)
    assert not other.deals.exists()


def test_a_pass_opens_nothing_of_another_group(writing: TablePass, outsider: User) -> None:
    other_group = Group.objects.get(owner=outsider)
    olaf = Player.objects.create(group=other_group, name="Olaf")
    pia = Player.objects.create(group=other_group, name="Pia")
    other = start(other_group, [olaf, pia], "x-nimmt")
    client = guest_with(writing)
    for method, path in guest_urls(other):
        assert getattr(client, method)(path, X_NIMMT_DEAL).status_code == 404, (method, path)
    # The right match id under the wrong group is no way in either.
    wrong = reverse("match_sheet", args=[other_group.pk, writing.match_id])
    assert client.get(wrong).status_code == 404


def test_a_guest_never_sees_the_groups_pages(writing: TablePass, match: Match) -> None:
    client = guest_with(writing)
    group_id = match.group_id
    for path in [
        reverse("group_home", args=[group_id]), reverse("group_settings", args=[group_id]),
        reverse("history", args=[group_id]), reverse("roster", args=[group_id]),
        reverse("export_json", args=[group_id]), reverse("export_csv", args=[group_id]),
        reverse("match_new", args=[group_id]), reverse("group_list"),
        reverse("night_detail", args=[group_id, match.game_night_id]),
        reverse("match_pass", args=[group_id, match.pk]),
    ]:
        response = client.get(path)
        assert response.status_code in (302, 404), path
        if response.status_code == 302:
            assert response["Location"].startswith(reverse("login")), path


def test_a_guest_cannot_make_or_revoke_passes(writing: TablePass, match: Match) -> None:
    client = guest_with(writing)
    client.post(reverse("match_pass", args=[match.group_id, match.pk]), {"may_write": "1"})
    client.post(reverse("pass_revoke", args=[match.group_id, writing.pk]))
    writing.refresh_from_db()
    assert writing.revoked_at is None
    assert TablePass.objects.count() == 1


# ------------------------------------------------------------------ night passes


def test_a_night_pass_opens_every_match_of_the_night_also_later_ones(
    group: Group, players: list[Player], anna: User
) -> None:
    first = start(group, players)
    night = first.game_night
    table_pass = make_pass(by=anna, night=night)
    client = guest_with(table_pass)
    later = start(group, players, "freaky", game_night=night)
    assert client.get(reverse("night_detail", args=[group.pk, night.pk])).status_code == 200
    assert client.get(url("match_sheet", first)).status_code == 200
    assert client.get(url("match_sheet", later)).status_code == 200
    elsewhere = start(group, players, game_night=GameNight.objects.create(
        group=group, date=night.date - dt.timedelta(days=7)))
    assert client.get(url("match_sheet", elsewhere)).status_code == 404
    assert client.get(reverse("night_detail", args=[group.pk, elsewhere.game_night_id])
                      ).status_code == 404


def test_the_night_page_of_a_guest_shows_the_matches_and_nothing_of_the_group(
    group: Group, players: list[Player], anna: User
) -> None:
    match = start(group, players)
    client = guest_with(make_pass(by=anna, night=match.game_night))
    night_page = reverse("night_detail", args=[group.pk, match.game_night_id])
    html = client.get(night_page).content.decode()
    assert url("match_sheet", match) in html
    for name in ("group_settings", "history", "roster", "match_new"):
        assert reverse(name, args=[group.pk]) not in html


def test_the_night_pass_offers_the_names_of_the_nights_players(
    group: Group, players: list[Player], anna: User
) -> None:
    match = start(group, players[:2], "x-nimmt")
    html = Client(**EN).get(join_url(make_pass(by=anna, night=match.game_night))).content.decode()
    assert 'value="Anna"' in html and 'value="Ben"' in html
    assert 'value="Cem"' not in html  # on the roster, not at the table


# ------------------------------------------------------------------ polls


def test_a_guests_unchanged_sheet_answers_304_and_a_revoked_pass_reloads_the_page(
    writing: TablePass, match: Match
) -> None:
    client = guest_with(writing)
    first = client.get(url("match_sheet", match), **HX)
    etag = first["ETag"]
    assert '.gwm.' in etag  # a guest whose pass writes, for the match; then the signature
    assert client.get(url("match_sheet", match), HTTP_IF_NONE_MATCH=etag, **HX).status_code == 304
    revoked(writing)
    response = client.get(url("match_sheet", match), HTTP_IF_NONE_MATCH=etag, **HX)
    assert response.status_code == 410
    assert response["HX-Refresh"] == "true"


def test_a_guest_and_a_member_never_share_an_etag(
    anna_client: Client, following: TablePass, writing: TablePass, match: Match
) -> None:
    etags = {
        anna_client.get(url("match_sheet", match), **HX)["ETag"],
        guest_with(following).get(url("match_sheet", match), **HX)["ETag"],
    }
    assert len(etags) == 2


def test_the_session_keeps_the_passes_of_both_matches(
    writing: TablePass, group: Group, players: list[Player], anna: User
) -> None:
    other = start(group, players, "freaky")
    client = guest_with(writing)
    client.post(join_url(make_pass(by=anna, match=other)), {"typed": "Zoe"})
    assert client.get(url("match_sheet", writing.match)).status_code == 200
    assert client.get(url("match_sheet", other)).status_code == 200


def test_leaving_forgets_the_pass(writing: TablePass, match: Match) -> None:
    client = guest_with(writing)
    client.post(reverse("pass_leave", args=[writing.pk]))
    assert client.get(url("match_sheet", match))["Location"].startswith(reverse("login"))


# ------------------------------------------------------------------ the member's side


def test_a_member_makes_a_pass_and_sees_its_qr_code_and_link(
    anna_client: Client, match: Match
) -> None:
    page = reverse("match_pass", args=[match.group_id, match.pk])
    response = anna_client.post(page, {"may_write": "0"}, **HX, **EN)
    table_pass = TablePass.objects.get()
    assert (table_pass.match, table_pass.may_write, table_pass.created_by.username) == (
        match, False, "anna")
    html = response.content.decode()
    assert join_url(table_pass) in html
    assert '<svg role="img" aria-label="QR code of the table pass"' in html
    assert "follow only" in html
    assert "<html" not in html


def test_a_pass_sent_twice_is_made_once(anna_client: Client, match: Match) -> None:
    page = reverse("match_pass", args=[match.group_id, match.pk])
    form = anna_client.get(page, **EN).content.decode()
    key = re.search(r'name="client_key" value="([^"]+)"', form)
    assert key is not None
    sent = {"may_write": "1", "client_key": key.group(1)}
    first, again = (anna_client.post(page, sent, **HX, **EN) for _ in range(2))
    assert (first.status_code, again.status_code) == (200, 200)
    table_pass = TablePass.objects.get()
    assert join_url(table_pass) in again.content.decode()


@pytest.mark.parametrize("owner", ["match", "night"])
def test_the_pass_page_costs_the_same_however_many_passes_are_made(
    anna_client: Client, match: Match, owner: str,
) -> None:
    """Each working pass is shown with its QR code: tapping "Make another table pass" 60
    times more must not make the page 60 QR codes longer (19 KB with 2 match and 2 night
    passes, 215 KB with 42 of each)."""
    if owner == "match":
        page = reverse("match_pass", args=[match.group_id, match.pk])
    else:
        page = reverse("night_pass", args=[match.group_id, match.game_night_id])

    def cost() -> tuple[int, int, int]:
        with CaptureQueriesContext(connection) as queries:
            body = anna_client.get(page).content.decode()
        return len(queries), len(body), body.count('class="card mb-3 table-pass"')

    for _ in range(3):
        anna_client.post(page, {"may_write": "1"}, **HX)
    queries_3, bytes_3, shown_3 = cost()
    for _ in range(60):
        answer = anna_client.post(page, {"may_write": "1"}, **HX, **EN)
    queries_63, bytes_63, shown_63 = cost()

    assert (shown_3, shown_63) == (3, services.PASSES_MAX)
    assert queries_63 == queries_3
    assert bytes_63 - bytes_3 < (services.PASSES_MAX - 3) * 7_000, (bytes_3, bytes_63)
    assert TablePass.objects.count() == services.PASSES_MAX
    assert f"At most {services.PASSES_MAX} table passes work at once" in answer.content.decode()
    # A revoked pass makes room for a new one.
    services.table_pass_revoke(table_pass=TablePass.objects.first())
    anna_client.post(page, {"may_write": "1"}, **HX)
    assert TablePass.objects.count() == services.PASSES_MAX + 1


def test_every_member_may_revoke_a_pass(
    group: Group, writing: TablePass, match: Match
) -> None:
    ben = User.objects.create_user("ben", password="kartenrunde-ben-1")
    Membership.objects.create(group=group, user=ben)
    client = Client()
    client.force_login(ben)
    response = client.post(reverse("pass_revoke", args=[group.pk, writing.pk]), **HX)
    assert response.status_code == 200
    writing.refresh_from_db()
    assert writing.revoked_at is not None
    assert join_url(writing) not in response.content.decode()


def test_an_outsider_cannot_see_make_or_revoke_a_groups_passes(
    outsider_client: Client, writing: TablePass, match: Match
) -> None:
    page = reverse("match_pass", args=[match.group_id, match.pk])
    assert outsider_client.get(page).status_code == 404
    assert outsider_client.post(page, {"may_write": "1"}).status_code == 404
    response = outsider_client.post(reverse("pass_revoke", args=[match.group_id, writing.pk]))
    assert response.status_code == 404
    writing.refresh_from_db()
    assert writing.revoked_at is None
    assert TablePass.objects.count() == 1


def test_the_sheet_offers_the_table_pass_to_members_without_reading_it(
    anna_client: Client, match: Match
) -> None:
    html = anna_client.get(url("match_sheet", match), **EN).content.decode()
    assert 'id="table-pass"' in html
    assert reverse("match_pass", args=[match.group_id, match.pk]) in html


def test_the_guest_service_records_the_name_not_an_account(match: Match) -> None:
    deal_services.deal_record(match=match, number=1, user=Guest("Zoe"), entries={
        seat.player_id: {"hand": [5, 3, 0][seat.number]} for seat in match.seats.all()})
    change = MatchChange.objects.get()
    assert (change.created_by_id, change.created_by_guest) == (None, "Zoe")


def test_the_home_page_leads_a_guest_back_to_the_table(writing: TablePass, match: Match) -> None:
    client = guest_with(writing)
    html = client.get(reverse("home")).content.decode()
    assert "At the table" in html
    assert f'href="{url("match_sheet", match)}"' in html
    revoked(writing)
    assert "At the table" not in client.get(reverse("home")).content.decode()


def test_the_etag_of_a_guests_save_is_the_one_its_next_poll_answers_304_to(
    writing: TablePass, match: Match
) -> None:
    client = guest_with(writing)
    saved = client.post(url("deal_new", match), X_NIMMT_DEAL, **HX)
    poll = client.get(url("match_sheet", match), HTTP_IF_NONE_MATCH=saved["ETag"], **HX)
    assert poll.status_code == 304


# ------------------------------------------------------------------ the maker leaves


def _leave(group: Group, ben: User, anna: User) -> None:
    client = Client()
    client.force_login(ben)
    assert client.post(reverse("group_leave", args=[group.pk])).status_code == 302


def _removed(group: Group, ben: User, anna: User) -> None:
    client = Client()
    client.force_login(anna)
    membership = Membership.objects.get(group=group, user=ben)
    response = client.post(reverse("member_remove", args=[group.pk, membership.pk]))
    assert response.status_code == 302


@pytest.mark.parametrize("gone", [_leave, _removed])
def test_a_pass_ends_when_its_maker_leaves_or_is_removed_and_the_phone_says_so(
    group: Group, match: Match, ben: User, anna: User, gone: Any
) -> None:
    writing = make_pass(by=ben, match=match)
    night = make_pass(by=ben, night=match.game_night)
    deal_services.deal_record(match=match, number=1, user=anna, entries={
        seat.player_id: {"hand": [5, 3, 0][seat.number]} for seat in match.seats.all()})
    client = guest_with(writing)
    night_client = guest_with(night)
    etag = client.get(url("match_sheet", match), **HX)["ETag"]
    before = (match.deals.count(), MatchChange.objects.filter(match=match).count())

    gone(group, ben, anna)

    for method, path in guest_urls(match):
        response = getattr(client, method)(path, X_NIMMT_DEAL)
        assert response.status_code == 410, (method, path)
    undo = client.post(url("match_undo", match),
                       {"change": MatchChange.objects.filter(match=match).first().pk})
    assert undo.status_code == 410
    poll = client.get(url("match_sheet", match), HTTP_IF_NONE_MATCH=etag, **HX)
    assert poll.status_code == 410 and poll["HX-Refresh"] == "true"
    html = client.get(url("match_sheet", match)).content.decode()
    assert "This table pass no longer works" in html
    assert "The member who made it is no longer in the group." in html
    night_page = night_client.get(reverse("night_detail", args=[group.pk, match.game_night_id]))
    assert night_page.status_code == 410
    assert night_client.get(url("match_sheet", match)).status_code == 410
    joined = Client(**EN).get(join_url(writing))
    assert joined.status_code == 410
    assert "The member who made it is no longer in the group." in joined.content.decode()
    assert (match.deals.count(), MatchChange.objects.filter(match=match).count()) == before
    assert client.get(reverse("home")).content.decode().count(url("match_sheet", match)) == 0


def test_a_pass_stays_ended_when_its_maker_joins_again(
    group: Group, match: Match, ben: User, anna: User
) -> None:
    writing = make_pass(by=ben, match=match)
    client = guest_with(writing)
    _leave(group, ben, anna)
    Membership.objects.create(group=group, user=ben)  # invited again

    assert client.get(url("match_sheet", match)).status_code == 410
    writing.refresh_from_db()
    assert writing.revoked_at is not None


def test_a_pass_whose_makers_account_is_gone_works_no_more(
    group: Group, match: Match, ben: User
) -> None:
    client = guest_with(make_pass(by=ben, match=match))
    ben.delete()  # the membership goes with the account, the pass's maker becomes None

    assert client.get(url("match_sheet", match)).status_code == 410
    assert client.post(url("deal_new", match), X_NIMMT_DEAL, **HX).status_code == 410
    assert match.deals.count() == 0


def test_the_passes_of_the_members_who_stay_keep_working(
    group: Group, match: Match, ben: User, anna: User
) -> None:
    client = guest_with(make_pass(by=anna, match=match))
    _leave(group, ben, anna)
    assert client.get(url("match_sheet", match)).status_code == 200

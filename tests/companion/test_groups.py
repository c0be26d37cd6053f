"""Groups: create, rename, members, invite links, joining, and the group home."""

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.utils import timezone

from companion.models import GameNight, Group, Invite, Match, Membership, Player, Seat
from companion.services import groups as services

pytestmark = pytest.mark.django_db


@pytest.fixture
def ben(group: Group) -> User:
    """Ben, a member (not the owner), linked to the player Ben."""
    user = User.objects.create_user("ben", password="kartenrunde-ben-1")
    Membership.objects.create(group=group, user=user)
    Player.objects.filter(group=group, name="Ben").update(user=user)
    return user


@pytest.fixture
def ben_client(ben: User) -> Client:
    client = Client()
    client.force_login(ben)
    return client


@pytest.fixture
def invite(group: Group, anna: User) -> Invite:
    return Invite.objects.create(group=group, created_by=anna)


def _urls(group: Group, invite: Invite) -> list[tuple[str, str]]:
    g = group.pk
    return [
        ("get", f"/g/{g}/"),
        ("get", f"/g/{g}/settings/"),
        ("post", f"/g/{g}/settings/"),
        ("post", f"/g/{g}/invites/new/"),
        ("post", f"/g/{g}/invites/{invite.pk}/revoke/"),
        ("get", f"/g/{g}/roster/"),
        ("post", f"/g/{g}/roster/"),
        ("post", f"/g/{g}/roster/{group.players.first().pk}/rename/"),
        ("post", f"/g/{g}/roster/{group.players.first().pk}/link/"),
    ]


def test_every_group_url_is_404_for_an_outsider(
    outsider_client: Client, group: Group, invite: Invite
) -> None:
    for method, url in _urls(group, invite):
        response = getattr(outsider_client, method)(url, {"name": "X"})
        assert response.status_code == 404, (method, url)
    assert Player.objects.filter(group=group, name="X").count() == 0
    assert Group.objects.get(pk=group.pk).name == "Donnerstagsrunde"


def test_every_group_url_sends_a_logged_out_visitor_to_log_in(
    client: Client, group: Group, invite: Invite
) -> None:
    # (The invite link itself is for logged-out visitors too: see "Joining" below.)
    urls = [*_urls(group, invite), ("get", "/groups/"), ("get", "/groups/new/")]
    for method, url in urls:
        response = getattr(client, method)(url)
        assert response.status_code == 302, (method, url)
        assert response.url.startswith("/accounts/login/?next="), url


def test_a_player_of_another_group_is_404_even_for_a_member(
    anna_client: Client, group: Group, outsider: User
) -> None:
    stranger = Player.objects.create(group=Group.objects.get(name="Andere Runde"), name="Olaf")
    url = f"/g/{group.pk}/roster/{stranger.pk}/rename/"
    assert anna_client.post(url, {"name": "Hacked"}).status_code == 404
    stranger.refresh_from_db()
    assert stranger.name == "Olaf"


# Creating and renaming -----------------------------------------------------------------


def test_creating_a_group_makes_the_creator_owner_and_player(
    anna_client: Client, anna: User,
) -> None:
    assert anna_client.get("/groups/new/").status_code == 200
    response = anna_client.post(
        "/groups/new/", {"name": "  Skatfreunde ", "players": "Ben\n\nCem\n"}
    )
    group = Group.objects.get(name="Skatfreunde")
    assert response.status_code == 302
    assert response.url == f"/g/{group.pk}/"
    assert group.owner == anna
    assert list(group.memberships.values_list("user__username", "role")) == [("anna", "owner")]
    assert sorted(group.players.values_list("name", "user__username")) == [
        ("Ben", None), ("Cem", None), ("anna", "anna"),
    ]


def test_creating_a_group_with_a_player_twice_saves_nothing(anna_client: Client) -> None:
    response = anna_client.post("/groups/new/", {"name": "Skatfreunde", "players": "Ben\nben"})
    assert response.status_code == 200
    assert "Es gibt schon einen Spieler „ben“ in dieser Gruppe." in response.content.decode()
    assert not Group.objects.filter(name="Skatfreunde").exists()
    assert Player.objects.count() == 0


def test_creating_a_group_without_a_name_saves_nothing(anna_client: Client) -> None:
    response = anna_client.post("/groups/new/", {"name": "   ", "players": ""})
    assert response.status_code == 200
    assert Group.objects.count() == 0


def test_the_group_list_shows_only_my_groups(
    anna_client: Client, group: Group, outsider: User
) -> None:
    body = anna_client.get("/groups/").content.decode()
    assert "Donnerstagsrunde" in body
    assert "Andere Runde" not in body


def test_the_owner_renames_the_group(anna_client: Client, group: Group) -> None:
    response = anna_client.post(f"/g/{group.pk}/settings/", {"name": "Freitagsrunde"})
    assert response.status_code == 302
    assert response.url == f"/g/{group.pk}/settings/"
    group.refresh_from_db()
    assert group.name == "Freitagsrunde"


def test_renaming_with_htmx_answers_with_the_form_partial(
    anna_client: Client, group: Group,
) -> None:
    response = anna_client.post(
        f"/g/{group.pk}/settings/", {"name": "Freitagsrunde"}, HTTP_HX_REQUEST="true"
    )
    body = response.content.decode()
    assert response.status_code == 200
    assert "<html" not in body
    assert body.lstrip().startswith('<form id="rename"')
    assert "Die Gruppe heißt jetzt „Freitagsrunde“." in body
    assert 'id="group-title" hx-swap-oob="true"' in body
    group.refresh_from_db()
    assert group.name == "Freitagsrunde"


def test_renaming_to_nothing_keeps_the_name(anna_client: Client, group: Group) -> None:
    response = anna_client.post(f"/g/{group.pk}/settings/", {"name": "  "}, HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    assert "is-invalid" in response.content.decode()
    group.refresh_from_db()
    assert group.name == "Donnerstagsrunde"


def test_a_member_who_is_not_the_owner_cannot_rename(ben_client: Client, group: Group) -> None:
    assert ben_client.get(f"/g/{group.pk}/settings/").status_code == 200
    assert ben_client.post(f"/g/{group.pk}/settings/", {"name": "Bens Runde"}).status_code == 403
    group.refresh_from_db()
    assert group.name == "Donnerstagsrunde"


def test_the_settings_page_lists_members_with_their_players(
    anna_client: Client, group: Group, ben: User
) -> None:
    body = anna_client.get(f"/g/{group.pk}/settings/").content.decode()
    assert "anna" in body and "ben" in body
    assert "spielt als Ben" in body
    assert "Besitzer" in body


# Invite links ----------------------------------------------------------------------------


def test_the_owner_creates_an_invite_link(anna_client: Client, group: Group) -> None:
    response = anna_client.post(f"/g/{group.pk}/invites/new/")
    assert response.status_code == 302
    invite = Invite.objects.get(group=group)
    assert len(invite.token) >= 32
    body = anna_client.get(f"/g/{group.pk}/settings/").content.decode()
    assert f"http://testserver/join/{invite.token}/" in body


def test_creating_an_invite_with_htmx_answers_with_the_invites_partial(
    anna_client: Client, group: Group
) -> None:
    response = anna_client.post(f"/g/{group.pk}/invites/new/", HTTP_HX_REQUEST="true")
    body = response.content.decode()
    assert body.lstrip().startswith('<div id="invites">')
    assert Invite.objects.get(group=group).token in body


def test_invite_tokens_are_all_different(group: Group, anna: User) -> None:
    tokens = set()
    for _ in range(20):  # revoked as they come: a group has at most INVITES_MAX at once
        invite = services.invite_create(group=group, created_by=anna)
        tokens.add(invite.token)
        services.invite_revoke(invite=invite)
    assert len(tokens) == 20


def test_the_settings_page_costs_the_same_however_often_the_owner_makes_invite_links(
    anna_client: Client, group: Group,
) -> None:
    """Each link is shown with its QR code: tapping "Create invite link" 60 times more
    must not make the page 60 QR codes longer (it was 19 KB with 2 links, 270 KB with 62)."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    page, create = f"/g/{group.pk}/settings/", f"/g/{group.pk}/invites/new/"

    def cost() -> tuple[int, int, int]:
        with CaptureQueriesContext(connection) as queries:
            body = anna_client.get(page).content.decode()
        return len(queries), len(body), body.count('class="form-control invite-link"')

    for _ in range(3):
        anna_client.post(create, HTTP_HX_REQUEST="true")
    queries_3, bytes_3, shown_3 = cost()
    for _ in range(60):
        answer = anna_client.post(create, HTTP_HX_REQUEST="true")
    queries_63, bytes_63, shown_63 = cost()

    assert (shown_3, shown_63) == (3, services.INVITES_MAX)
    assert queries_63 == queries_3
    assert bytes_63 - bytes_3 < (services.INVITES_MAX - 3) * 6_000, (bytes_3, bytes_63)
    assert Invite.objects.filter(group=group, revoked_at__isnull=True).count() == (
        services.INVITES_MAX)
    # The last tap was refused, and the partial says why.
    assert answer.status_code == 200 and 'id="invite-error"' in answer.content.decode()
    # Revoking one makes room for a new one.
    services.invite_revoke(invite=Invite.objects.filter(group=group).first())
    anna_client.post(create, HTTP_HX_REQUEST="true")
    assert Invite.objects.filter(group=group, revoked_at__isnull=True).count() == (
        services.INVITES_MAX)


def test_without_javascript_a_refused_invite_link_is_said_on_the_settings_page(
    anna_client: Client, group: Group, anna: User,
) -> None:
    for _ in range(services.INVITES_MAX):
        services.invite_create(group=group, created_by=anna)
    from django.utils import translation

    response = anna_client.post(f"/g/{group.pk}/invites/new/", follow=True,
                                HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 200
    with translation.override("en"):
        assert services.invites_full_message() in response.content.decode()
    assert Invite.objects.filter(group=group).count() == services.INVITES_MAX


def test_the_owner_revokes_an_invite_link(
    anna_client: Client, group: Group, invite: Invite,
) -> None:
    response = anna_client.post(
        f"/g/{group.pk}/invites/{invite.pk}/revoke/", HTTP_HX_REQUEST="true"
    )
    assert response.status_code == 200
    invite.refresh_from_db()
    assert invite.revoked_at is not None
    assert invite.token not in response.content.decode()


def test_a_member_sees_no_invites_and_cannot_make_or_revoke_them(
    ben_client: Client, group: Group, invite: Invite
) -> None:
    body = ben_client.get(f"/g/{group.pk}/settings/").content.decode()
    assert invite.token not in body
    assert ben_client.post(f"/g/{group.pk}/invites/new/").status_code == 403
    assert ben_client.post(f"/g/{group.pk}/invites/{invite.pk}/revoke/").status_code == 403
    assert Invite.objects.filter(group=group).count() == 1
    invite.refresh_from_db()
    assert invite.revoked_at is None


def test_invite_urls_need_a_post(anna_client: Client, group: Group, invite: Invite) -> None:
    assert anna_client.get(f"/g/{group.pk}/invites/new/").status_code == 405
    assert anna_client.get(f"/g/{group.pk}/invites/{invite.pk}/revoke/").status_code == 405


def test_an_invite_of_another_group_cannot_be_revoked(
    anna_client: Client, group: Group, outsider: User
) -> None:
    other = Group.objects.get(name="Andere Runde")
    foreign = Invite.objects.create(group=other, created_by=outsider)
    assert anna_client.post(f"/g/{group.pk}/invites/{foreign.pk}/revoke/").status_code == 404
    foreign.refresh_from_db()
    assert foreign.revoked_at is None


# Joining ----------------------------------------------------------------------------------


@pytest.fixture
def dora_client(db: None) -> Client:
    client = Client()
    client.force_login(User.objects.create_user("dora", password="kartenrunde-dora-1"))
    return client


def test_the_join_link_asks_to_confirm(dora_client: Client, invite: Invite) -> None:
    response = dora_client.get(f"/join/{invite.token}/")
    body = response.content.decode()
    assert response.status_code == 200
    assert "„Donnerstagsrunde“ beitreten?" in body
    assert not Membership.objects.filter(user__username="dora").exists()


def test_joining_as_a_new_player(dora_client: Client, invite: Invite, group: Group) -> None:
    response = dora_client.post(f"/join/{invite.token}/", {"player": "new"})
    assert response.status_code == 302
    assert response.url == f"/g/{group.pk}/"
    membership = Membership.objects.get(group=group, user__username="dora")
    assert membership.role == "member"
    assert group.players.get(name="dora").user == membership.user


def test_joining_as_a_player_already_on_the_roster(
    dora_client: Client, invite: Invite, group: Group
) -> None:
    cem = group.players.get(name="Cem")
    dora_client.post(f"/join/{invite.token}/", {"player": str(cem.pk)})
    cem.refresh_from_db()
    assert cem.user is not None and cem.user.username == "dora"
    assert group.players.count() == 3


def test_joining_without_choosing_a_player(
    dora_client: Client, invite: Invite, group: Group,
) -> None:
    dora_client.post(f"/join/{invite.token}/", {"player": ""})
    assert Membership.objects.filter(group=group, user__username="dora").exists()
    assert not group.players.filter(user__username="dora").exists()


def test_joining_as_a_player_linked_to_someone_else_is_refused(
    dora_client: Client, invite: Invite, group: Group
) -> None:
    anna_player = group.players.get(name="Anna")
    response = dora_client.post(f"/join/{invite.token}/", {"player": str(anna_player.pk)})
    assert response.status_code == 200
    assert not Membership.objects.filter(group=group, user__username="dora").exists()


def test_an_unknown_invite_token_gives_a_clear_404(dora_client: Client) -> None:
    response = dora_client.get("/join/not-a-token/")
    assert response.status_code == 404
    assert "Dieser Einladungslink funktioniert nicht" in response.content.decode()


def test_a_revoked_invite_cannot_be_used(dora_client: Client, invite: Invite, group: Group) -> None:
    services.invite_revoke(invite=invite)
    assert dora_client.get(f"/join/{invite.token}/").status_code == 404
    assert dora_client.post(f"/join/{invite.token}/", {"player": "new"}).status_code == 404
    assert not Membership.objects.filter(group=group, user__username="dora").exists()


def test_a_member_following_the_link_just_goes_to_the_group(
    anna_client: Client, invite: Invite, group: Group
) -> None:
    response = anna_client.get(f"/join/{invite.token}/")
    assert response.status_code == 302
    assert response.url == f"/g/{group.pk}/"
    assert Membership.objects.filter(group=group).count() == 1


def test_a_logged_out_visitor_sees_which_group_invites_and_who(
    client: Client, invite: Invite
) -> None:
    response = client.get(f"/join/{invite.token}/", HTTP_ACCEPT_LANGUAGE="en")
    html = response.content.decode()
    assert response.status_code == 200
    assert "Join “Donnerstagsrunde”?" in html
    assert "anna invited you." in html
    assert 'name="password2"' in html and 'name="player"' in html
    assert f'href="/accounts/login/?next=/join/{invite.token}/"' in html


def test_a_logged_out_visitor_signs_up_and_joins_in_one_step(
    client: Client, invite: Invite, group: Group
) -> None:
    cem = group.players.get(name="Cem")
    response = client.post(f"/join/{invite.token}/", {
        "username": "cem", "password1": "Doppelkopf-und-Skat-9",
        "password2": "Doppelkopf-und-Skat-9", "player": str(cem.pk),
    })
    assert response.status_code == 302
    assert response.url == f"/g/{group.pk}/"
    cem.refresh_from_db()
    assert cem.user is not None and cem.user.username == "cem"
    assert Membership.objects.filter(group=group, user=cem.user).exists()
    assert client.get(f"/g/{group.pk}/").status_code == 200  # logged in


def test_a_refused_join_keeps_no_account_behind(
    client: Client, invite: Invite, group: Group
) -> None:
    anna_player = group.players.get(name="Anna")  # linked to Anna's account
    response = client.post(f"/join/{invite.token}/", {
        "username": "mallory", "password1": "Doppelkopf-und-Skat-9",
        "password2": "Doppelkopf-und-Skat-9", "player": str(anna_player.pk),
    })
    assert response.status_code == 200
    assert not User.objects.filter(username="mallory").exists()
    assert "_auth_user_id" not in client.session


def test_a_sign_up_with_mismatched_passwords_shows_both_forms_again(
    client: Client, invite: Invite
) -> None:
    response = client.post(f"/join/{invite.token}/", {
        "username": "dora", "password1": "Doppelkopf-und-Skat-9", "password2": "other",
        "player": "new",
    }, HTTP_ACCEPT_LANGUAGE="en")
    html = response.content.decode()
    assert response.status_code == 200
    assert "The two password fields didn’t match." in html
    assert 'value="dora"' in html
    assert not User.objects.filter(username="dora").exists()


def test_a_revoked_invite_gives_a_logged_out_visitor_the_clear_page(
    client: Client, invite: Invite
) -> None:
    services.invite_revoke(invite=invite)
    response = client.get(f"/join/{invite.token}/")
    assert response.status_code == 404
    assert "Dieser Einladungslink funktioniert nicht" in response.content.decode()


def test_a_full_group_refuses_another_member_and_says_why(
    client: Client, dora_client: Client, invite: Invite, group: Group, ben: User,
) -> None:
    # A group of MEMBERS_MAX accounts: a further one is refused (as a visitor signing up
    # too: no account is left behind); one already in it still just goes to the group.
    joined = Membership.objects.filter(group=group).count()
    others = User.objects.bulk_create(
        User(username=f"member{n}") for n in range(services.MEMBERS_MAX - joined))
    Membership.objects.bulk_create(Membership(group=group, user=user) for user in others)

    response = dora_client.post(f"/join/{invite.token}/", {"player": "new"},
                                HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 200
    assert f"This group has {services.MEMBERS_MAX} members already" in (
        response.content.decode())
    german = dora_client.post(f"/join/{invite.token}/", {"player": "new"},
                              HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert f"Diese Gruppe hat schon {services.MEMBERS_MAX} Mitglieder" in german
    response = client.post(f"/join/{invite.token}/", {
        "username": "mallory", "password1": "Doppelkopf-und-Skat-9",
        "password2": "Doppelkopf-und-Skat-9", "player": "new",
    })
    assert response.status_code == 200
    assert not User.objects.filter(username="mallory").exists()
    assert Membership.objects.filter(group=group).count() == services.MEMBERS_MAX
    assert services.group_join(invite=invite, user=ben).user == ben

    Membership.objects.filter(user=others[0]).delete()  # the owner removed someone
    assert dora_client.post(f"/join/{invite.token}/", {"player": "new"}).status_code == 302


def test_joining_twice_changes_nothing(group: Group, invite: Invite, ben: User) -> None:
    before = Membership.objects.get(group=group, user=ben)
    after = services.group_join(invite=invite, user=ben, player=services.NEW_PLAYER)
    assert after.pk == before.pk
    assert group.players.count() == 3


# The group home -----------------------------------------------------------------------


def _finished_match(group: Group, night: GameNight, game: str, winners: set[str]) -> Match:
    match = Match.objects.create(group=group, game_night=night, game=game, status="finished",
                                 finished_at=timezone.now())
    for number, player in enumerate(group.players.order_by("name")):
        Seat.objects.create(match=match, player=player, number=number,
                            is_winner=player.name in winners)
    return match


def test_the_group_home_shows_running_matches_nights_and_winners(
    anna_client: Client, group: Group
) -> None:
    night = GameNight.objects.create(group=group, place="Bei Ben")
    done = _finished_match(group, night, "x-nimmt", {"Ben", "Cem"})
    running = Match.objects.create(group=group, game_night=night, game="dreizehn")
    Seat.objects.create(match=running, player=group.players.get(name="Anna"), number=0)
    response = anna_client.get(f"/g/{group.pk}/")
    body = response.content.decode()
    assert response.status_code == 200
    assert f'href="/g/{group.pk}/matches/new/"' in body
    assert "Neue Partie" in body
    assert f'href="/g/{group.pk}/matches/{done.pk}/"' in body
    assert f'href="/g/{group.pk}/matches/{running.pk}/"' in body
    assert "X nimmt!" in body
    assert "Ben, Cem" in body
    assert "Bei Ben" in body
    assert f'href="/g/{group.pk}/nights/{night.pk}/"' in body
    assert f'href="/g/{group.pk}/roster/"' in body
    assert f'href="/g/{group.pk}/settings/"' in body
    assert f'href="/g/{group.pk}/history/"' in body


def test_the_group_home_lists_the_newest_nights_first(anna_client: Client, group: Group) -> None:
    import datetime as dt

    for day in (3, 1, 2):
        GameNight.objects.create(group=group, date=dt.date(2026, 11, day), place=f"Ort {day}")
    body = anna_client.get(f"/g/{group.pk}/").content.decode()
    assert body.index("Ort 3") < body.index("Ort 2") < body.index("Ort 1")


@pytest.mark.parametrize("matches", [2, 20])
def test_the_group_home_runs_the_same_queries_however_many_matches(
    anna_client: Client, group: Group, matches: int, django_assert_max_num_queries
) -> None:
    nights = [GameNight.objects.create(group=group, place=f"N{n}") for n in range(matches // 2)]
    for n in range(matches):
        _finished_match(group, nights[n % len(nights)], "freaky", {"Anna"})
        running = Match.objects.create(group=group, game_night=nights[0], game="elf-nimmt")
        Seat.objects.create(match=running, player=group.players.get(name="Cem"), number=0)
    with django_assert_max_num_queries(10):
        response = anna_client.get(f"/g/{group.pk}/")
    assert response.status_code == 200


def test_the_group_home_query_count_does_not_grow_from_2_to_20_matches(
    anna_client: Client, group: Group
) -> None:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    night = GameNight.objects.create(group=group)

    def count() -> int:
        with CaptureQueriesContext(connection) as ctx:
            anna_client.get(f"/g/{group.pk}/")
        return len(ctx.captured_queries)

    for _ in range(2):
        _finished_match(group, night, "x-nimmt", {"Anna"})
    with_two = count()
    for n in range(18):
        _finished_match(group, GameNight.objects.create(group=group, place=f"N{n}"), "dreizehn",
                        {"Ben"})
    assert count() == with_two


def test_an_outsider_sees_the_friendly_404_page(
    outsider_client: Client, group: Group, settings
) -> None:
    settings.DEBUG = False
    response = outsider_client.get(f"/g/{group.pk}/")
    assert response.status_code == 404
    assert "Diese Seite gibt es nicht" in response.content.decode()


def test_a_member_who_is_not_the_owner_sees_why_a_change_is_not_allowed(
    ben_client: Client, group: Group, settings
) -> None:
    settings.DEBUG = False
    response = ben_client.post(f"/g/{group.pk}/invites/new/")
    assert response.status_code == 403
    assert "Das kann nur der Besitzer der Gruppe." in response.content.decode()

"""Roles (who may link, remove, leave), clean names, invite expiry and the group's log."""

from __future__ import annotations

import datetime as dt

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.utils import timezone

from companion.models import Group, GroupChange, Invite, Membership, Player
from companion.services import groups as services

pytestmark = pytest.mark.django_db

EN = {"HTTP_ACCEPT_LANGUAGE": "en"}
DE = {"HTTP_ACCEPT_LANGUAGE": "de"}


@pytest.fixture
def cora(group: Group) -> User:
    user = User.objects.create_user("cora", password="kartenrunde-cora-1")
    Membership.objects.create(group=group, user=user, role=Membership.Role.MEMBER)
    return user


def client_for(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


def link(client: Client, group: Group, player: Player, user: User | None, **headers: str):
    return client.post(f"/g/{group.pk}/roster/{player.pk}/link/",
                       {"user": user.pk if user else ""}, **headers)


# ------------------------------------------------------------------------------ links


def test_a_member_links_themselves_to_an_unlinked_player(group: Group, ben: User) -> None:
    player = group.players.get(name="Ben")
    response = link(client_for(ben), group, player, ben)
    assert response.status_code == 302
    player.refresh_from_db()
    assert player.user == ben
    change = GroupChange.objects.get(group=group, kind=GroupChange.Kind.LINK)
    assert (change.created_by, change.detail) == (ben, {"player": "Ben", "user": "ben"})


@pytest.mark.parametrize(("headers", "message"), [
    (EN, "Only the owner of the group can link a player to someone else&#x27;s account"),
    (DE, "Nur der Besitzer der Gruppe kann einen Spieler mit dem Konto eines anderen "
         "verknüpfen"),
])
def test_a_member_cannot_link_a_player_to_someone_elses_account(
    group: Group, ben: User, cora: User, headers: dict[str, str], message: str
) -> None:
    player = group.players.get(name="Cem")
    response = link(client_for(ben), group, player, cora, **headers)
    assert message in response.content.decode()
    player.refresh_from_db()
    assert player.user is None
    assert not GroupChange.objects.exists()


def test_a_member_cannot_take_over_a_player_linked_to_someone_else(
    group: Group, ben: User, anna: User
) -> None:
    player = group.players.get(name="Anna")
    link(client_for(ben), group, player, ben)
    player.refresh_from_db()
    assert player.user == anna


def test_a_member_cannot_unlink_someone_else(group: Group, ben: User, anna: User) -> None:
    player = group.players.get(name="Anna")
    link(client_for(ben), group, player, None)
    player.refresh_from_db()
    assert player.user == anna


def test_the_owner_links_any_member_and_unlinks(group: Group, anna: User, ben: User) -> None:
    player = group.players.get(name="Cem")
    owner = client_for(anna)
    assert link(owner, group, player, ben).status_code == 302
    player.refresh_from_db()
    assert player.user == ben
    assert link(owner, group, player, None).status_code == 302
    player.refresh_from_db()
    assert player.user is None
    assert [c.kind for c in GroupChange.objects.order_by("id")] == ["link", "unlink"]


def test_a_member_sees_only_their_own_account_to_link(group: Group, ben: User) -> None:
    cem = group.players.get(name="Cem")
    html = client_for(ben).get(f"/g/{group.pk}/roster/{cem.pk}/link/").content.decode()
    assert f'<option value="{ben.pk}"' in html
    assert f'<option value="{group.owner_id}"' not in html


# ------------------------------------------------------------------ remove and leave


def test_the_owner_removes_a_member_and_the_players_history_stays(
    group: Group, anna: User, ben: User
) -> None:
    player = group.players.get(name="Ben")
    services.player_link(player=player, user=ben)
    membership = Membership.objects.get(group=group, user=ben)
    response = client_for(anna).post(f"/g/{group.pk}/members/{membership.pk}/remove/")
    assert response.status_code == 302
    assert not Membership.objects.filter(group=group, user=ben).exists()
    player.refresh_from_db()
    assert (player.name, player.user) == ("Ben", None)
    change = GroupChange.objects.get(kind=GroupChange.Kind.REMOVE)
    assert (change.created_by, change.detail) == (anna, {"user": "ben"})
    assert client_for(ben).get(f"/g/{group.pk}/").status_code == 404


def test_a_member_cannot_remove_members(group: Group, ben: User, cora: User) -> None:
    membership = Membership.objects.get(group=group, user=cora)
    response = client_for(ben).post(f"/g/{group.pk}/members/{membership.pk}/remove/")
    assert response.status_code == 403
    assert Membership.objects.filter(group=group, user=cora).exists()


def test_the_owner_cannot_be_removed(group: Group, anna: User) -> None:
    membership = Membership.objects.get(group=group, user=anna)
    response = client_for(anna).post(f"/g/{group.pk}/members/{membership.pk}/remove/",
                                     follow=True, **EN)
    assert "The owner cannot be removed from the group." in response.content.decode()
    assert Membership.objects.filter(group=group, user=anna).exists()


def test_a_member_leaves_and_their_player_stays(group: Group, ben: User) -> None:
    player = group.players.get(name="Ben")
    services.player_link(player=player, user=ben)
    response = client_for(ben).post(f"/g/{group.pk}/leave/", follow=True, **DE)
    assert "Du hast „Donnerstagsrunde“ verlassen." in response.content.decode()
    assert not Membership.objects.filter(group=group, user=ben).exists()
    player.refresh_from_db()
    assert (player.name, player.user) == ("Ben", None)
    assert GroupChange.objects.get(kind=GroupChange.Kind.LEAVE).created_by == ben


def test_the_owner_cannot_leave(group: Group, anna: User) -> None:
    response = client_for(anna).post(f"/g/{group.pk}/leave/", follow=True, **EN)
    assert "As the owner you cannot leave the group you look after." in response.content.decode()
    assert Membership.objects.filter(group=group, user=anna).exists()


# ------------------------------------------------------------------------------ names


@pytest.mark.parametrize(("typed", "stored"), [
    ("  Dora  ", "Dora"),
    ("Ｄｏｒａ", "Dora"),
    ("Do\u200bra", "Dora"),
    ("\u202eDora\u202c", "Dora"),
    ("Dora\u00a0 Maria", "Dora Maria"),
    ("ﬁne", "fine"),
])
def test_names_are_kept_in_one_clean_form(group: Group, typed: str, stored: str) -> None:
    assert services.player_add(group=group, name=typed).name == stored


@pytest.mark.parametrize(("headers", "message"), [
    (EN, "Please enter a name."), (DE, "Bitte gib einen Namen ein."),
])
def test_a_name_of_only_invisible_characters_is_refused(
    anna_client: Client, group: Group, headers: dict[str, str], message: str
) -> None:
    response = anna_client.post(f"/g/{group.pk}/roster/", {"name": "\u200b\u202e\u2066"},
                                **headers)
    assert message in response.content.decode()
    assert group.players.count() == 3


@pytest.mark.parametrize(
    "look_alike", ["ＡＮＮＡ", "anna", "An\u200bna", "\u202eAnna", "Anna\ufe0f", "An\u034fna"]
)
def test_a_look_alike_of_a_roster_name_is_refused(
    anna_client: Client, group: Group, look_alike: str
) -> None:
    response = anna_client.post(f"/g/{group.pk}/roster/", {"name": look_alike}, **EN)
    assert "There is already a player called" in response.content.decode()
    assert group.players.count() == 3


def test_a_group_name_is_cleaned_and_renames_are_logged(group: Group, anna: User) -> None:
    response = client_for(anna).post(f"/g/{group.pk}/settings/",
                                     {"name": "Ｆｒｅｉｔａｇｓ\u200brunde "})
    assert response.status_code == 302
    group.refresh_from_db()
    assert group.name == "Freitagsrunde"
    change = GroupChange.objects.get(kind=GroupChange.Kind.RENAME)
    assert change.detail == {"from": "Donnerstagsrunde", "to": "Freitagsrunde"}


# ---------------------------------------------------------------------------- invites


def test_a_new_invite_link_works_for_14_days(group: Group, anna: User) -> None:
    before = timezone.now()
    client_for(anna).post(f"/g/{group.pk}/invites/new/")
    invite = Invite.objects.get(group=group)
    assert invite.expires_at is not None
    assert dt.timedelta(days=14) <= invite.expires_at - before < dt.timedelta(days=14, minutes=1)


@pytest.mark.parametrize(("headers", "message"), [
    (EN, "as invite links work for 14 days. Ask the group's owner to renew it"),
    (DE, "denn Einladungslinks gelten 14 Tage. Bitte den Besitzer der Gruppe, ihn zu verlängern"),
])
def test_an_expired_invite_link_says_so(
    group: Group, anna: User, headers: dict[str, str], message: str
) -> None:
    invite = Invite.objects.create(group=group, created_by=anna,
                                   expires_at=timezone.now() - dt.timedelta(minutes=1))
    stranger = User.objects.create_user("dora", password="kartenrunde-dora-1")
    response = client_for(stranger).get(f"/join/{invite.token}/", **headers)
    assert response.status_code == 410
    assert message in response.content.decode()
    response = client_for(stranger).post(f"/join/{invite.token}/", {"player": "new"})
    assert not Membership.objects.filter(user=stranger).exists()


def test_an_expired_invite_link_can_be_renewed(group: Group, anna: User) -> None:
    invite = Invite.objects.create(group=group, created_by=anna,
                                   expires_at=timezone.now() - dt.timedelta(days=1))
    owner = client_for(anna)
    assert "expired" in owner.get(f"/g/{group.pk}/settings/", **EN).content.decode()
    assert owner.post(f"/g/{group.pk}/invites/{invite.pk}/renew/").status_code == 302
    invite.refresh_from_db()
    assert invite.expires_at is not None
    assert invite.expires_at > timezone.now() + dt.timedelta(days=13)
    stranger = User.objects.create_user("dora", password="kartenrunde-dora-1")
    assert client_for(stranger).get(f"/join/{invite.token}/").status_code == 200


def test_a_member_cannot_renew_invites(group: Group, anna: User, ben: User) -> None:
    invite = Invite.objects.create(group=group, created_by=anna)
    assert client_for(ben).post(f"/g/{group.pk}/invites/{invite.pk}/renew/").status_code == 403


# -------------------------------------------------------------------------------- log


def test_the_settings_page_shows_who_changed_what(group: Group, anna: User, ben: User) -> None:
    invite = services.invite_create(group=group, created_by=anna)
    dora = User.objects.create_user("dora", password="kartenrunde-dora-1")
    services.group_join(invite=invite, user=dora, player=services.NEW_PLAYER)
    services.player_rename(player=group.players.get(name="Cem"), name="Cemal", by=ben)
    services.player_link(player=group.players.get(name="Ben"), user=ben, by=ben)
    services.member_remove(membership=Membership.objects.get(group=group, user=dora), by=anna)
    english = client_for(ben).get(f"/g/{group.pk}/settings/", **EN).content.decode()
    for line in ("anna</span> created an invite link",
                 "dora</span> joined the group as dora",
                 "ben</span> renamed the player “Cemal”".replace("Cemal", "Cem") + " to “Cemal”",
                 "ben</span> linked the player Ben to the account ben",
                 "anna</span> removed dora from the group"):
        assert line in english
    german = client_for(ben).get(f"/g/{group.pk}/settings/", **DE).content.decode()
    assert "anna</span> hat dora aus der Gruppe entfernt" in german
    assert "ben</span> hat den Spieler „Cem“ in „Cemal“ umbenannt" in german


def test_a_look_alike_username_is_refused_at_signup(anna: User) -> None:
    response = Client().post("/accounts/signup/", {
        "username": "ＡＮＮＡ",
        "password1": "kartenrunde-x-1234", "password2": "kartenrunde-x-1234",
    }, **EN)
    assert response.status_code == 200
    assert "A user with that username already exists." in response.content.decode()
    assert User.objects.count() == 1

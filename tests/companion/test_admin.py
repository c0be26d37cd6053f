"""The Django admin knows every model, with search and filters that work."""

import pytest
from django.apps import apps
from django.contrib import admin
from django.contrib.auth.models import User
from django.test import Client

from companion.models import (
    ChangeReceipt,
    Deal,
    DealScore,
    GameCount,
    GameNight,
    GameRecord,
    Group,
    GroupChange,
    Invite,
    Match,
    MatchChange,
    PairRecord,
    PlayerRecord,
    Rating,
    RatingStep,
    Seat,
    SeatResult,
)
from companion.services.passes import table_pass_create
from companion.services.results import match_counted, match_results_update

pytestmark = pytest.mark.django_db

MODELS = [m for m in apps.get_app_config("companion").get_models()]


@pytest.fixture
def admin_client_with_data(client: Client, group: Group, anna: User) -> Client:
    night = GameNight.objects.create(group=group, place="Bei Ben")
    match = Match.objects.create(group=group, game_night=night, game="x-nimmt")
    players = list(group.players.order_by("name"))
    for number, player in enumerate(players):
        Seat.objects.create(match=match, player=player, number=number)
    deal = Deal.objects.create(match=match, number=1)
    for player in players:
        DealScore.objects.create(deal=deal, player=player, data={"hand": 3}, score=3)
    MatchChange.objects.create(match=match, kind="record", deal_number=1, created_by=anna)
    Invite.objects.create(group=group, created_by=anna)
    table_pass_create(created_by=anna, may_write=True, match=match)
    GroupChange.objects.create(group=group, kind="join", detail={"user": "anna"}, created_by=anna)
    ChangeReceipt.objects.create(user=anna, key="finish-key-1", action="finish",
                                 fingerprint="0" * 64, group=group, match=match)
    client.force_login(User.objects.create_superuser("root", password="root-pass-123"))
    return client


def test_every_companion_model_is_in_the_admin() -> None:
    missing = [m.__name__ for m in MODELS if m not in admin.site._registry]
    assert missing == []


@pytest.mark.parametrize("model", MODELS, ids=lambda m: m.__name__)
def test_the_changelist_search_and_add_pages_work(admin_client_with_data: Client, model) -> None:
    derived = model in (SeatResult, PlayerRecord, PairRecord, GameRecord, GameCount, Rating,
                        RatingStep, ChangeReceipt)
    if derived:  # the statistics kept per finished match: finish the match
        match = Match.objects.get()
        match.status = Match.Status.FINISHED
        match.save(update_fields=["status"])
        match_results_update(match=match)
        match_counted(match=match, delta=1)  # as match_start does
    base = f"/admin/companion/{model._meta.model_name}/"
    listing = admin_client_with_data.get(base)
    assert listing.status_code == 200
    assert listing.context["cl"].result_count >= 1
    assert admin_client_with_data.get(base, {"q": "Ben"}).status_code == 200
    # Kept per finished match, they are shown, never added or edited by hand.
    assert admin_client_with_data.get(f"{base}add/").status_code == (403 if derived else 200)
    obj = model.objects.first()
    assert admin_client_with_data.get(f"{base}{obj.pk}/change/").status_code == 200


def test_searching_players_by_name(admin_client_with_data: Client) -> None:
    response = admin_client_with_data.get("/admin/companion/player/", {"q": "cem"})
    assert [p.name for p in response.context["cl"].result_list] == ["Cem"]


def test_searching_matches_by_a_player_lists_each_match_once(
    admin_client_with_data: Client,
) -> None:
    response = admin_client_with_data.get("/admin/companion/match/", {"q": "e"})
    assert response.context["cl"].result_count == 1


def test_filtering_invites_by_revoked(admin_client_with_data: Client) -> None:
    response = admin_client_with_data.get(
        "/admin/companion/invite/", {"revoked_at__isempty": "1"}
    )
    assert response.context["cl"].result_count == 1


def test_the_revoke_action_revokes_invites(admin_client_with_data: Client) -> None:
    invite = Invite.objects.get()
    admin_client_with_data.post(
        "/admin/companion/invite/",
        {"action": "revoke", "_selected_action": [str(invite.pk)]},
    )
    invite.refresh_from_db()
    assert invite.revoked_at is not None


def test_the_admin_is_closed_to_ordinary_members(anna_client: Client) -> None:
    response = anna_client.get("/admin/companion/group/")
    assert response.status_code == 302
    assert response.url.startswith("/admin/login/")

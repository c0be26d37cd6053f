"""Check-then-insert races end in a form error, never in a 500.

Two phones adding "Anna" (or signing up as "zoe") at once both pass the form's
check; the database's unique constraint refuses the second insert. These tests
make the check miss, as the race does, and look at what the second phone gets.
The races themselves run in tests/companion/test_concurrency.py.
"""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.test import Client
from django.urls import reverse
from django.utils import translation

from companion.forms.accounts import SignupForm
from companion.models import Group, Player
from companion.services import groups as services


@pytest.fixture
def check_misses(monkeypatch: pytest.MonkeyPatch) -> None:
    """The roster check passes every name, as for the second of two phones racing."""
    monkeypatch.setattr(services, "_clean_player_name", lambda **kwargs: kwargs["name"])


@pytest.mark.django_db
@pytest.mark.parametrize("name", ["Anna", "ANNA", "anna"])
def test_the_roster_refuses_a_name_that_differs_only_in_case(
    anna_client: Client, group: Group, name: str
) -> None:
    response = anna_client.post(
        reverse("roster", args=[group.pk]), {"name": name}, HTTP_ACCEPT_LANGUAGE="en"
    )
    assert response.status_code == 200
    html = response.content.decode()
    assert f"There is already a player called “{name}” in this group." in html
    assert group.players.filter(name__iexact="anna").count() == 1


@pytest.mark.django_db
def test_the_refusal_is_german_by_default(anna_client: Client, group: Group) -> None:
    response = anna_client.post(reverse("roster", args=[group.pk]), {"name": "anna"})
    assert "Es gibt schon einen Spieler „anna“ in dieser Gruppe." in response.content.decode()


@pytest.mark.django_db
def test_the_database_refuses_a_name_the_check_missed(group: Group, check_misses: None) -> None:
    with pytest.raises(ValidationError) as refused, translation.override("en"):
        services.player_add(group=group, name="aNNa")
    assert refused.value.code == "unique"
    assert refused.value.messages == ["There is already a player called “aNNa” in this group."]
    assert group.players.count() == 3


@pytest.mark.django_db
def test_a_roster_addition_losing_the_race_gets_the_form_message(
    anna_client: Client, group: Group, check_misses: None
) -> None:
    response = anna_client.post(
        reverse("roster", args=[group.pk]), {"name": "ben"}, HTTP_ACCEPT_LANGUAGE="en"
    )
    assert response.status_code == 200
    assert "There is already a player called “ben” in this group." in response.content.decode()
    assert sorted(group.players.values_list("name", flat=True)) == ["Anna", "Ben", "Cem"]


@pytest.mark.django_db
def test_a_rename_losing_the_race_gets_the_form_message_and_keeps_the_old_name(
    anna_client: Client, group: Group, players: list[Player], check_misses: None
) -> None:
    cem = players[2]
    response = anna_client.post(
        reverse("player_rename", args=[group.pk, cem.pk]), {"name": "BEN"},
        HTTP_ACCEPT_LANGUAGE="en",
    )
    assert response.status_code == 200
    assert "There is already a player called “BEN” in this group." in response.content.decode()
    cem.refresh_from_db()
    assert cem.name == "Cem"


@pytest.mark.django_db
def test_a_signup_losing_the_race_gets_the_form_message(
    client: Client, anna: User, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(SignupForm, "clean_username", lambda form: form.cleaned_data["username"])
    response = client.post(reverse("signup"), {
        "username": "anna", "password1": "ein-langes-passwort-9", "password2":
        "ein-langes-passwort-9",
    }, HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 200
    assert "A user with that username already exists." in response.content.decode()
    assert User.objects.filter(username="anna").count() == 1
    assert "_auth_user_id" not in client.session

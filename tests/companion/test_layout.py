"""The site layout (base.html) on every page: what it costs in queries, that it shows each
request its own user, token and language, and that Django's sessions log out who must be
logged out."""

from __future__ import annotations

import datetime
import re
from typing import Any

import pytest
from django.apps import apps
from django.contrib.auth.models import User
from django.contrib.sessions.backends.db import SessionStore
from django.contrib.sessions.models import Session
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.test import Client
from django.urls import include, path
from django.utils import timezone

pytestmark = [pytest.mark.django_db, pytest.mark.urls(__name__)]


def layout(request: HttpRequest) -> HttpResponse:
    return render(request, "base.html")


urlpatterns = [path("layout/", layout), path("", include("companion.urls"))]


def test_the_layout_page_reads_the_session_and_its_user_and_nothing_else(
    anna_client: Client, django_assert_num_queries: Any
) -> None:
    anna_client.get("/layout/")
    with django_assert_num_queries(2):
        response = anna_client.get("/layout/")
    assert "Angemeldet als anna" in response.content.decode()


def test_the_layout_page_runs_no_query_for_a_visitor(
    client: Client, django_assert_num_queries: Any
) -> None:
    with django_assert_num_queries(0):
        assert client.get("/layout/").status_code == 200


def test_the_layout_shows_each_user_their_own_name(client: Client, anna: User) -> None:
    ben = User.objects.create_user("ben", password="kartenrunde-ben-1")
    pages = []
    for user in (anna, ben):
        client.force_login(user)
        pages.append(client.get("/layout/").content.decode())
    assert "Angemeldet als anna" in pages[0]
    assert "Angemeldet als ben" in pages[1]
    assert "Angemeldet als anna" not in pages[1]


def test_the_layouts_forms_carry_the_requests_csrf_token(anna: User) -> None:
    client = Client(enforce_csrf_checks=True)
    client.force_login(anna)
    page = client.get("/layout/").content.decode()
    tokens = re.findall(r'name="csrfmiddlewaretoken" value="(\w+)"', page)
    assert len(tokens) == 2
    assert f'"X-CSRFToken": "{tokens[0]}"' in page
    response = client.post("/i18n/setlang/", {
        "csrfmiddlewaretoken": tokens[1], "language": "en", "next": "/layout/",
    })
    assert response.status_code == 302
    assert client.post("/accounts/logout/", {"csrfmiddlewaretoken": tokens[0]}).url == "/"


def test_the_layout_speaks_each_requests_language(anna_client: Client) -> None:
    german = anna_client.get("/layout/").content.decode()
    english = anna_client.get("/layout/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert '<html lang="de"' in german
    assert ">Gruppen</a>" in german
    assert ">Abmelden</button>" in german
    assert '<html lang="en"' in english
    assert ">Groups</a>" in english
    assert ">Log out</button>" in english
    assert 'name="next" type="hidden" value="/layout/"' in english


def test_the_layout_keeps_the_page_it_came_from_for_the_language_switch(client: Client) -> None:
    page = client.get("/layout/?from=%22x%22").content.decode()
    assert 'name="next" type="hidden" value="/layout/?from=%22x%22"' in page


def test_the_account_menu_is_a_details_menu_without_bootstrap_javascript(
    anna_client: Client,
) -> None:
    page = anna_client.get("/layout/").content.decode()
    assert '<details class="dropdown account-menu">' in page
    assert 'aria-label="Dein Konto"' in page
    assert "bootstrap.bundle" not in page
    assert "data-bs-toggle" not in page
    assert 'root.classList.add("js");' in page


# ---------------------------------------------------------------- session and user


def test_a_logged_out_session_cannot_be_used_again(anna_client: Client) -> None:
    cookie = anna_client.cookies["sessionid"].value
    anna_client.post("/accounts/logout/")
    thief = Client()
    thief.cookies["sessionid"] = cookie
    response = thief.get("/groups/")
    assert response.status_code == 302
    assert response.url == "/accounts/login/?next=/groups/"


def test_changing_the_password_logs_out_the_other_sessions(anna: User) -> None:
    phone, laptop = Client(), Client()
    for device in (phone, laptop):
        assert device.post("/accounts/login/", {
            "username": "anna", "password": "kartenrunde-anna-1",
        }).status_code == 302
    phone.post("/accounts/password/", {
        "old_password": "kartenrunde-anna-1", "new_password1": "Neues-Passwort-42",
        "new_password2": "Neues-Passwort-42",
    })
    assert phone.get("/groups/").status_code == 200
    assert laptop.get("/groups/").url == "/accounts/login/?next=/groups/"


def test_an_expired_session_logs_nobody_in(anna_client: Client) -> None:
    Session.objects.update(expire_date=timezone.now() - datetime.timedelta(seconds=1))
    assert anna_client.get("/groups/").status_code == 302


def test_a_deactivated_account_is_logged_out(anna_client: Client, anna: User) -> None:
    User.objects.filter(pk=anna.pk).update(is_active=False)
    assert anna_client.get("/groups/").status_code == 302


def test_sessions_of_the_former_login_backend_are_moved_to_djangos(anna: User) -> None:
    migration = __import__(
        "companion.migrations.0008_sessions_model_backend", fromlist=["forwards"]
    )
    store = SessionStore()
    store.update({
        "_auth_user_id": str(anna.pk), "_auth_user_backend": migration.ACCOUNT_BACKEND,
        "_auth_user_hash": anna.get_session_auth_hash(),
    })
    store.create()
    client = Client()
    client.cookies["sessionid"] = store.session_key
    assert client.get("/groups/").status_code == 302  # a backend no longer configured
    editor = type("Editor", (), {"connection": type("Connection", (), {"alias": "default"})})
    migration.forwards(apps, editor)
    assert SessionStore(store.session_key).load()["_auth_user_backend"] == (
        "django.contrib.auth.backends.ModelBackend")
    assert client.get("/groups/").status_code == 200


def test_the_layout_writes_the_users_name_and_id_escaped(client: Client) -> None:
    odd = User.objects.create_user('a<b>&"c', password="kartenrunde-odd-1")
    visitor_page = client.get("/layout/").content.decode()
    client.force_login(odd)
    page = client.get("/layout/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Logged in as a&lt;b&gt;&amp;&quot;c</span>" in page
    assert f'data-user="{odd.pk}">' in page
    assert 'data-user="">' in visitor_page


def test_a_tampered_session_logs_nobody_in_however_often_it_comes(anna_client: Client) -> None:
    session = Session.objects.get()
    data = session.session_data
    forged = data[:-3] + ("AAA" if data[-3:] != "AAA" else "BBB")
    Session.objects.update(session_data=forged)
    for _ in range(2):
        assert anna_client.get("/groups/").status_code == 302
    Session.objects.update(session_data=data)
    assert anna_client.get("/groups/").status_code == 200


def test_the_layout_renders_without_a_request_as_for_a_visitor() -> None:
    from django.template.loader import get_template

    page = get_template("base.html").render({})
    assert 'data-user="">' in page
    assert 'name="csrfmiddlewaretoken" value=""' in page
    assert 'name="next" type="hidden" value=""' in page
    assert ">Anmelden</a>" in page


def test_a_session_that_names_another_user_now_shows_that_user(anna_client: Client) -> None:
    ben = User.objects.create_user("ben", password="kartenrunde-ben-1")
    assert "Angemeldet als anna" in anna_client.get("/layout/").content.decode()
    key = anna_client.cookies["sessionid"].value
    data = SessionStore().encode({
        "_auth_user_id": str(ben.pk), "_auth_user_hash": ben.get_session_auth_hash(),
        "_auth_user_backend": "django.contrib.auth.backends.ModelBackend",
    })
    Session.objects.filter(pk=key).update(session_data=data)  # as another process would
    assert "Angemeldet als ben" in anna_client.get("/layout/").content.decode()


def test_a_deleted_account_is_logged_out(anna_client: Client, anna: User) -> None:
    assert anna_client.get("/groups/").status_code == 200
    anna.delete()
    assert anna_client.get("/groups/").status_code == 302

import pytest
from django.contrib.auth.models import User
from django.test import Client

pytestmark = pytest.mark.django_db

PASSWORD = "Skat-und-Doppelkopf-7"


def _signup(client: Client, username: str = "dora", next_url: str = "", **extra: str):
    data = {"username": username, "password1": PASSWORD, "password2": PASSWORD, **extra}
    if next_url:
        data["next"] = next_url
    return client.post("/accounts/signup/", data)


def test_the_signup_page_is_german_by_default(client: Client) -> None:
    body = client.get("/accounts/signup/").content.decode()
    assert "Registrieren" in body
    assert "Benutzername" in body


def test_the_signup_page_speaks_english_on_request(client: Client) -> None:
    body = client.get("/accounts/signup/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Sign up" in body
    assert "Username" in body


def test_signing_up_creates_the_account_logs_in_and_goes_to_create_a_group(
    client: Client,
) -> None:
    response = _signup(client)
    assert response.status_code == 302
    assert response.url == "/groups/new/"
    user = User.objects.get(username="dora")
    assert user.check_password(PASSWORD)
    assert int(client.session["_auth_user_id"]) == user.pk


def test_the_new_account_is_logged_in_on_the_next_page(client: Client) -> None:
    _signup(client)
    response = client.get("/groups/new/")
    assert response.status_code == 200
    assert response.wsgi_request.user.get_username() == "dora"


def test_signing_up_goes_on_to_the_invite_it_came_from(client: Client) -> None:
    response = _signup(client, next_url="/join/abc/")
    assert response.url == "/join/abc/"


def test_signing_up_ignores_a_next_url_on_another_site(client: Client) -> None:
    response = _signup(client, next_url="https://evil.example/")
    assert response.url == "/groups/new/"


def test_signing_up_with_mismatched_passwords_saves_nothing(client: Client) -> None:
    response = _signup(client, password2="something-else-9")
    assert response.status_code == 200
    assert not User.objects.filter(username="dora").exists()
    assert "_auth_user_id" not in client.session


def test_signing_up_with_a_taken_name_saves_nothing(client: Client, anna: User) -> None:
    response = _signup(client, username="anna")
    assert response.status_code == 200
    assert User.objects.filter(username="anna").count() == 1
    assert "_auth_user_id" not in client.session


def test_a_logged_in_user_is_sent_on_from_signup(anna_client: Client) -> None:
    assert anna_client.get("/accounts/signup/").url == "/"


def test_logging_in_goes_home(client: Client, anna: User) -> None:
    response = client.post(
        "/accounts/login/", {"username": "anna", "password": "kartenrunde-anna-1"}
    )
    assert response.status_code == 302
    assert response.url == "/"
    assert int(client.session["_auth_user_id"]) == anna.pk


def test_logging_in_with_a_wrong_password_fails_with_a_message(client: Client, anna: User) -> None:
    response = client.post("/accounts/login/", {"username": "anna", "password": "wrong"})
    assert response.status_code == 200
    assert "_auth_user_id" not in client.session
    assert "Beide Felder berücksichtigen die Groß-/Kleinschreibung" in response.content.decode()


def test_logging_out_needs_a_post(anna_client: Client) -> None:
    assert anna_client.get("/accounts/logout/").status_code == 405
    response = anna_client.post("/accounts/logout/")
    assert response.status_code == 302
    assert response.url == "/"
    assert "_auth_user_id" not in anna_client.session


def test_changing_the_password(anna_client: Client, anna: User) -> None:
    assert anna_client.get("/accounts/password/").status_code == 200
    response = anna_client.post(
        "/accounts/password/",
        {"old_password": "kartenrunde-anna-1", "new_password1": PASSWORD,
         "new_password2": PASSWORD},
    )
    assert response.url == "/accounts/password/done/"
    anna.refresh_from_db()
    assert anna.check_password(PASSWORD)
    assert anna_client.get("/accounts/password/done/").status_code == 200


def test_changing_the_password_with_a_wrong_old_one_changes_nothing(
    anna_client: Client, anna: User
) -> None:
    response = anna_client.post(
        "/accounts/password/",
        {"old_password": "wrong", "new_password1": PASSWORD, "new_password2": PASSWORD},
    )
    assert response.status_code == 200
    anna.refresh_from_db()
    assert anna.check_password("kartenrunde-anna-1")


@pytest.mark.parametrize(
    "url", ["/accounts/", "/accounts/password/", "/accounts/password/done/"]
)
def test_account_pages_send_a_logged_out_visitor_to_log_in(client: Client, url: str) -> None:
    response = client.get(url)
    assert response.status_code == 302
    assert response.url == f"/accounts/login/?next={url}"


def test_the_account_page_lists_the_users_groups(anna_client: Client, group: object) -> None:
    body = anna_client.get("/accounts/").content.decode()
    assert "Donnerstagsrunde" in body
    assert 'action="/accounts/logout/"' in body


def test_the_navigation_offers_log_in_or_the_account(client: Client, anna: User) -> None:
    body = client.get("/").content.decode()
    assert 'href="/accounts/login/"' in body
    assert 'href="/rules/"' in body
    client.force_login(anna)
    body = client.get("/").content.decode()
    assert 'href="/groups/"' in body
    assert 'action="/accounts/logout/"' in body
    assert 'href="/accounts/login/"' not in body


# ------------------------------------------------------------------ next is a path (issue 21)


@pytest.mark.parametrize("next_url", ["x", "home", "group_create", "//evil.example/",
                                      "https://evil.example/", "javascript:alert(1)",
                                      "\\\\evil.example", "/\\evil.example"])
def test_a_next_that_is_no_path_of_this_site_is_ignored_and_the_account_logged_in(
    client: Client, next_url: str
) -> None:
    response = client.post(f"/accounts/signup/?next={next_url}", {
        "username": "dora", "password1": PASSWORD, "password2": PASSWORD})
    assert (response.status_code, response.url) == (302, "/groups/new/")
    assert int(client.session["_auth_user_id"]) == User.objects.get(username="dora").pk


@pytest.mark.parametrize("next_url", ["x", "home", "//evil.example/"])
def test_a_signed_in_visitor_of_the_signup_page_goes_home_whatever_next_says(
    client: Client, next_url: str
) -> None:
    client.force_login(User.objects.create_user("dora", password=PASSWORD))
    response = client.get(f"/accounts/signup/?next={next_url}")
    assert (response.status_code, response.url) == (302, "/")


@pytest.mark.parametrize("next_url", ["x", "home", "//evil.example/"])
def test_logging_in_with_a_next_that_is_no_path_goes_home(client: Client, next_url: str) -> None:
    User.objects.create_user("dora", password=PASSWORD)
    response = client.post(f"/accounts/login/?next={next_url}",
                           {"username": "dora", "password": PASSWORD})
    assert (response.status_code, response.url) == (302, "/")


def test_logging_in_goes_on_to_a_path_of_this_site(client: Client) -> None:
    User.objects.create_user("dora", password=PASSWORD)
    response = client.post("/accounts/login/?next=/join/abc/",
                           {"username": "dora", "password": PASSWORD})
    assert response.url == "/join/abc/"


# --- Signups throttled per address (issue 30, item 10) --------------------------------------


@pytest.fixture
def three_an_hour(settings) -> None:
    from django.core.cache import cache

    settings.SIGNUP_THROTTLE_LIMIT = 3
    settings.SIGNUP_THROTTLE_WINDOW = 3600
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]  # fast
    cache.clear()


def _from(address: str, username: str, language: str = "en", forwarded: str = ""):
    extra = {"HTTP_X_FORWARDED_FOR": forwarded} if forwarded else {}
    return Client(REMOTE_ADDR=address, HTTP_ACCEPT_LANGUAGE=language, **extra).post(
        "/accounts/signup/",
        {"username": username, "password1": PASSWORD, "password2": PASSWORD},
    )


def test_signups_from_one_address_are_paused_after_the_limit(three_an_hour: None) -> None:
    made = [_from("203.0.113.5", f"spieler{n}").status_code for n in range(3)]
    refused = _from("203.0.113.5", "spieler3")
    german = _from("203.0.113.5", "spieler4", language="de")

    assert made == [302, 302, 302]
    assert refused.status_code == 429 and german.status_code == 429
    assert "Too many new accounts from this address: please try again in" in (
        refused.content.decode())
    assert "Zu viele neue Konten von dieser Adresse" in german.content.decode()
    assert User.objects.filter(username__startswith="spieler").count() == 3
    assert _from("198.51.100.7", "nachbarin").status_code == 302  # another address


def test_a_refused_form_does_not_use_up_the_addresses_signups(three_an_hour: None) -> None:
    client = Client(REMOTE_ADDR="203.0.113.5", HTTP_ACCEPT_LANGUAGE="en")
    for _ in range(5):
        client.post("/accounts/signup/", {"username": "x", "password1": "a", "password2": "b"})
    assert [_from("203.0.113.5", f"spieler{n}").status_code for n in range(3)] == [302] * 3


def test_signups_behind_a_proxy_count_per_forwarded_address(three_an_hour: None,
                                                            settings) -> None:
    settings.TRUSTED_PROXIES = 1
    made = [_from("10.0.0.1", f"spieler{n}", forwarded="203.0.113.5:4711").status_code
            for n in range(4)]
    garbage = [_from("10.0.0.1", f"skript{n}", forwarded="not-an-ip").status_code
               for n in range(4)]

    assert made == [302, 302, 302, 429]  # "203.0.113.5:4711" is 203.0.113.5 each time
    assert garbage == [302, 302, 302, 429]  # no address: the proxy's own, counted too
    assert _from("10.0.0.1", "nachbarin", forwarded="198.51.100.7").status_code == 302


def test_the_signup_pause_ends_with_its_hour(three_an_hour: None, monkeypatch) -> None:
    from companion import signups

    now = 1_800_000_000.0
    monkeypatch.setattr(signups.time, "time", lambda: now)
    for n in range(3):
        _from("203.0.113.5", f"spieler{n}")
    assert _from("203.0.113.5", "spieler3").status_code == 429
    now += 3600
    assert _from("203.0.113.5", "spieler3").status_code == 302

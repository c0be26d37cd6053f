"""No member of a group ever sees another member's per-user values.

Two ordinary members of one group (same rights, so every kept or cached part that
may be shared between viewers is shared between them) load every page they can
both see, in German and English, taking turns at loading first, twice over so that
whatever a process keeps is warm. No page of one may show the other's user name,
"logged in as" line, CSRF secret or token (in any mask), deal form key, session key
or sheet ETag. Adding a page is one line in ``PAGES``.

The unchanged-sheet poll (304 from the ETag alone) must check the session like every
other request: a logged-out cookie, a session ended by a password change, a
deactivated account and a former member get no 304.
"""

from __future__ import annotations

import random
import re
import secrets
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.http import HttpResponse
from django.middleware.csrf import CSRF_ALLOWED_CHARS, CSRF_SECRET_LENGTH
from django.test import Client
from django.urls import reverse

from companion.models import GameNight, Group, Match, Membership, Player
from companion.services import deals as deal_services
from companion.services import groups as group_services
from companion.services import matches as match_services
from scoring import GAMES
from scoring.common import rules_for

HX = {"HTTP_HX_REQUEST": "true"}
POLL = {**HX, "HTTP_HX_TARGET": "sheet"}
"""What the sheet's poll sends (static/js/sync.js): its answer is rendered once for every
phone of the same kind (companion/shared_renders.py)."""
LOGGED_IN_AS = {"de": "Angemeldet als {}", "en": "Logged in as {}"}
PASSWORD = "kartenrunde-leak-1"


# ------------------------------------------------------------------------- the group


@dataclass
class Member:
    """An ordinary member with an account of their own, on the roster under another name."""

    label: str
    user: User
    player: Player
    client: Client
    pages: list[tuple[str, str]] = field(default_factory=list)
    """(where, text) of every answer this member got: headers and body."""


@dataclass
class World:
    group: Group
    night: GameNight
    seated: list[Player]
    """A's player, B's player and a guest without an account, in seat order."""
    complete: dict[str, Match]
    """Per game: a match played to the end and finished."""
    open: dict[str, Match]
    """Per game: a match one deal short of the end (no deal for one-deal games)."""
    saving: Match
    """An X nimmt! match that takes the deals the save pages record (and undo again)."""


def unguessable(prefix: str) -> str:
    return f"{prefix}{secrets.token_hex(6)}"


def a_match(group: Group, game: str, seated: list[Player], by: User, *, finished: bool) -> Match:
    """A match of ``game`` played by the engine's random legal game, started and recorded by
    ``by`` (the group's owner: the change log names who changed it)."""
    rules = rules_for(game)
    match = match_services.match_start(group=group, game=game, players=seated, user=by)
    played = rules.random_game(len(seated), random.Random(f"{game}-leaks"))
    by_name = dict(zip(played.players, seated, strict=True))
    deals = played.deals if finished else played.deals[:-1]
    for number, entries in enumerate(deals, start=1):
        deal_services.deal_record(match=match, number=number, user=by, entries={
            by_name[name].pk: rules.entry_to_dict(entry) for name, entry in entries.items()})
    if finished:
        match_services.match_finish(match=match, user=by)
    return match


def a_group() -> dict[str, Any]:
    """The group's owner (who plays every match), two ordinary members with unguessable
    names, a guest, and a finished and an open match of every game."""
    owner = User.objects.create_user("owner")
    group = Group.objects.create(name="Donnerstagsrunde", owner=owner)
    Membership.objects.create(group=group, user=owner, role=Membership.Role.OWNER)
    members = []
    for _ in range(2):
        # No password (no hashing: a fifth of a second per account); the roster name is
        # not the user name: every member's sheet shows the roster names.
        user = User.objects.create_user(unguessable("user"))
        Membership.objects.create(group=group, user=user, role=Membership.Role.MEMBER)
        members.append(Player.objects.create(group=group, name=unguessable("Spieler"), user=user))
    guest = Player.objects.create(group=group, name="Cem")
    seated = [*members, guest]
    return {
        "group": group.pk, "seated": [player.pk for player in seated],
        "users": [owner.pk, *(player.user_id for player in members)],
        "complete": {game: a_match(group, game, seated, owner, finished=True).pk
                     for game in GAMES},
        "open": {game: a_match(group, game, seated, owner, finished=False).pk
                 for game in GAMES},
        "saving": match_services.match_start(group=group, game="x-nimmt", players=seated,
                                       user=owner).pk,
    }


@pytest.fixture(scope="module")
def stored(django_db_setup: None, django_db_blocker: Any) -> Iterator[dict[str, Any]]:
    """The group, stored once for the module (a tenth of a second per match); every test
    runs in a transaction of its own, rolled back after it (the saves, the logouts)."""
    with django_db_blocker.unblock():
        ids = a_group()
    yield ids
    with django_db_blocker.unblock():
        # The matches first: their seats and scores protect the players.
        Match.objects.filter(group=ids["group"]).delete()
        Group.objects.filter(pk=ids["group"]).delete()
        User.objects.filter(pk__in=ids["users"]).delete()


@pytest.fixture
def world(db: None, stored: dict[str, Any]) -> World:
    matches = Match.objects.in_bulk([*stored["complete"].values(), *stored["open"].values(),
                                     stored["saving"]])
    saving = matches[stored["saving"]]
    players = Player.objects.in_bulk(stored["seated"])
    return World(
        Group.objects.get(pk=stored["group"]), saving.game_night,
        [players[pk] for pk in stored["seated"]],
        {game: matches[pk] for game, pk in stored["complete"].items()},
        {game: matches[pk] for game, pk in stored["open"].items()},
        saving,
    )


@pytest.fixture
def members(db: None, stored: dict[str, Any]) -> tuple[Member, Member]:
    """A and B, each logged in on a phone of their own."""
    found = []
    players = Player.objects.select_related("user").in_bulk(stored["seated"][:2])
    for label, pk in zip("AB", stored["seated"][:2], strict=True):
        player = players[pk]
        client = Client()
        client.force_login(player.user)
        found.append(Member(label, player.user, player, client))
    return found[0], found[1]


# ---------------------------------------------------------------------------- pages

Load = Callable[[Client, World], HttpResponse]


@dataclass(frozen=True)
class Page:
    load: Load
    layout: bool = True
    """A whole page: the layout's account menu says who is logged in."""
    names_members: bool = False
    """The page names the group's accounts (roster, members): user names are no leak."""


def match_url(name: str, match: Match, **kwargs: Any) -> str:
    return reverse(name, kwargs={"group_id": match.group_id, "match_id": match.pk, **kwargs})


def group_url(name: str, world: World, **kwargs: Any) -> str:
    return reverse(name, kwargs={"group_id": world.group.pk, **kwargs})


def get(url: Callable[[World], str], **headers: Any) -> Load:
    return lambda client, world: client.get(url(world), **headers)


def sheet(state: str, game: str, query: str = "", **headers: Any) -> Load:
    return get(lambda w: match_url("match_sheet", getattr(w, state)[game]) + query, **headers)


def x_nimmt_deal(match: Match) -> dict[str, Any]:
    return {"mode": "counts", "number": match.deals.count() + 1,
            "s0-hand": "5", "s0-x_stack": "9", "s1-hand": "3", "s2-x_stack": "1"}


def save(**headers: Any) -> Load:
    """The htmx answer to a new deal; the deal is undone again so the next save is alike."""
    def load(client: Client, world: World) -> HttpResponse:
        match = world.saving
        response = client.post(match_url("deal_new", match), x_nimmt_deal(match), **HX, **headers)
        deal_services.match_undo(match=match, user=world.group.owner)
        return response
    return load


def save_with_the_forms_shape(client: Client, world: World) -> HttpResponse:
    """A save from a page whose fresh form is in the next form's entry mode: the answer
    leaves the form out and sends the next number and key in an event."""
    html = client.get(match_url("match_sheet", world.saving)).content.decode()
    fresh = re.search(r'data-fresh="(\w+)"', html)
    assert fresh is not None
    return save(HTTP_KR_FRESH_FORM=fresh[1])(client, world)


def preview(**headers: Any) -> Load:
    return lambda client, world: client.post(
        match_url("deal_preview", world.open["x-nimmt"]), x_nimmt_deal(world.open["x-nimmt"]),
        **headers)


PAGES: dict[str, Page] = {
    **{f"sheet, complete, {game}": Page(sheet("complete", game)) for game in GAMES},
    **{f"sheet, open, {game}": Page(sheet("open", game)) for game in GAMES},
    "sheet, open, table view": Page(sheet("open", "elf-nimmt", "?view=table")),
    "sheet, open, card grid": Page(sheet("open", "x-nimmt", "?mode=grid")),
    **{f"sheet partial (the poll's answer), {state}, {game}": Page(
        sheet(state, game, **POLL), layout=False)
       for game in GAMES for state in ("open", "complete")},
    "sheet partial (htmx, another target)": Page(sheet("open", "dreizehn", **HX), layout=False),
    "deal form in another mode (htmx)": Page(get(
        lambda w: match_url("deal_new", w.open["x-nimmt"]) + "?mode=cards", **HX), layout=False),
    "deal save (htmx)": Page(save(), layout=False),
    "deal save (htmx), the page has the next form": Page(save_with_the_forms_shape, layout=False),
    "deal preview (htmx)": Page(preview(**HX), layout=False),
    "deal preview (no JavaScript)": Page(preview()),
    "deal edit form": Page(get(lambda w: match_url("deal_edit", w.open["x-nimmt"], number=1))),
    "deal edit form (htmx)": Page(get(
        lambda w: match_url("deal_edit", w.open["x-nimmt"], number=1), **HX), layout=False),
    "live board, 3 sind einer zuviel!": Page(get(
        lambda w: match_url("match_live", w.open["drei-sind-einer-zuviel"]))),
    "live board, Freaky": Page(get(lambda w: match_url("match_live", w.open["freaky"]))),
    "live board partial (the poll's answer)": Page(get(
        lambda w: match_url("match_live", w.open["freaky"]), **HX), layout=False),
    "change log": Page(get(lambda w: match_url("match_changes", w.complete["dreizehn"]))),
    "table pass of a match": Page(get(lambda w: match_url("match_pass", w.open["x-nimmt"]))),
    "table pass of a match (htmx)": Page(get(
        lambda w: match_url("match_pass", w.open["x-nimmt"]), **HX), layout=False),
    "table pass of a game night": Page(get(
        lambda w: group_url("night_pass", w, night_id=w.night.pk))),
    "new match": Page(get(lambda w: group_url("match_new", w))),
    "group list": Page(get(lambda w: reverse("group_list"))),
    "group home": Page(get(lambda w: group_url("group_home", w))),
    "game night": Page(get(lambda w: group_url("night_detail", w, night_id=w.night.pk))),
    "history": Page(get(lambda w: group_url("history", w))),
    "history, filtered (htmx)": Page(get(
        lambda w: group_url("history", w) + "?game=freaky", **HX), layout=False),
    "player page": Page(get(lambda w: group_url("player_stats", w, player_id=w.seated[2].pk))),
    "game statistics": Page(get(lambda w: group_url("game_stats", w, game="elf-nimmt"))),
    "head-to-head": Page(get(lambda w: group_url("head_to_head", w)
                             + f"?first={w.seated[2].pk}&second={w.seated[0].pk}")),
    "roster": Page(get(lambda w: group_url("roster", w)), names_members=True),
    "group settings": Page(get(lambda w: group_url("group_settings", w)), names_members=True),
}


# ------------------------------------------------------------------ per-user values


def unmasked(token: str) -> str:
    """The CSRF secret under a masked token (Django's masking: the first half is the mask,
    each character of the second half is the secret's moved on by the mask's)."""
    if len(token) != 2 * CSRF_SECRET_LENGTH:
        return ""
    mask, cipher = token[:CSRF_SECRET_LENGTH], token[CSRF_SECRET_LENGTH:]
    place = CSRF_ALLOWED_CHARS.index
    return "".join(
        CSRF_ALLOWED_CHARS[(place(c) - place(m)) % len(CSRF_ALLOWED_CHARS)]
        for c, m in zip(cipher, mask, strict=True)
    )


ANY_TOKEN = re.compile(rf"(?<![A-Za-z0-9])[A-Za-z0-9]{{{2 * CSRF_SECRET_LENGTH}}}(?![A-Za-z0-9])")
"""Anything shaped like a masked CSRF token, wherever it stands."""
TOKEN = re.compile(r'name="csrfmiddlewaretoken" value="([^"]*)"|"X-CSRFToken": "([^"]*)"')
CLIENT_KEY = re.compile(r'name="client_key" value="([^"]+)"|"key": "([^"]+)"')
ETAG = re.compile(r'"\d+\.(?:de|en)\.(\d+)"')
"""The sheet's ETag: revision, language, user id."""


def csrf_secret(member: Member) -> str | None:
    cookie = member.client.cookies.get(settings.CSRF_COOKIE_NAME)
    return cookie.value if cookie else None


def values_of(member: Member) -> Iterator[tuple[str, str]]:
    """(what, value) of everything that belongs to ``member`` alone."""
    yield "user name", member.user.username
    yield "user id", f'data-user="{member.user.pk}"'
    yield "session key", member.client.cookies[settings.SESSION_COOKIE_NAME].value
    secret = csrf_secret(member)
    if secret:
        yield "CSRF secret", secret
    for _where, text in member.pages:
        for found in CLIENT_KEY.finditer(text):
            yield "deal form key", found[1] or found[2]


def others_values(viewer: Member, owner: Member, page: Page) -> list[str]:
    """What ``viewer``'s answers show of ``owner``'s values."""
    secret = csrf_secret(owner)
    found = []
    for what, value in sorted(set(values_of(owner))):
        if what == "user name" and page.names_members:
            continue
        found += [f"{where} as {viewer.label} shows {owner.label}'s {what} {value!r}"
                  for where, text in viewer.pages if value in text]
    for where, text in viewer.pages:
        found += [f"{where} as {viewer.label} shows {owner.label}'s CSRF token {token!r}"
                  for token in ANY_TOKEN.findall(text) if secret and unmasked(token) == secret]
    return found


def not_own(viewer: Member) -> list[str]:
    """What ``viewer``'s answers carry that is not theirs (also a copy kept from a session
    gone by, which no other member's values give away): a CSRF token of another secret,
    an ETag of another user."""
    secret = csrf_secret(viewer)
    found = []
    for where, text in viewer.pages:
        found += [f"{where} as {viewer.label} carries a CSRF token of another secret {token!r}"
                  for pair in TOKEN.findall(text) for token in pair
                  if token and unmasked(token) != secret]
        found += [f"{where} as {viewer.label} carries an ETag of user {user}"
                  for user in ETAG.findall(text) if user != str(viewer.user.pk)]
    return found


def keys_twice(members: tuple[Member, Member]) -> list[str]:
    """Deal form keys in more than one answer: every fresh form gets a key of its own."""
    seen: dict[str, str] = {}
    found = []
    for member in members:
        for where, text in member.pages:
            for pair in CLIENT_KEY.findall(text):
                key = pair[0] or pair[1]
                if key in seen:
                    found.append(f"{where} as {member.label} repeats the deal form key {key!r} "
                                 f"of {seen[key]}")
                seen[key] = f"{where} as {member.label}"
    return found


def answer(response: HttpResponse) -> str:
    headers = "\n".join(f"{name}: {value}" for name, value in response.items())
    return headers + "\n\n" + response.content.decode()


@pytest.mark.parametrize("name", PAGES)
def test_a_member_never_sees_another_members_values(
    name: str, members: tuple[Member, Member], world: World
) -> None:
    page = PAGES[name]
    a, b = members
    for language in ("de", "en"):
        for turn in range(4):
            for member in (a, b) if turn % 2 == 0 else (b, a):
                member.client.cookies.load({settings.LANGUAGE_COOKIE_NAME: language})
                response = page.load(member.client, world)
                where = f"{name} [{language}, turn {turn + 1}]"
                assert response.status_code == 200, f"{where} as {member.label}: {response}"
                text = answer(response)
                if page.layout:
                    # The checks can fail: each member's own page says who they are and
                    # carries their CSRF token.
                    assert LOGGED_IN_AS[language].format(member.user.username) in text, where
                    header = re.search(r'"X-CSRFToken": "([^"]*)"', text)
                    assert header and unmasked(header[1]) == csrf_secret(member), where
                member.pages.append((where, text))
    found = [*others_values(b, a, page), *others_values(a, b, page), *not_own(a), *not_own(b),
             *keys_twice(members)]
    if found:
        pytest.fail(f"{len(found)} leaks:\n" + "\n".join(found[:12]), pytrace=False)


# --------------------------------------------------------------- the unchanged sheet


@pytest.fixture
def phone(members: tuple[Member, Member], settings: Any) -> Member:
    """A with a password (a fast hasher: the test is about sessions, not hashing), logged in."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    member = members[0]
    member.user.set_password(PASSWORD)
    member.user.save(update_fields=["password"])
    member.client.force_login(member.user)
    return member


def polled(member: Member, match: Match, etag: str, view: str) -> HttpResponse:
    return member.client.get(match_url(view, match), HTTP_IF_NONE_MATCH=etag, **HX)


def etag_of(member: Member, match: Match, view: str) -> str:
    """The ETag the poll sends: the one on the last answer (``data-etag``, static/js/sync.js)."""
    response = member.client.get(match_url(view, match), **HX)
    assert response.status_code == 200
    found = re.search(r'data-etag="([^"]+)"', response.content.decode())
    assert found is not None
    return found[1].replace("&quot;", '"')


def logged_out(member: Member) -> None:
    cookie = member.client.cookies[settings.SESSION_COOKIE_NAME].value
    assert member.client.post(reverse("logout")).status_code == 302
    # The cookie from before the logout, kept (another tab, a copied cookie).
    member.client.cookies[settings.SESSION_COOKIE_NAME] = cookie


def password_changed_elsewhere(member: Member) -> None:
    elsewhere = Client()
    elsewhere.force_login(member.user)
    response = elsewhere.post(reverse("password_change"), {
        "old_password": PASSWORD, "new_password1": "c8-eine-neue-1d", "new_password2":
        "c8-eine-neue-1d"})
    assert response.status_code == 302


def deactivated(member: Member) -> None:
    member.user.is_active = False
    member.user.save(update_fields=["is_active"])


def removed_from_the_group(member: Member) -> None:
    group = member.player.group
    group_services.member_remove(
        membership=Membership.objects.get(group=group, user=member.user), by=group.owner)


@pytest.mark.parametrize("view", ["match_sheet", "match_live"])
def test_an_unchanged_sheet_answers_its_member_304(phone: Member, world: World, view: str) -> None:
    match = world.open["freaky"]
    assert polled(phone, match, etag_of(phone, match, view), view).status_code == 304


@pytest.mark.parametrize("view", ["match_sheet", "match_live"])
@pytest.mark.parametrize("ended", [
    logged_out, password_changed_elsewhere, deactivated, removed_from_the_group,
], ids=lambda ended: ended.__name__)
def test_the_poll_of_an_unchanged_sheet_checks_the_session(
    phone: Member, world: World, view: str, ended: Callable[[Member], None],
) -> None:
    match = world.open["freaky"]
    etag = etag_of(phone, match, view)
    ended(phone)
    response = polled(phone, match, etag, view)
    assert response.status_code != 304, f"{ended.__name__}: 304 for the ETag from before"
    assert response.status_code in (302, 401, 403, 404), response
    if response.status_code == 302:
        assert response["Location"].startswith(reverse("login")), response["Location"]
    assert 'id="sheet"' not in response.content.decode()
    assert 'id="board"' not in response.content.decode()

"""Every URL and every form of the app, fed malformed input: never a 5xx, never half a save.

The test walks Django's URL resolver (so a new URL is fuzzed without anybody
remembering to add it), fills each path parameter with real ids of a small
group and with bad ones, reads every form and every query link from the pages
it renders (``html.parser``) and sends each field malformed values: empty,
negative, huge, fractions, non-ASCII digits, right-to-left and zero-width
characters, NUL, 10 kB of text, markup, a field missing or given twice, and
bodies of the wrong content type. It does so as the group's owner and as a
plain member.

Every request runs in a savepoint that is rolled back afterwards, so each one
meets the same data, and the row counts of every table are compared: a
refused request (4xx, or a page showing a form error) must leave every count
as it was. Values are sampled per field from a fixed seed, which keeps the run
to a few thousand requests and the same on every machine.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from html.parser import HTMLParser
from http.cookies import SimpleCookie
from typing import Any
from urllib.parse import parse_qsl, urlencode, urljoin, urlsplit

import pytest
from django.apps import apps
from django.contrib.auth.models import User
from django.db import transaction
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver

from companion.games import GAME_APPS
from companion.models import Group, Invite, Membership, Player
from tests.companion.test_history_helpers import night, play

pytestmark = pytest.mark.django_db

BAD_VALUES: tuple[str, ...] = (
    "", " ", "-1", "0", "-0", "99999999999999999999999999", "9" * 5000, "1.5", "2,5", "1e3",
    "NaN", "inf", "²", "①", "٣", "１２", "\u202e12", "1\u200b2", "\u200f", "a\x00b", "\x00",
    "x" * 10_240, "<script>alert(1)</script>", "' OR 1=1 --", "{}", "[]", "%s", "true",
    "\u0000" * 3, "Ａｎｎａ", "\ufeff", "\U0001f0cf",
)
"""Malformed values sent to every field (sampled per field)."""

BAD_ETAGS = ('"1.de.².x"', '"¹.en.1.x"', '"1.de.' + "9" * 5000 + '.x"', 'W/"1.de.-1.x"',
             '"1.de.1"', "*", '"' + "." * 300 + '"')
"""Malformed If-None-Match values for the polled pages (the sheet's ETag has four parts)."""

PATH_INTS_BAD = ("0", "9223372036854775808")
VALUES_PER_FIELD = 2
SEED = 11
ERROR_MARKERS = re.compile(r'class="[^"]*\b(is-invalid|alert-danger|invalid-feedback)\b')

SKIPPED_PREFIXES = ("admin/",)
"""Django's admin is Django's own (and closed to our users); not our input surface."""


# ----------------------------------------------------------------------------- world


@dataclass
class World:
    group: Group
    other_group: Group
    owner: User
    member: User
    ids: dict[str, list[str]] = field(default_factory=dict)
    """Per path parameter name: values that name real things the personas may reach."""
    foreign: dict[str, list[str]] = field(default_factory=dict)
    """Per path parameter name: ids of another group's things."""


@pytest.fixture
def world(group: Group, anna: User, outsider: User) -> World:
    ben = User.objects.create_user("ben", password="kartenrunde-ben-1")
    ben_membership = Membership.objects.create(group=group, user=ben,
                                               role=Membership.Role.MEMBER)
    Player.objects.filter(group=group, name="Ben").update(user=ben)
    Player.objects.create(group=group, name="Dora")
    evening = night(group, "2026-02-05", "Bei Ben")
    three = ["Anna", "Ben", "Cem"]
    running = {
        game: play(group, game, [], on=evening, finished=False, players=three)
        for game in ("drei-sind-einer-zuviel", "freaky", "elf-nimmt", "dreizehn")
    }
    x_open = play(group, "x-nimmt", [{"Anna": {"hand": 3, "x_stack": 1},
                                      "Ben": {"hand": 0, "x_stack": 0},
                                      "Cem": {"hand": 7, "x_stack": 2}}],
                  on=evening, finished=False)
    finished = play(group, "freaky", [{n: {"collected": c} for n, c in
                                       (("Anna", 12), ("Ben", 8), ("Cem", 4))}], on=evening)
    invite = Invite.objects.create(group=group, created_by=anna)
    other_group = Group.objects.get(owner=outsider)
    other_player = Player.objects.create(group=other_group, name="Olaf")
    other_night = night(other_group, "2026-02-06")
    other_match = play(other_group, "freaky", [], on=other_night, finished=False,
                       players=["Olaf", "Olga", "Otto"])
    other_invite = Invite.objects.create(group=other_group, created_by=outsider)
    world = World(group=group, other_group=other_group, owner=anna, member=ben)
    world.ids = {
        "group_id": [str(group.pk)],
        "match_id": [str(m.pk) for m in (*running.values(), x_open, finished)],
        "night_id": [str(evening.pk)],
        "player_id": [str(p.pk) for p in group.players.order_by("id")[:2]],
        "invite_id": [str(invite.pk)],
        "membership_id": [str(ben_membership.pk)],
        "number": ["1"],
        "token": [invite.token],
        "game": list(GAME_APPS),
        "key": [app.tool.key for app in GAME_APPS.values() if app.tool is not None],
    }
    world.foreign = {
        "group_id": [str(other_group.pk)],
        "match_id": [str(other_match.pk)],
        "night_id": [str(other_night.pk)],
        "player_id": [str(other_player.pk)],
        "invite_id": [str(other_invite.pk)],
        "membership_id": [str(Membership.objects.get(group=other_group).pk)],
        "number": ["2", "40000"],
        "token": ["x" * 300, "nope", "a%00b", "%E2%80%AE"],
        "game": ["nope", "x-nimmt-" * 20],
        "key": ["nope"],
    }
    return world


# ----------------------------------------------------------------------------- routes


@dataclass(frozen=True)
class Route:
    name: str
    template: str
    """The route with ``<name>`` holes, e.g. ``g/<group_id>/matches/<match_id>/``."""
    params: tuple[tuple[str, str], ...]
    """(parameter name, converter kind) in order."""


_PARAM = re.compile(r"<(?:(?P<kind>\w+):)?(?P<name>\w+)>")


def routes() -> list[Route]:
    found: list[Route] = []

    def walk(patterns: list[Any], prefix: str) -> None:
        for entry in patterns:
            route = prefix + str(entry.pattern)
            if route.startswith(SKIPPED_PREFIXES):
                continue
            if isinstance(entry, URLResolver):
                walk(entry.url_patterns, route)
            elif isinstance(entry, URLPattern):
                params = tuple(
                    (m["name"], m["kind"] or "str") for m in _PARAM.finditer(route)
                )
                found.append(Route(entry.name or route, _PARAM.sub(r"<\g<name>>", route),
                                   params))

    walk(get_resolver().url_patterns, "")
    return found


def fill(route: Route, values: dict[str, str]) -> str:
    path = route.template
    for name, _kind in route.params:
        path = path.replace(f"<{name}>", values[name])
    return "/" + path


def paths_for(route: Route, world: World) -> tuple[list[str], list[str]]:
    """Paths with real ids (every real value of each parameter) and paths with bad ones."""
    def real(name: str) -> list[str]:
        return world.ids.get(name, ["1"])

    good: list[str] = []
    base = {name: real(name)[0] for name, _kind in route.params}
    good.append(fill(route, base))
    for name, _kind in route.params:
        for value in real(name)[1:]:
            good.append(fill(route, {**base, name: value}))
    bad: list[str] = []
    for name, kind in route.params:
        wrong = list(world.foreign.get(name, []))
        if kind == "int":
            wrong += PATH_INTS_BAD
        else:
            wrong += ["%00", "x" * 300, "%E2%80%AE"]
        for value in wrong:
            bad.append(fill(route, {**base, name: value}))
    return good, bad


# ------------------------------------------------------------------------------ forms


@dataclass
class Form:
    action: str
    method: str
    enctype: str
    fields: list[tuple[str, str]]
    """(name, value) as the browser would send them, in page order."""
    choices: dict[str, list[str]]
    """Per field: the values the page offers (select options, radios, submit buttons)."""

    def key(self) -> tuple[str, str, tuple[str, ...]]:
        return (self.action, self.method, tuple(sorted({n for n, _v in self.fields})))


class PageParser(HTMLParser):
    """Forms (with their fields) and query links of one page."""

    def __init__(self, url: str) -> None:
        super().__init__(convert_charrefs=True)
        self.url = url
        self.forms: list[Form] = []
        self.links: set[str] = set()
        self._form: Form | None = None
        self._select: str | None = None
        self._textarea: str | None = None
        self._text = ""

    def handle_starttag(self, tag: str, attrs_list: list[tuple[str, str | None]]) -> None:
        attrs = {k: v or "" for k, v in attrs_list}
        for link_attr in ("href", "hx-get"):
            target = attrs.get(link_attr, "")
            if "?" in target and not target.startswith(("http", "mailto:", "#")):
                self.links.add(urljoin(self.url, target))
        if tag == "form":
            self._form = Form(
                action=urljoin(self.url, attrs.get("action") or self.url),
                method=(attrs.get("method") or "get").lower(),
                enctype=attrs.get("enctype") or "application/x-www-form-urlencoded",
                fields=[], choices={},
            )
            self.forms.append(self._form)
            return
        form = self._form
        if form is None:
            return
        name = attrs.get("name")
        if tag == "input" and name:
            kind = attrs.get("type", "text").lower()
            value = attrs.get("value", "")
            if kind in ("radio", "checkbox", "submit", "button"):
                form.choices.setdefault(name, []).append(value or "on")
                first = name not in dict(form.fields)
                if first and (kind in ("submit", "radio") or "checked" in attrs):
                    form.fields.append((name, value or "on"))
            elif kind != "file":
                form.fields.append((name, value))
        elif tag == "button" and name:
            form.choices.setdefault(name, []).append(attrs.get("value", ""))
            if name not in dict(form.fields):
                form.fields.append((name, attrs.get("value", "")))
        elif tag == "select" and name:
            self._select = name
            form.fields.append((name, ""))
        elif tag == "option" and self._select:
            value = attrs.get("value", "")
            form.choices.setdefault(self._select, []).append(value)
            if "selected" in attrs:
                form.fields = [(n, value if n == self._select else v) for n, v in form.fields]
        elif tag == "textarea" and name:
            self._textarea = name
            self._text = ""

    def handle_data(self, data: str) -> None:
        if self._textarea:
            self._text += data

    def handle_endtag(self, tag: str) -> None:
        if tag == "form":
            self._form = None
        elif tag == "select":
            self._select = None
        elif tag == "textarea" and self._textarea and self._form is not None:
            self._form.fields.append((self._textarea, self._text.strip("\n")))
            self._textarea = None


def local(url: str) -> str:
    parts = urlsplit(url)
    return parts.path + (f"?{parts.query}" if parts.query else "")


# ---------------------------------------------------------------------------- running


@dataclass
class Finding:
    persona: str
    method: str
    url: str
    data: Any
    status: int
    problem: str

    def __str__(self) -> str:
        shown = repr(self.data)
        if len(shown) > 300:
            shown = shown[:300] + "…"
        return (f"{self.problem}: {self.persona} {self.method} {self.url[:200]} {shown} "
                f"→ {self.status}")


def table_counts() -> dict[str, int]:
    models = [*apps.get_app_config("companion").get_models(), User]
    return {model._meta.label: model.objects.count() for model in models}


class Fuzzer:
    def __init__(self, world: World) -> None:
        self.world = world
        self.rng = random.Random(SEED)
        self.findings: list[Finding] = []
        self.requests = 0
        self.clients: dict[str, Client] = {}
        for persona, user in (("owner", world.owner), ("member", world.member)):
            client = Client(raise_request_exception=False)
            client.force_login(user)
            self.clients[persona] = client
        self.clients["anonymous"] = Client(raise_request_exception=False)
        self.seen_forms: set[tuple[str, str, str, tuple[str, ...]]] = set()
        self.seen_links: set[tuple[str, str, tuple[str, ...]]] = set()
        self.baseline = table_counts()
        """Every request is rolled back, so every request starts from these counts."""

    def send(self, persona: str, method: str, url: str, data: Any = None, *,
             content_type: str | None = None, htmx: bool = False,
             headers: dict[str, str] | None = None) -> tuple[int, str]:
        client = self.clients[persona]
        cookies = SimpleCookie(client.cookies.output(header="", sep=";"))
        headers = {**({"HX-Request": "true"} if htmx else {}), **(headers or {})}
        self.requests += 1
        with transaction.atomic():
            if method == "get":
                response = client.get(url, data, headers=headers)
            elif content_type is None:
                response = client.post(url, data, headers=headers)
            else:
                response = client.post(url, data, content_type=content_type, headers=headers)
            status = response.status_code
            body = ""
            if status < 300 and "html" in response.get("Content-Type", "") and not getattr(
                response, "streaming", False
            ):
                body = response.content.decode("utf-8", "replace")
            if status >= 500:
                self.findings.append(Finding(persona, method, url, data, status, "5xx"))
            else:
                refused = status >= 400 or (method == "post" and ERROR_MARKERS.search(body))
                if refused and table_counts() != self.baseline:
                    self.findings.append(
                        Finding(persona, method, url, data, status, "refused but saved")
                    )
            transaction.set_rollback(True)
        client.cookies = cookies
        return status, body

    # ------------------------------------------------------------------ the walk

    def walk(self) -> None:
        pages: list[tuple[str, str, str]] = []
        for route in routes():
            good, bad = paths_for(route, self.world)
            for persona in ("owner", "member"):
                for path in good:
                    _status, body = self.send(persona, "get", path)
                    if body:
                        pages.append((persona, path, body))
                    self.send(persona, "get", path, htmx=True, headers={
                        "If-None-Match": self.rng.choice(BAD_ETAGS),
                        "HX-Current-URL": self.rng.choice(BAD_VALUES)[:200],
                    })
                    self.send(persona, "post", path, {})
                for path in bad if persona == "owner" else ():
                    self.send(persona, "get", path)
                    self.send(persona, "post", path, {"x": "1"})
            for path in good[:1]:
                self.send("anonymous", "get", path)
        for persona, path, body in pages:
            parser = PageParser("http://testserver" + path)
            parser.feed(body)
            for form in parser.forms:
                # Pages outside a group look the same to every account: fuzzed once.
                who = persona if urlsplit(form.action).path.startswith("/g/") else "any"
                key = (who, *form.key())
                if key not in self.seen_forms:
                    self.seen_forms.add(key)
                    self.fuzz_form(persona, form)
            for link in sorted(parser.links):
                self.fuzz_link(persona, link)

    def bad_values(self) -> list[str]:
        return self.rng.sample(BAD_VALUES, VALUES_PER_FIELD)

    def submit(self, persona: str, form: Form, fields: list[tuple[str, str]], **kw: Any) -> None:
        url = local(form.action)
        if form.method == "get":
            query = urlencode(fields)
            self.send(persona, "get", url.split("?")[0] + ("?" + query if query else ""), **kw)
            return
        data: dict[str, Any] = {}
        for name, value in fields:
            data.setdefault(name, []).append(value)
        self.send(persona, "post", url, data, **kw)

    def fuzz_form(self, persona: str, form: Form) -> None:
        base = [(n, v) for n, v in form.fields if n != "csrfmiddlewaretoken"]
        names = list(dict.fromkeys(name for name, _v in base))
        self.submit(persona, form, base, htmx=True)
        for name in names:
            for value in self.bad_values():
                self.submit(persona, form, [(n, value if n == name else v) for n, v in base])
            for choice in form.choices.get(name, [])[:2]:
                self.submit(persona, form, [(n, choice if n == name else v) for n, v in base])
            self.submit(persona, form, [(n, v) for n, v in base if n != name])
            self.submit(persona, form, [*base, (name, self.rng.choice(BAD_VALUES))])
        self.submit(persona, form, [(n, self.rng.choice(BAD_VALUES)) for n, _v in base])
        self.submit(persona, form, [])
        if form.method == "post":
            url = local(form.action)
            self.send(persona, "post", url, json.dumps(dict(base)),
                      content_type="application/json")
            self.send(persona, "post", url, "a=1&\x00=\x00", content_type="text/plain")
            self.send(persona, "post", url, "--x\r\nbroken", content_type="multipart/form-data")
            self.send(persona, "post", url, "\xff\xfe%%%", content_type=form.enctype)

    def fuzz_link(self, persona: str, link: str) -> None:
        parts = urlsplit(link)
        query = parse_qsl(parts.query, keep_blank_values=True)
        who = persona if parts.path.startswith("/g/") else "any"
        key = (who, parts.path, tuple(sorted({n for n, _v in query})))
        if key in self.seen_links:
            return
        self.seen_links.add(key)
        for name in dict(query):
            for value in self.bad_values():
                fields = [(n, value if n == name else v) for n, v in query]
                self.send(persona, "get", parts.path + "?" + urlencode(fields))
        self.send(persona, "get", parts.path + "?" + parts.query + "&" + parts.query)


def iter_report(findings: list[Finding]) -> Iterator[str]:
    seen: set[tuple[str, str, str]] = set()
    for finding in findings:
        key = (finding.problem, finding.method, re.sub(r"\d+", "N", finding.url.split("?")[0]))
        if key not in seen:
            seen.add(key)
            yield str(finding)


@pytest.mark.slow  # walks every input of every page: make test, not make test-fast
def test_no_input_anywhere_gives_a_server_error_or_half_a_save(world: World) -> None:
    fuzzer = Fuzzer(world)
    fuzzer.walk()
    report = "\n".join(iter_report(fuzzer.findings))
    print(report)
    print(f"\nfuzz: {fuzzer.requests} requests, {len(fuzzer.seen_forms)} forms, "
          f"{len(fuzzer.findings)} findings")
    assert fuzzer.requests > 2000
    assert report == ""


def test_the_walk_reaches_every_area_and_its_forms(world: World) -> None:
    names = {route.name for route in routes()}
    assert {"match_sheet", "deal_edit", "match_live", "roster", "group_join", "group_import",
            "rules_check", "tool", "history", "signup"} <= names
    client = Client()
    client.force_login(world.owner)
    page = client.get(f"/g/{world.group.pk}/roster/")
    parser = PageParser(f"http://testserver/g/{world.group.pk}/roster/")
    parser.feed(page.content.decode())
    actions = {local(form.action) for form in parser.forms}
    assert f"/g/{world.group.pk}/roster/" in actions

"""A game night to look at in the browser: a group of seven players with a running
match of every game (some deals recorded), a finished one, and the live boards in
use; plus logging a Playwright page in without the login form."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.contrib.auth.models import User
from django.test import Client
from playwright.sync_api import Locator, Page

from companion.models import Group, Match, Membership, Player
from companion.services import deals as deal_services
from companion.services import live as live_services
from companion.services import matches as match_services

NAMES = ("Anna", "Ben", "Cem", "Dora", "Emil", "Maximiliane", "Gül")


@dataclass(frozen=True, slots=True)
class Evening:
    user: User
    group: Group
    players: list[Player]
    running: dict[str, Match]
    """A running match per game."""
    finished: Match

    def sheet(self, match: Match) -> str:
        return f"/g/{self.group.pk}/matches/{match.pk}/"

    def live(self, game: str) -> str:
        return self.sheet(self.running[game]) + "live/"


def _record(match: Match, players: list[Player], *datas: dict[str, Any]) -> None:
    deal_services.deal_record(
        match=match, number=match.deals.count() + 1,
        entries={p.pk: d for p, d in zip(players, datas, strict=True)},
    )


def evening() -> Evening:
    """The scene (needs the database)."""
    user = User.objects.create_user("anna", password="kartenrunde-anna-1")
    group = Group.objects.create(name="Donnerstagsgruppe", owner=user)
    Membership.objects.create(group=group, user=user, role=Membership.Role.OWNER)
    players = [Player.objects.create(group=group, name=name) for name in NAMES]
    Player.objects.filter(pk=players[0].pk).update(user=user)
    Player.objects.filter(pk=players[2].pk).update(colour="#0072b2")

    running: dict[str, Match] = {}
    elf = match_services.match_start(group=group, game="elf-nimmt", players=players)
    for went_out in range(3):
        _record(elf, players, *(
            {"went_out": True} if index == went_out else {"hand": 2 + index}
            for index in range(len(players))
        ))
    running["elf-nimmt"] = elf
    dreizehn = match_services.match_start(group=group, game="dreizehn", players=players[:6],
                                   first_dealer=1)
    _record(dreizehn, players[:6], {"red": 2}, {"red": 0}, {"red": 3}, {"red": 1},
            {"red": 0}, {"red": 2})
    running["dreizehn"] = dreizehn
    x_nimmt = match_services.match_start(group=group, game="x-nimmt", players=players[:4])
    _record(x_nimmt, players[:4], {"hand": 5, "x_stack": 9}, {"hand": 3}, {"x_stack": 1},
            {"hand": 7, "x_stack": 1})
    running["x-nimmt"] = x_nimmt
    running["freaky"] = match_services.match_start(group=group, game="freaky", players=players[:5])
    running["drei-sind-einer-zuviel"] = match_services.match_start(
        group=group, game="drei-sind-einer-zuviel", players=players[:4]
    )
    # The live boards in use: a few cards and rows taken.
    drei = running["drei-sind-einer-zuviel"]
    for step, (index, colour) in enumerate([(0, "rot"), (1, "hellblau"), (2, "orange")]):
        live_services.live_step(
            match=drei, revision=step, action="take",
            data={"player": players[index].pk, "colour": colour},
        )
    freaky = running["freaky"]
    for step, (index, cards) in enumerate([(0, 5), (3, 7)]):
        live_services.live_step(
            match=freaky, revision=step, action="collect",
            data={"player": players[index].pk, "cards": cards},
        )

    finished = match_services.match_start(group=group, game="x-nimmt", players=players[4:7])
    _record(finished, players[4:7], {"hand": 4}, {"hand": 6}, {"x_stack": 1})
    _record(finished, players[4:7], {"hand": 2}, {}, {"hand": 3})
    match_services.match_finish(match=finished)
    return Evening(user, group, players, running, finished)


def enter(form: Locator, name: str, value: str) -> None:
    """Put ``value`` into the deal form's field ``name``: tap its number button where the
    form has one per count (3 sind einer zuviel!, 13), else type it."""
    if form.locator(f'input[name="{name}"][type="radio"]').count():
        form.locator(f'.chip:has(> input[name="{name}"][value="{value}"])').click()
    else:
        form.locator(f'input[name="{name}"]').fill(value)


def log_in(page: Page, base_url: str, user: User) -> None:
    """Give the page a logged-in session cookie (no login form, no password hashing)."""
    client = Client()
    client.force_login(user)
    session = client.cookies[settings.SESSION_COOKIE_NAME].value
    page.context.add_cookies([{"name": settings.SESSION_COOKIE_NAME, "value": session,
                               "url": base_url}])

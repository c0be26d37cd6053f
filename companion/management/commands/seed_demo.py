"""``manage.py seed_demo``: a demo account with a group, game nights and finished matches.

Every deal is a complete random legal game played through the engine's game
model (``random_game``), recorded through the same services the score sheet
uses, so every total, place and winner is the engine's.

The account's password is never a published one: a new random one each time the
command runs (printed once, for the one who asked: ``make demo``), or ``--password``.
A server started with `make run` listens on the whole Wi-Fi, where a well-known
password would let anyone in as the owner of the demo group.
"""

from __future__ import annotations

import datetime
import random
import secrets
from typing import Any

from django.contrib.auth.models import User
from django.core.management.base import BaseCommand, CommandParser
from django.db import transaction
from django.utils import timezone

from companion.games import GAME_APPS
from companion.models import GameNight, Group, Match, Membership, Player
from companion.services import deals, matches
from scoring.common import rules_for

USERNAME = "demo"
PUBLISHED_PASSWORD = "kartenrunde-demo"
"""What the README once printed for everyone: an account that still has it gets a new one
(:func:`retire_published_password`)."""
GROUP_NAME = "Demo-Gruppe"
PLAYERS = ("Anna", "Ben", "Cem", "Dana", "Emil", "Fritzi")

NIGHTS: tuple[tuple[int, str], ...] = (
    # (days ago, place)
    (21, "Bei Anna"), (14, "Café Karo"), (7, "Bei Ben"), (2, "Bei Cem"),
)
"""The demo's game nights. Each game brings its demo matches (``GameApp.demo_players``,
the players of each): its first match goes to the first night, its second to the
second, and so on (beyond the last night, into the last one)."""


def night_games() -> list[list[tuple[str, int]]]:
    """Per night, its matches as ``(game, players)`` in the registry's order."""
    nights: list[list[tuple[str, int]]] = [[] for _ in NIGHTS]
    for slug, app in GAME_APPS.items():
        for index, players in enumerate(app.demo_players):
            nights[min(index, len(NIGHTS) - 1)].append((slug, players))
    return nights


def one_time_password() -> str:
    """A password to type once from the terminal: four groups of four letters and digits."""
    alphabet = "abcdefghjkmnpqrstuvwxyz23456789"  # no 0/o, 1/l/i to mix up
    return "-".join("".join(secrets.choice(alphabet) for _ in range(4)) for _ in range(4))


def retire_published_password() -> str | None:
    """The demo account with the formerly published password gets a new one-time password
    (returned); None when there is no such account."""
    user = User.objects.filter(username=USERNAME).first()
    if user is None or not user.check_password(PUBLISHED_PASSWORD):
        return None
    password = one_time_password()
    user.set_password(password)
    user.save(update_fields=["password"])
    return password


class Command(BaseCommand):
    help = ("Create the demo account 'demo' with finished matches of every game, with a new "
            "one-time password (printed).")

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--if-empty", action="store_true",
            help="Do nothing when any account exists.",
        )
        parser.add_argument("--seed", type=int, default=2026, help="Random seed of the games.")
        parser.add_argument(
            "--password", default="",
            help="The demo account's password (default: a new random one, printed).",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        if options["if_empty"] and User.objects.exists():
            self.stdout.write("Accounts exist: no demo data added.")
            return
        password = options["password"] or one_time_password()
        user = User.objects.filter(username=USERNAME).first()
        if user is not None:
            # Asked again: the data stays, the password is new (the old one was shown once).
            user.set_password(password)
            user.save(update_fields=["password"])
            self.stdout.write(self.style.SUCCESS(
                f"Demo data: log in as {USERNAME!r} with the new password {password!r}."
            ))
            return
        rng = random.Random(options["seed"])
        with transaction.atomic():
            count = seed(rng, password=password)
        self.stdout.write(self.style.SUCCESS(
            f"Demo data ready ({count} matches): log in as {USERNAME!r} with password "
            f"{password!r}. It is shown only now; `make demo` again gives a new one."
        ))


def seed(rng: random.Random, *, password: str) -> int:
    """Create the demo account, group, nights and matches; returns the number of matches."""
    user = User.objects.create_user(USERNAME, password=password)
    group = Group.objects.create(name=GROUP_NAME, owner=user)
    Membership.objects.create(group=group, user=user, role=Membership.Role.OWNER)
    roster = [
        Player.objects.create(group=group, name=name, user=user if index == 0 else None)
        for index, name in enumerate(PLAYERS)
    ]
    today = timezone.localdate()
    count = 0
    for (days_ago, place), games in zip(NIGHTS, night_games(), strict=True):
        date = today - datetime.timedelta(days=days_ago)
        night = GameNight.objects.create(group=group, date=date, place=place)
        start = timezone.make_aware(datetime.datetime.combine(date, datetime.time(19, 30)))
        for index, (game, players) in enumerate(games):
            seated = rng.sample(roster, players)
            match = _finished_match(group, night, game, seated, rng)
            played = start + datetime.timedelta(minutes=40 * index)
            Match.objects.filter(pk=match.pk).update(
                created_at=played, finished_at=played + datetime.timedelta(minutes=35)
            )
            count += 1
    return count


def _finished_match(
    group: Group, night: GameNight, game: str, seated: list[Player], rng: random.Random
) -> Match:
    rules = rules_for(game)
    match = matches.match_start(
        group=group, game=game, players=seated, first_dealer=rng.randrange(len(seated)),
        game_night=night,
    )
    simulated = rules.random_game(len(seated), rng)
    by_seat = dict(zip(simulated.players, seated, strict=True))
    for number, entries in enumerate(simulated.deals, start=1):
        deals.deal_record(
            match=match, number=number,
            entries={
                by_seat[name].pk: rules.entry_to_dict(entry) for name, entry in entries.items()
            },
        )
    return matches.match_finish(match=match)

"""``manage.py seed_demo``: a demo account with a group, game nights and finished matches.

Every deal is a complete random legal game played through the engine's game
model (``random_game``), recorded through the same services the score sheet
uses, so every total, place and winner is the engine's.
"""

from __future__ import annotations

import datetime
import random
from typing import Any

from django.contrib.auth.models import User
from django.core.management.base import BaseCommand, CommandParser
from django.db import transaction
from django.utils import timezone

from companion.models import GameNight, Group, Match, Membership, Player
from companion.services import deals, matches
from scoring.common import rules_for

USERNAME = "demo"
PASSWORD = "kartenrunde-demo"
GROUP_NAME = "Demo-Gruppe"
PLAYERS = ("Anna", "Ben", "Cem", "Dana", "Emil", "Fritzi")

NIGHTS: tuple[tuple[int, str, tuple[tuple[str, int], ...]], ...] = (
    # (days ago, place, ((game, players), ...))
    (21, "Bei Anna", (("x-nimmt", 4), ("dreizehn", 4), ("freaky", 3))),
    (14, "Café Karo", (("elf-nimmt", 5), ("drei-sind-einer-zuviel", 3), ("x-nimmt", 3))),
    (7, "Bei Ben", (("dreizehn", 3), ("freaky", 4), ("drei-sind-einer-zuviel", 4))),
    (2, "Bei Cem", (("elf-nimmt", 3), ("x-nimmt", 4), ("freaky", 5),
                    ("drei-sind-einer-zuviel", 2), ("dreizehn", 5), ("elf-nimmt", 4))),
)


class Command(BaseCommand):
    help = "Create the demo account (demo / kartenrunde-demo) with finished matches of every game."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--if-empty", action="store_true",
            help="Do nothing when any account exists (for `make run`).",
        )
        parser.add_argument("--seed", type=int, default=2026, help="Random seed of the games.")

    def handle(self, *args: Any, **options: Any) -> None:
        if options["if_empty"] and User.objects.exists():
            self.stdout.write("Accounts exist: no demo data added.")
            return
        if User.objects.filter(username=USERNAME).exists():
            self.stdout.write(f"The account {USERNAME!r} exists already: no demo data added.")
            return
        rng = random.Random(options["seed"])
        with transaction.atomic():
            matches = seed(rng)
        self.stdout.write(self.style.SUCCESS(
            f"Demo data ready: log in as {USERNAME!r} with password {PASSWORD!r} "
            f"({matches} matches)."
        ))


def seed(rng: random.Random) -> int:
    """Create the demo account, group, nights and matches; returns the number of matches."""
    user = User.objects.create_user(USERNAME, password=PASSWORD)
    group = Group.objects.create(name=GROUP_NAME, owner=user)
    Membership.objects.create(group=group, user=user, role=Membership.Role.OWNER)
    roster = [
        Player.objects.create(group=group, name=name, user=user if index == 0 else None)
        for index, name in enumerate(PLAYERS)
    ]
    today = timezone.localdate()
    count = 0
    for days_ago, place, games in NIGHTS:
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

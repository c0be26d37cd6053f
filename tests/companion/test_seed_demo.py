"""``manage.py seed_demo``: something to try on a fresh ``make run``."""

from __future__ import annotations

import re
from io import StringIO

import pytest
from django.contrib.auth import authenticate
from django.contrib.auth.models import User
from django.core.management import call_command

from companion.models import DealScore, Group, Match, Seat
from scoring import GAMES, rank
from scoring.common import deals_needed, match_totals, rules_for


def seed(*args: str) -> str:
    out = StringIO()
    call_command("seed_demo", *args, stdout=out)
    return out.getvalue()


PRINTED = re.compile(r"log in as 'demo' with (?:the new )?password '([a-z2-9-]{19})'")


@pytest.mark.django_db
def test_it_creates_the_demo_login_with_finished_matches_of_every_game() -> None:
    output = seed("--if-empty")
    password = PRINTED.search(output).group(1)  # type: ignore[union-attr]
    user = authenticate(username="demo", password=password)
    assert user is not None
    group = Group.objects.get(memberships__user=user)
    matches = Match.objects.filter(group=group)
    for slug in GAMES:
        assert matches.filter(game=slug, status=Match.Status.FINISHED).count() >= 2, slug
    assert group.game_nights.count() >= 3
    assert not matches.filter(status=Match.Status.OPEN).exists()


@pytest.mark.django_db
def test_every_demo_match_is_complete_and_scored_by_the_engine() -> None:
    seed()
    for match in Match.objects.prefetch_related("seats__player", "deals__scores__player"):
        seats = list(match.seats.all())
        deals = list(match.deals.all())
        assert len(deals) == deals_needed(
            match.game, len(seats), recorded=len(deals), options=match.options,
            totals=lambda seats=seats: {s.player.name: s.total for s in seats})
        entries = [
            {s.player.name: rules_for(match.game).entry_from_dict(s.data) for s in d.scores.all()}
            for d in deals
        ]
        totals = match_totals(match.game, entries)
        places = {
            name: place
            for place, name, _ in rank(totals, lower_is_better=GAMES[match.game].lower_is_better)
        }
        for seat in seats:
            assert seat.total == totals[seat.player.name]
            assert seat.place == places[seat.player.name]
            assert seat.is_winner == (places[seat.player.name] == 1)
        assert any(seat.is_winner for seat in seats)


@pytest.mark.django_db
def test_if_empty_does_nothing_when_any_account_exists() -> None:
    User.objects.create_user("someone", password="x-kartenrunde-1")
    assert "no demo data added" in seed("--if-empty")
    assert not Match.objects.exists()
    assert not User.objects.filter(username="demo").exists()


@pytest.mark.django_db
def test_running_it_twice_adds_nothing_the_second_time() -> None:
    seed()
    counts = (Match.objects.count(), Seat.objects.count(), DealScore.objects.count())
    assert "the new password" in seed()
    assert (Match.objects.count(), Seat.objects.count(), DealScore.objects.count()) == counts


@pytest.mark.django_db
def test_the_demo_password_is_never_a_published_one_and_new_each_time() -> None:
    first = PRINTED.search(seed()).group(1)  # type: ignore[union-attr]
    second = PRINTED.search(seed()).group(1)  # type: ignore[union-attr]
    assert first != second
    assert authenticate(username="demo", password="kartenrunde-demo") is None
    assert authenticate(username="demo", password=first) is None
    assert authenticate(username="demo", password=second) is not None
    assert Group.objects.count() == 1  # asked again: the data stays


@pytest.mark.django_db
def test_an_account_with_the_formerly_published_password_gets_a_new_one() -> None:
    from companion.management.commands.seed_demo import retire_published_password

    seed("--password", "kartenrunde-demo")
    password = retire_published_password()
    assert password is not None
    assert authenticate(username="demo", password="kartenrunde-demo") is None
    assert authenticate(username="demo", password=password) is not None
    assert retire_published_password() is None

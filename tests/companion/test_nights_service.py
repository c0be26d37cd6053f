import datetime as dt

import pytest
from django.utils import timezone

from companion.models import GameNight, Group
from companion.services.groups import game_night_for_today

pytestmark = pytest.mark.django_db


def test_it_creates_a_night_for_today_when_there_is_none(group: Group) -> None:
    night = game_night_for_today(group=group)
    assert night.group == group
    assert night.date == timezone.localdate()
    assert GameNight.objects.filter(group=group).count() == 1


def test_it_reuses_todays_night(group: Group) -> None:
    first = game_night_for_today(group=group)
    second = game_night_for_today(group=group)
    assert second.pk == first.pk
    assert GameNight.objects.filter(group=group).count() == 1


def test_it_ignores_older_nights_and_other_groups(group: Group, outsider: object) -> None:
    yesterday = timezone.localdate() - dt.timedelta(days=1)
    GameNight.objects.create(group=group, date=yesterday)
    other = Group.objects.get(name="Andere Runde")
    other_night = GameNight.objects.create(group=other, date=timezone.localdate())
    night = game_night_for_today(group=group)
    assert night.pk != other_night.pk
    assert night.date == timezone.localdate()
    assert GameNight.objects.filter(group=group).count() == 2


def test_it_picks_the_newest_of_several_nights_today(group: Group) -> None:
    GameNight.objects.create(group=group, date=timezone.localdate(), place="Bei Ben")
    newest = GameNight.objects.create(group=group, date=timezone.localdate(), place="Bei Cem")
    assert game_night_for_today(group=group).pk == newest.pk

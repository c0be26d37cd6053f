import datetime as dt
import zoneinfo

import pytest
from django.utils import timezone

from companion.models import GameNight, Group
from companion.services import groups as services
from companion.services.groups import game_night_date, game_night_for_today

pytestmark = pytest.mark.django_db

BERLIN = zoneinfo.ZoneInfo("Europe/Berlin")


@pytest.mark.parametrize(
    ("local_time", "evening"),
    [
        (dt.datetime(2026, 11, 26, 19, 30), dt.date(2026, 11, 26)),
        (dt.datetime(2026, 11, 26, 23, 59), dt.date(2026, 11, 26)),
        (dt.datetime(2026, 11, 27, 0, 30), dt.date(2026, 11, 26)),
        (dt.datetime(2026, 11, 27, 5, 59), dt.date(2026, 11, 26)),
        (dt.datetime(2026, 11, 27, 6, 0), dt.date(2026, 11, 27)),
        (dt.datetime(2026, 11, 27, 14, 0), dt.date(2026, 11, 27)),
    ],
)
def test_the_evening_goes_on_after_midnight_until_six(
    local_time: dt.datetime, evening: dt.date
) -> None:
    assert game_night_date(local_time.replace(tzinfo=BERLIN)) == evening


def test_the_evening_is_reckoned_in_the_sites_time_zone() -> None:
    # 23:30 UTC is 00:30 in Berlin (winter): still the evening of the 26th.
    assert game_night_date(dt.datetime(2026, 11, 26, 23, 30, tzinfo=dt.UTC)) == dt.date(
        2026, 11, 26
    )


def test_it_creates_a_night_for_this_evening_when_there_is_none(group: Group) -> None:
    night = game_night_for_today(group=group)
    assert night.group == group
    assert night.date == game_night_date()
    assert GameNight.objects.filter(group=group).count() == 1


def test_it_reuses_this_evenings_night(group: Group) -> None:
    first = game_night_for_today(group=group)
    second = game_night_for_today(group=group)
    assert second.pk == first.pk
    assert GameNight.objects.filter(group=group).count() == 1


def test_a_match_after_midnight_joins_the_night_that_began_before(
    group: Group, monkeypatch: pytest.MonkeyPatch
) -> None:
    evening = dt.datetime(2026, 11, 26, 21, 0, tzinfo=BERLIN)
    monkeypatch.setattr(timezone, "now", lambda: evening)
    night = game_night_for_today(group=group)
    monkeypatch.setattr(timezone, "now", lambda: evening + dt.timedelta(hours=4))
    assert game_night_for_today(group=group).pk == night.pk
    monkeypatch.setattr(timezone, "now", lambda: evening + dt.timedelta(hours=12))
    next_day = game_night_for_today(group=group)
    assert next_day.pk != night.pk
    assert next_day.date == dt.date(2026, 11, 27)


def test_it_ignores_older_nights_and_other_groups(group: Group, outsider: object) -> None:
    yesterday = game_night_date() - dt.timedelta(days=1)
    GameNight.objects.create(group=group, date=yesterday)
    other = Group.objects.get(name="Andere Runde")
    other_night = GameNight.objects.create(group=other, date=game_night_date())
    night = game_night_for_today(group=group)
    assert night.pk != other_night.pk
    assert night.date == game_night_date()
    assert GameNight.objects.filter(group=group).count() == 2


def test_it_picks_the_newest_of_several_nights_this_evening(group: Group) -> None:
    GameNight.objects.create(group=group, date=game_night_date(), place="Bei Ben")
    newest = GameNight.objects.create(group=group, date=game_night_date(), place="Bei Cem")
    assert game_night_for_today(group=group).pk == newest.pk


def test_a_new_night_without_a_date_is_this_evenings(group: Group) -> None:
    night = services.game_night_create(group=group, place=" Bei Anna ")
    assert (night.date, night.place) == (game_night_date(), "Bei Anna")

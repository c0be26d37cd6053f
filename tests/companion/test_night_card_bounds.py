"""The night's picture and text stay bounded however long the night (issue 30, item 1):
each line is fitted in a bounded number of measurements, the players and places listed
are capped ("and 1,990 more"), and the picture is drawn once per change of the night,
never twice at once."""

from __future__ import annotations

import datetime as dt
import io
from typing import Any

import pytest
from django.core.cache import cache
from django.test import Client
from django.utils import translation
from PIL import Image, ImageDraw

from companion import night_card
from companion.models import GameNight, Group
from companion.night_card import LISTED_PLAYERS, night_png, night_text
from companion.selectors.nights import LISTED_PLACES, NightPlayer, NightSummary


def _summary(players: int, places: int) -> NightSummary:
    """A night of ``places`` matches for each of ``players`` players (no database)."""
    return NightSummary(
        night_id=1, date=dt.date(2026, 3, 5), place="bei Anna", matches=places, running=0,
        abandoned=0, without_deals=0, games=(), comeback=None,
        players=tuple(
            NightPlayer(index, f"Spieler {index}", "#0072b2", places, places // 2,
                        tuple(1 + (n + index) % 4 for n in range(places)), 3 * places)
            for index in range(players)
        ),
    )


def _measurements(monkeypatch: pytest.MonkeyPatch, summary: NightSummary) -> int:
    """How many times drawing ``summary`` measures text with Pillow."""
    count = 0
    real = ImageDraw.ImageDraw.textlength

    def counted(self: ImageDraw.ImageDraw, *args: Any, **kwargs: Any) -> float:
        nonlocal count
        count += 1
        return real(self, *args, **kwargs)

    monkeypatch.setattr(ImageDraw.ImageDraw, "textlength", counted)
    night_png(summary)
    monkeypatch.setattr(ImageDraw.ImageDraw, "textlength", real)
    return count


def test_a_longer_night_is_not_measured_more_often(monkeypatch: pytest.MonkeyPatch) -> None:
    # One character at a time, the players' lines of 400 places took ~1,600 measurements
    # each; halving takes about a dozen, the same for 40 or 4,000 places.
    short = _measurements(monkeypatch, _summary(3, 40))
    long = _measurements(monkeypatch, _summary(3, 400))
    longer = _measurements(monkeypatch, _summary(3, 4000))

    # A dozen halvings per shortened line (a step more or less as the text's length varies).
    assert short <= long and abs(longer - long) <= 6
    assert max(short, long, longer) < 60


def test_the_picture_lists_at_most_a_dozen_players_and_counts_the_rest() -> None:
    few = Image.open(io.BytesIO(night_png(_summary(LISTED_PLAYERS, 5))))
    many = Image.open(io.BytesIO(night_png(_summary(2000, 5))))

    assert many.height == few.height + 42  # the players beyond the dozen: one line


def test_the_text_caps_the_players_and_their_places_in_both_languages() -> None:
    summary = _summary(LISTED_PLAYERS + 1990, 2000)

    with translation.override("en"):
        english = night_text(summary)
    with translation.override("de"):
        german = night_text(summary)

    assert "… and 1,990 more players" in english and "… und 1.990 weitere Spieler" in german
    more = 2000 - LISTED_PLACES
    assert f"and {more:,} more" in english and f"und {more:,} weitere".replace(",", ".") in german
    assert english.count("\n") == 2 + 1 + LISTED_PLAYERS + 1
    assert len(english) < 200 * LISTED_PLAYERS


# --- Kept, never drawn twice at once --------------------------------------------------------


@pytest.fixture
def _drawn(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    cache.clear()
    drawn: list[int] = []
    real = night_card.night_png
    monkeypatch.setattr(night_card, "night_png",
                        lambda summary: drawn.append(1) or real(summary))
    monkeypatch.setattr(night_card, "DRAWING_WAIT", 0.0)
    return drawn


def _card(night: GameNight) -> str:
    return f"/g/{night.group_id}/nights/{night.pk}/card.png"


@pytest.mark.django_db
def test_while_one_request_draws_the_picture_another_does_not_draw_it_too(
    anna_client: Client, group: Group, _drawn: list[int],
) -> None:
    night = GameNight.objects.create(group=group, date=dt.date(2026, 3, 6))
    lock = f"night-card-drawing:{night.pk}:de"
    assert cache.add(lock, "another request", 60)

    busy = anna_client.get(_card(night), HTTP_ACCEPT_LANGUAGE="de")

    assert busy.status_code == 503 and busy["Retry-After"] == "2"
    assert _drawn == []
    cache.delete(lock)
    drawn = anna_client.get(_card(night), HTTP_ACCEPT_LANGUAGE="de")
    assert drawn.status_code == 200 and "no-cache" in drawn["Cache-Control"]
    assert _drawn == [1]
    assert anna_client.get(_card(night), HTTP_ACCEPT_LANGUAGE="de").content == drawn.content
    assert _drawn == [1]  # kept


@pytest.mark.django_db
def test_while_a_changed_night_is_drawn_the_last_picture_is_shown_and_not_kept(
    anna_client: Client, group: Group, _drawn: list[int],
) -> None:
    night = GameNight.objects.create(group=group, date=dt.date(2026, 3, 6))
    earlier = anna_client.get(_card(night), HTTP_ACCEPT_LANGUAGE="de").content
    night.place = "bei Ben"
    night.save()
    assert cache.add(f"night-card-drawing:{night.pk}:de", "another request", 60)

    stale = anna_client.get(_card(night), HTTP_ACCEPT_LANGUAGE="de")

    assert stale.status_code == 200 and stale.content == earlier
    assert "no-store" in stale["Cache-Control"]
    assert _drawn == [1]


# --- The night's page -----------------------------------------------------------------------


@pytest.mark.django_db
def test_the_night_page_lists_a_page_of_matches_and_reads_the_tally_once_per_change(
    anna_client: Client, group: Group, monkeypatch: pytest.MonkeyPatch,
    django_assert_max_num_queries: Any,
) -> None:
    from companion.selectors import nights
    from tests.companion.test_night_page import _more

    monkeypatch.setattr(nights, "MATCHES_PER_PAGE", 3)
    read: list[int] = []
    real = nights.night_summary
    monkeypatch.setattr(nights, "night_summary", lambda night: read.append(1) or real(night))
    cache.clear()
    night = GameNight.objects.create(group=group, date=dt.date(2026, 3, 6))
    page = f"/g/{group.pk}/nights/{night.pk}/"
    _more(group, night, 2)  # 4 matches
    with django_assert_max_num_queries(1000) as short:
        first = anna_client.get(page, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    _more(group, night, 5)  # 14 matches
    with django_assert_max_num_queries(len(short.captured_queries)):
        longer = anna_client.get(page, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    again = anna_client.get(page, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    last = anna_client.get(page + "?page=5", HTTP_ACCEPT_LANGUAGE="en").content.decode()

    assert first.count('class="card mb-2 night-match"') == 3 == longer.count(
        'class="card mb-2 night-match"')
    assert "Show more" in longer and "Earlier matches" not in longer
    assert last.count('class="card mb-2 night-match"') == 2  # the 13th and 14th
    assert "Earlier matches" in last and "Show more" not in last
    assert "11 matches" in again and len(read) == 2  # once per change of the night

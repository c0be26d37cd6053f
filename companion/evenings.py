"""When a game night ends: card evenings run past midnight.

A plain fact that the writes (a match joins tonight's game night, a table pass lasts the
evening) and the reads (a BG Stats export dates a play after midnight on the next day)
both use, so it lives below both.
"""

from __future__ import annotations

import datetime as dt

from django.utils import timezone

EVENING_ENDS_AT = 6
"""Hour of the morning (local time) until which the previous evening is still "today"."""


def game_night_date(now: dt.datetime | None = None) -> dt.date:
    """The date of the evening in progress, in the site's time zone.

    Card evenings run past midnight: until 06:00 the evening that began the day
    before is still going on, so a match started at 00:30 joins that night.
    """
    local = timezone.localtime(now)
    return (local - dt.timedelta(hours=EVENING_ENDS_AT)).date()

"""Business steps of the groups area: groups, members, invites, roster, game nights.

Every step is keyword-only, runs inside ``transaction.atomic()`` and raises
``django.core.exceptions.ValidationError`` with a message the user understands
when the input breaks a rule; nothing is saved half-way.
"""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone

from companion.models import GameNight, Group


def game_night_for_today(*, group: Group) -> GameNight:
    """Today's game night of ``group`` (in the site's time zone), created when there is none.

    When a group has several nights on today's date, the newest one is used.
    """
    today = timezone.localdate()
    with transaction.atomic():
        # Lock the group row so two phones starting a match at once share one night
        # (PostgreSQL; SQLite serialises writes anyway).
        Group.objects.select_for_update().filter(pk=group.pk).first()
        night = GameNight.objects.filter(group=group, date=today).order_by("-id").first()
        if night is None:
            night = GameNight.objects.create(group=group, date=today)
        return night

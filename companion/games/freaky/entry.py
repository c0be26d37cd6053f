"""Freaky: how a deal is entered on the score sheet."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from companion.games.entry import EntryFormat, count_field
from companion.models import Seat


class FreakyFormat(EntryFormat):
    """Freaky: the number of cards collected (+N per collected row)."""

    quick_adds = (4, 5, 6, 7, 8)
    steppers = frozenset({"collected"})

    def player_fields(self, mode: str) -> dict[str, forms.Field]:
        return {"collected": count_field(_("Cards collected"))}

    def entry_data(
        self, values: Mapping[str, Any], deal: Mapping[str, Any], seat: Seat, mode: str
    ) -> dict[str, object]:
        return {"collected": values.get("collected") or 0}


FORMAT = FreakyFormat()

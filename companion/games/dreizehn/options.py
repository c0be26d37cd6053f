"""13: the match options: on the new-match form, and as an imported file may hold them."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django import forms
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from companion.games.checks import Refusal
from scoring.dreizehn import Variant


def check_variant(value: Any) -> None:
    """``options["variant"]``: one of the engine's variants."""
    if value not in {variant.value for variant in Variant}:
        raise Refusal(gettext("the 13 variant “%(value)s” is unknown.") % {
            "value": str(value)[:40]})


def start_fields() -> dict[str, forms.Field]:
    return {"colour_by_first_card": forms.BooleanField(
        label=_("13 only: the first card on an empty target fixes its colour (variant)"),
        required=False,
    )}


def start_options(cleaned: Mapping[str, Any]) -> dict[str, object]:
    variant = (Variant.COLOUR_BY_FIRST_CARD if cleaned.get("colour_by_first_card")
               else Variant.FIXED_COLOURS)
    return {"variant": variant.value}

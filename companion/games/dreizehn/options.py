"""13: the match options, as an imported file may hold them."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext

from companion.games.checks import Refusal
from scoring.dreizehn import Variant


def check_variant(value: Any) -> None:
    """``options["variant"]``: one of the engine's variants."""
    if value not in {variant.value for variant in Variant}:
        raise Refusal(gettext("the 13 variant “%(value)s” is unknown.") % {
            "value": str(value)[:40]})

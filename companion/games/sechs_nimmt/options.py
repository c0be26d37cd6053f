"""6 nimmt!: the match options (a target, a fixed number of deals, Profi) on the new-match
form and as an imported file may hold them."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from companion.games.checks import Refusal
from companion.games.messages import message_for
from companion.parsing import WholeNumberField
from scoring import ScoringError
from scoring.sechs_nimmt import DEFAULT_TARGET, MAX_DEALS, MAX_TARGET, Options, options_to_dict

NUMBER_ATTRS = {"inputmode": "numeric", "pattern": "[0-9]*", "autocomplete": "off",
                "class": "form-control"}


def start_fields() -> dict[str, forms.Field]:
    """The fields of the new-match form: the target, or a fixed number of deals; Profi."""
    return {
        "target": WholeNumberField(
            label=_("6 nimmt!: play to (Hornochsen)"), minimum=1, maximum=MAX_TARGET,
            required=False, initial=DEFAULT_TARGET,
            help_text=_("The match ends after the deal in which someone reaches it."),
            widget=forms.NumberInput(attrs=NUMBER_ATTRS)),
        "deals": WholeNumberField(
            label=_("6 nimmt!: or a fixed number of deals"), minimum=1, maximum=MAX_DEALS,
            required=False, help_text=_("Empty: play to the target."),
            widget=forms.NumberInput(attrs=NUMBER_ATTRS)),
        "profi": forms.BooleanField(
            label=_("6 nimmt!: Profi variant (only the cards 1 to 10 × players + 4)"),
            required=False),
    }


def start_options(values: Mapping[str, Any]) -> dict[str, object]:
    """What the match stores from the form's values (a plain match to 66 stores nothing).

    >>> start_options({"target": 66, "deals": None, "profi": False})
    {}
    >>> start_options({"target": 66, "deals": 1, "profi": True})
    {'deals': 1, 'profi': True}
    """
    profi = bool(values.get("profi"))
    deals = values.get("deals")
    try:
        if deals is not None:
            return options_to_dict(Options(target=None, deals=deals, profi=profi))
        target = values.get("target")
        return options_to_dict(Options(
            target=DEFAULT_TARGET if target is None else target, profi=profi))
    except ScoringError as err:
        raise ValidationError(message_for(err), code=err.code) from err


def _check(value: object, *, name: str, low: int, high: int) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise Refusal(gettext("the 6 nimmt! option “%(name)s” must be a whole number from "
                              "%(low)s to %(high)s.") % {"name": name, "low": low, "high": high})


def check_target(value: Any) -> None:
    """``options["target"]``: the Hornochsen that end the match."""
    _check(value, name="target", low=1, high=MAX_TARGET)


def check_deals(value: Any) -> None:
    """``options["deals"]``: a fixed number of deals."""
    _check(value, name="deals", low=1, high=MAX_DEALS)


def check_profi(value: Any) -> None:
    """``options["profi"]``: yes or no."""
    if not isinstance(value, bool):
        raise Refusal(gettext("the 6 nimmt! option “profi” must be true or false."))

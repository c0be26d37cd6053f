"""Forms of table passes: the organiser's choice (follow only, or enter deals too) and the
guest's name."""

from __future__ import annotations

from typing import Any

from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

from companion.services.passes import GUEST_NAME_MAX, guest_name_clean


class TablePassForm(forms.Form):
    may_write = forms.TypedChoiceField(
        label=_("Guests with this pass may"), coerce=lambda value: value == "1",
        choices=[("0", _("follow the sheet")), ("1", _("follow the sheet and enter deals"))],
        initial="1", widget=forms.RadioSelect,
    )


class GuestNameForm(forms.Form):
    """Who the guest is: a name of the match's players, or one typed in."""

    picked = forms.ChoiceField(label=_("Who are you?"), required=False, widget=forms.RadioSelect)
    typed = forms.CharField(
        label=_("Or type your name"), required=False, max_length=200,
        widget=forms.TextInput(attrs={"autocapitalize": "words", "autocomplete": "nickname"}),
    )

    def __init__(self, *args: Any, names: list[str], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["picked"].choices = [(name, name) for name in names]
        if not names:
            del self.fields["picked"]
            self.fields["typed"].label = _("Your name")
        self.fields["typed"].widget.attrs["maxlength"] = GUEST_NAME_MAX

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        name = data.get("typed") or data.get("picked") or ""
        try:
            data["name"] = guest_name_clean(name)
        except ValidationError as error:
            self.add_error("typed", error)
        return data

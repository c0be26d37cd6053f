"""Forms of the history area: the history filter, head-to-head, leaderboard minimum, import."""

from __future__ import annotations

from typing import Any

from django import forms
from django.core.files.uploadedfile import UploadedFile
from django.utils.translation import gettext_lazy as _

from companion import limits
from companion.models import Player, game_choices
from companion.parsing import WholeNumberField


class _RosterForm(forms.Form):
    """A form whose player fields choose from an already loaded roster."""

    def __init__(self, *args: Any, players: list[Player], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.roster = {str(p.pk): p for p in players}

    def _roster_player(self, name: str) -> Player | None:
        value = self.data.get(self.add_prefix(name)) if self.is_bound else None
        if value in (None, ""):
            return None
        player = self.roster.get(str(value))
        if player is None:
            raise forms.ValidationError(
                _("Select a valid choice. That choice is not one of the available choices."),
                code="invalid_choice",
            )
        return player


class HistoryFilterForm(_RosterForm):
    """Filter the game nights by game, player and period (GET)."""

    game = forms.ChoiceField(
        label=_("Game"), required=False, widget=forms.Select(attrs={"class": "form-select"})
    )
    player = forms.ChoiceField(
        label=_("Player"), required=False, widget=forms.Select(attrs={"class": "form-select"})
    )
    since = forms.DateField(
        label=_("From"), required=False,
        widget=forms.DateInput(attrs={"type": "date", "class": "form-control"}, format="%Y-%m-%d"),
    )
    until = forms.DateField(
        label=_("Until"), required=False,
        widget=forms.DateInput(attrs={"type": "date", "class": "form-control"}, format="%Y-%m-%d"),
    )

    def __init__(self, *args: Any, players: list[Player], **kwargs: Any) -> None:
        super().__init__(*args, players=players, **kwargs)
        self.fields["game"].choices = [("", _("All games")), *game_choices()]
        self.fields["player"].choices = [("", _("All players")), *((p.pk, p.name) for p in players)]

    def clean_player(self) -> Player | None:
        return self._roster_player("player")

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        since, until = data.get("since"), data.get("until")
        if since and until and since > until:
            raise forms.ValidationError(_("The period ends before it begins."), code="period")
        return data

    def filters(self) -> dict[str, Any]:
        """The keyword arguments for ``group_history`` (empty when the form is invalid)."""
        if not self.is_valid():
            return {}
        data = self.cleaned_data
        return {
            "game": data.get("game") or None,
            "player": data.get("player"),
            "since": data.get("since"),
            "until": data.get("until"),
        }


class HeadToHeadForm(_RosterForm):
    """Two different players of the group (GET)."""

    first = forms.ChoiceField(label=_("Player"))
    second = forms.ChoiceField(label=_("against"))

    def __init__(self, *args: Any, players: list[Player], **kwargs: Any) -> None:
        super().__init__(*args, players=players, **kwargs)
        choices = [("", _("Choose a player")), *((p.pk, p.name) for p in players)]
        self.fields["first"].choices = choices
        self.fields["second"].choices = choices

    def clean_first(self) -> Player | None:
        return self._roster_player("first")

    def clean_second(self) -> Player | None:
        return self._roster_player("second")

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        first, second = data.get("first"), data.get("second")
        if first is not None and first == second:
            raise forms.ValidationError(_("Choose two different players."), code="same")
        return data


class MinimumForm(forms.Form):
    """The leaderboard's minimum number of finished matches (GET)."""

    min = WholeNumberField(
        label=_("Minimum number of matches"),
        minimum=1,
        maximum=1000,
        required=False,
    )


class ImportForm(forms.Form):
    """A JSON file exported from Kartenrunde."""

    file = forms.FileField(
        label=_("Export file (JSON)"),
        widget=forms.ClearableFileInput(attrs={"accept": ".json,application/json"}),
    )

    def clean_file(self) -> UploadedFile:
        """The uploaded file, not read yet: the import reads it (and drops its bytes once
        they are parsed)."""
        upload: UploadedFile = self.cleaned_data["file"]
        try:
            limits.check_size(limits.IMPORT_BYTES, upload.size or 0)
        except limits.LimitExceeded as err:
            raise forms.ValidationError(str(err), code="too_large") from err
        return upload

"""The new-match form: game, players in seat order, who deals first, the game's options."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django import forms
from django.forms import BoundField
from django.utils.translation import gettext_lazy as _

from companion.games import GAME_APPS, game_app
from companion.games.messages import message_for
from companion.models import Player, game_choices
from scoring import GAMES, ScoringError

MAX_SEATS = max(info.max_players for info in GAMES.values())


class MatchStartForm(forms.Form):
    """Game, players in seat order, first dealer / start player, the game's options."""

    game = forms.ChoiceField(
        label=_("Game"), choices=game_choices, widget=forms.RadioSelect
    )
    first_player = forms.TypedChoiceField(
        label=_("Deals / starts first"), coerce=int, required=False, empty_value=None,
        help_text=_("Empty: the player on seat 1."),
    )
    new_player = forms.CharField(
        label=_("New player (guest)"), required=False, max_length=80,
        help_text=_("Adds the name to the group's roster and gives them the next free seat."),
    )

    def __init__(self, *args: Any, players: Sequence[Player], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.seat_names = [f"seat_{i}" for i in range(MAX_SEATS)]
        for i, name in enumerate(self.seat_names):
            self.fields[name] = forms.ModelChoiceField(
                label=_("Seat %(seat)s") % {"seat": i + 1},
                queryset=Player.objects.filter(pk__in=[p.pk for p in players]),
                required=False, empty_label="—",
            )
            self.fields[name].choices = [("", "—"), *((p.pk, p.name) for p in players)]
        self.fields["first_player"].choices = [("", "—"), *((p.pk, p.name) for p in players)]
        # Each game's own match options (``GameApp.start_fields``), named after its folder.
        self.game_field_names: dict[str, list[str]] = {}
        for slug, app in GAME_APPS.items():
            if app.start_fields is not None:
                for name, field in app.start_fields().items():
                    self.fields[f"{app.folder}-{name}"] = field
                    self.game_field_names.setdefault(slug, []).append(name)
        self.order_fields(["game", *self.seat_names, "new_player", "first_player"])

    @property
    def seat_fields(self) -> list[BoundField]:
        return [self[name] for name in self.seat_names]

    @property
    def game_option_fields(self) -> list[tuple[str, list[BoundField]]]:
        """Per game with its own match options, its fields (shown while it is chosen)."""
        return [(slug, [self[f"{game_app(slug).folder}-{name}"] for name in names])
                for slug, names in self.game_field_names.items()]

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        chosen = [cleaned.get(name) for name in self.seat_names]
        last = max((i for i, player in enumerate(chosen) if player), default=-1)
        players = chosen[: last + 1]
        if any(player is None for player in players):
            raise forms.ValidationError(
                _("Fill the seats from seat 1 on without gaps."), code="gap"
            )
        seen: set[int] = set()
        for name, player in zip(self.seat_names, players, strict=False):
            if player.pk in seen:
                self.add_error(name, _("%(name)s already has a seat.") % {"name": player.name})
            seen.add(player.pk)
        game = cleaned.get("game")
        if game:
            try:
                GAMES[game].check_players(len(players))
            except ScoringError as err:
                raise forms.ValidationError(message_for(err), code=err.code) from err
        cleaned["first_dealer"] = 0
        chosen_first = cleaned.get("first_player")
        if chosen_first is not None:
            seated = [player.pk for player in players]
            if chosen_first in seated:
                cleaned["first_dealer"] = seated.index(chosen_first)
            else:
                name = dict(self.fields["first_player"].choices).get(chosen_first, "")
                self.add_error("first_player", _(
                    "%(name)s has no seat in this match: choose one of the seated players."
                ) % {"name": name})
        cleaned["players"] = players
        cleaned["game_options"] = {}
        app = game_app(game) if game in GAME_APPS else None
        if app is not None and app.start_options is not None:
            values = {name: cleaned.get(f"{app.folder}-{name}")
                      for name in self.game_field_names.get(game, [])}
            try:
                cleaned["game_options"] = app.start_options(values)
            except forms.ValidationError as err:
                self.add_error(None, err)
        return cleaned

    def options(self) -> dict[str, object]:
        """The match options the chosen game knows."""
        return dict(self.cleaned_data.get("game_options") or {})

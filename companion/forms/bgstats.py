"""Forms of the BG Stats import: the upload, and the confirm screen's choices (per BG Stats
game one of Kartenrunde's games or none, per BG Stats player a roster player or a new one)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from companion.bgstats import ImportMapping, ImportPlan, SourceGame, SourcePlayer
from companion.forms.history import ImportForm
from companion.models import Player
from scoring import GAMES

NEW = "new"
"""A BG Stats player's choice: a new player on the roster, of the BG Stats name."""

REASONS = {
    "already": _("already in the group"),
    "duplicate": _("in the file twice"),
    "game": _("not one of Kartenrunde’s games"),
    "ignored": _("marked “ignored” in BG Stats"),
    "players": _("a number of players the game does not allow"),
    "score": _("a score missing or not a whole number"),
    "same_player": _("two of their players are one roster player"),
}
"""Why plays are left out (``companion.bgstats.Reason``), as the pages say it."""


class BGStatsUploadForm(ImportForm):
    """A ``BGStatsExport.json``, within the group import's limits."""

    file = forms.FileField(
        label=_("BG Stats export (BGStatsExport.json)"),
        widget=forms.ClearableFileInput(attrs={"accept": ".json,application/json"}),
    )

    def clean_file(self) -> bytes:  # type: ignore[override]
        """The file's bytes, once its size is within the limit (``ImportForm``): a BG
        Stats export is read whole (:func:`companion.bgstats.bgstats_plan`)."""
        content: bytes = super().clean_file().read()
        return content


MAX_OTHER_GAMES = 200
"""Other games (none of Kartenrunde's) offered a choice, those with the most plays: a long
BG Stats history has hundreds, and a form has at most Django's 1,000 fields
(``DATA_UPLOAD_MAX_NUMBER_FIELDS``). The rest are skipped, as unknown games are."""


def _offered(games: Sequence[SourceGame]) -> tuple[SourceGame, ...]:
    """The games the confirm screen offers a choice for, in the plan's order."""
    others = sorted((game for game in games if game.suggested is None),
                    key=lambda game: (-game.plays, game.ref))
    left_out = {game.ref for game in others[MAX_OTHER_GAMES:]}
    return tuple(game for game in games if game.ref not in left_out)


def game_field(ref: int) -> str:
    return f"game-{ref}"


def player_field(ref: int) -> str:
    return f"player-{ref}"


class BGStatsMappingForm(forms.Form):
    """The confirm screen: a choice per BG Stats game of the file, and per BG Stats player
    of the plays those choices take.

    The players depend on the games chosen, so they are worked out from the submitted
    game choices; a player whose choice was not submitted (their game was chosen just
    now) starts from the suggestion and is listed in :attr:`unseen`, so that the page
    can show them before anything is imported.
    """

    plan_id = forms.CharField(widget=forms.HiddenInput)
    """Which upload the choices are for (the view compares it with the one kept)."""

    def __init__(self, data: Mapping[str, Any] | None = None, *, plan: ImportPlan,
                 roster: Sequence[Player], plan_id: str) -> None:
        game_choices = [("", _("skip")), *((slug, info.title) for slug, info in GAMES.items())]
        games = {}
        for game in plan.games:
            raw = None if data is None else data.get(game_field(game.ref))
            games[game.ref] = raw if raw in GAMES or raw == "" else (game.suggested or "")
        # Every player mapped onto a new one: no play is left out for two of its players
        # being one roster player, so everybody of the chosen games' plays gets a choice.
        everybody_new = ImportMapping({ref: slug or None for ref, slug in games.items()},
                                      dict.fromkeys(plan.names))
        self.players: tuple[SourcePlayer, ...] = plan.players_in(plan.prepare(everybody_new))
        self.unseen: list[SourcePlayer] = []
        if data is not None:
            filled = dict(data.items())
            for player in self.players:
                if player_field(player.ref) not in data:
                    self.unseen.append(player)
                    filled[player_field(player.ref)] = self._initial(player)
            data = filled
        super().__init__(data, initial={"plan_id": plan_id})
        self.source_games = _offered(plan.games)
        self.not_offered = len(plan.games) - len(self.source_games)
        for game in self.source_games:
            self.fields[game_field(game.ref)] = forms.ChoiceField(
                label=game.name or _("(no name)"), choices=game_choices, required=False,
                initial=game.suggested or "",
                widget=forms.Select(attrs={"class": "form-select form-select-sm game-choice"}),
            )
        roster_choices = [(str(player.pk), player.name) for player in roster]
        for player in self.players:
            self.fields[player_field(player.ref)] = forms.ChoiceField(
                label=player.name or _("(no name)"),
                choices=[(NEW, _("new player")), *roster_choices],
                initial=self._initial(player),
                widget=forms.Select(attrs={"class": "form-select form-select-sm"}),
            )

    @staticmethod
    def _initial(player: SourcePlayer) -> str:
        return NEW if player.suggested is None else str(player.suggested)

    def _game_rows(self, *, known: bool) -> list[tuple[SourceGame, forms.BoundField]]:
        return [(game, self[game_field(game.ref)]) for game in self.source_games
                if (game.suggested is not None) == known]

    @property
    def game_rows_known(self) -> list[tuple[SourceGame, forms.BoundField]]:
        """The file's games recognised as one of Kartenrunde's, with their fields."""
        return self._game_rows(known=True)

    @property
    def game_rows_other(self) -> list[tuple[SourceGame, forms.BoundField]]:
        """The file's other games, with their fields."""
        return self._game_rows(known=False)

    def player_rows(self) -> list[tuple[SourcePlayer, forms.BoundField]]:
        return [(player, self[player_field(player.ref)]) for player in self.players]

    def mapping(self) -> ImportMapping:
        """The choices made (the suggestions where the form is not valid)."""
        if not self.is_valid():
            return ImportMapping({}, {})
        data = self.cleaned_data
        return ImportMapping(
            {game.ref: data[game_field(game.ref)] or None for game in self.source_games},
            {player.ref: None if data[player_field(player.ref)] == NEW
             else int(data[player_field(player.ref)]) for player in self.players},
        )

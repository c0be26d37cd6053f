"""Forms of the groups area. Rules that need the database (unique names) live in
``companion.services.groups``; views turn its ValidationErrors into form errors."""

from __future__ import annotations

import datetime as dt
from typing import Any

from django import forms
from django.contrib.auth.base_user import AbstractBaseUser
from django.utils.translation import gettext_lazy as _

from companion.colours import parse_colour
from companion.models import Group, Membership, Player
from companion.services.groups import (
    GROUP_NAME_MAX,
    NEW_PLAYER,
    PLAYER_NAME_MAX,
    game_night_date,
)
from companion.services.transfer.validate import EARLIEST, LATEST, MAX_NOTES


class GroupCreateForm(forms.Form):
    name = forms.CharField(
        label=_("Name of the group"), max_length=GROUP_NAME_MAX,
        widget=forms.TextInput(attrs={"placeholder": _("e.g. Thursday group"), "autofocus": True}),
    )
    players = forms.CharField(
        label=_("Other players"), required=False,
        help_text=_("One name per line. You are added as a player yourself; "
                    "you can add more players later."),
        widget=forms.Textarea(attrs={"rows": 4, "autocapitalize": "words"}),
    )

    def clean_players(self) -> list[str]:
        lines = self.cleaned_data["players"].splitlines()
        return [line.strip() for line in lines if line.strip()]


class GroupRenameForm(forms.Form):
    name = forms.CharField(label=_("Name of the group"), max_length=GROUP_NAME_MAX)


class PlayerForm(forms.Form):
    name = forms.CharField(
        label=_("Name"), max_length=PLAYER_NAME_MAX,
        widget=forms.TextInput(attrs={"autocapitalize": "words", "autocomplete": "off"}),
    )


class PlayerColourForm(forms.Form):
    """A player's colour as ``#rrggbb`` ("" gives back the default palette colour)."""

    colour = forms.CharField(label=_("Colour"), required=False, strip=True)
    default = forms.BooleanField(required=False)
    """The "default colour" button: back to the palette colour of the roster order."""

    def clean_colour(self) -> str:
        if self.data.get("default"):
            return ""
        return parse_colour(self.cleaned_data["colour"])


class PlayerLinkForm(forms.Form):
    """Which member's account stands for a player ("" unlinks)."""

    user = forms.ChoiceField(label=_("Account"), required=False)

    def __init__(self, *args: Any, group: Group, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        members = Membership.objects.filter(group=group).select_related("user")
        self.members = {str(m.user_id): m.user for m in members}
        choices = [("", _("— no account —"))]
        choices += sorted(
            ((uid, user.get_username()) for uid, user in self.members.items()),
            key=lambda c: c[1].casefold(),
        )
        self.fields["user"].choices = choices

    def clean_user(self) -> AbstractBaseUser | None:
        value = self.cleaned_data["user"]
        return self.members[value] if value else None


class JoinForm(forms.Form):
    """Who the joining account is on the group's roster."""

    player = forms.ChoiceField(label=_("Who are you on the roster?"), required=False,
                               widget=forms.RadioSelect)

    def __init__(
        self, *args: Any, group: Group, user: AbstractBaseUser | None, **kwargs: Any
    ) -> None:
        """``user`` None: the account is made with the join (a visitor who signs up)."""
        super().__init__(*args, **kwargs)
        username = user.get_username() if user is not None else ""
        self.unlinked = {
            str(p.pk): p for p in Player.objects.filter(group=group, user__isnull=True)
        }
        choices: list[tuple[str, str]] = []
        if user is None:
            choices.append((NEW_PLAYER, _("A new player with my user name")))
        elif not Player.objects.filter(group=group, name__iexact=username).exists():
            choices.append((NEW_PLAYER, _("A new player called “%(name)s”") % {"name": username}))
        choices += [(pk, p.name) for pk, p in self.unlinked.items()]
        choices.append(("", _("Nobody yet: I'll link myself later")))
        self.fields["player"].choices = choices
        same_name = [pk for pk, p in self.unlinked.items()
                     if p.name.casefold() == username.casefold()]
        self.initial.setdefault("player", same_name[0] if same_name else choices[0][0])

    def clean_player(self) -> Player | str | None:
        value = self.cleaned_data["player"]
        if value == NEW_PLAYER:
            return NEW_PLAYER
        return self.unlinked[value] if value else None


class GameNightForm(forms.Form):
    date = forms.DateField(
        label=_("Date"),
        widget=forms.DateInput(attrs={"type": "date", "min": EARLIEST.isoformat(),
                                      "max": LATEST.isoformat()}, format="%Y-%m-%d"),
    )
    place = forms.CharField(label=_("Place"), max_length=100, required=False,
                            widget=forms.TextInput(attrs={"placeholder": _("e.g. at Ben's")}))
    notes = forms.CharField(label=_("Notes"), required=False, max_length=MAX_NOTES,
                            widget=forms.Textarea(attrs={"rows": 3}))

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.initial.setdefault("date", game_night_date())

    def clean_date(self) -> dt.date:
        # The years an export may hold: a night outside them could be exported but never
        # imported again (companion.services.transfer).
        value: dt.date = self.cleaned_data["date"]
        if not EARLIEST <= value <= LATEST:
            raise forms.ValidationError(
                _("Pick a date between the years %(first)d and %(last)d."),
                code="out_of_years", params={"first": EARLIEST.year, "last": LATEST.year},
            )
        return value

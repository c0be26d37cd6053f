"""11 nimmt!: the forms of the check page and of the bull card tracker."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from companion.games.check_forms import (
    LIST_ATTRS,
    CheckForm,
    PlayersField,
    cards_field,
    number_field,
)
from companion.games.checks import Refusal
from companion.games.elf_nimmt import check as elf_checks
from companion.games.messages import message_for
from companion.parsing import CardNumbersField, WholeNumberField, parse_card_numbers
from scoring import GAMES, ScoringError, elf_nimmt

MAX_PILES = 100
"""A table of 11 nimmt! never has more piles than cards."""


IMPOSSIBLE_PLAYS = (elf_nimmt.PlayProblem.CARD_TWICE, elf_nimmt.PlayProblem.CARD_ON_TABLE,
                    elf_nimmt.PlayProblem.NOT_IN_HAND)
"""Plays that describe no real move (a card twice, from the table, not in the hand)."""


class ElfPlayForm(CheckForm):
    tops = cards_field(_("Top cards of the piles"), maximum=100, max_count=MAX_PILES,
                       required=True, help_text=_("In table order, e.g. 5 19 78"))
    hand = cards_field(_("Your hand cards"), maximum=100, max_count=100)
    bulls = number_field(_("Bull cards you hold"), minimum=0, maximum=elf_nimmt.BULL_CARDS,
                         required=False, initial=0)

    answer: elf_checks.ElfPlayAnswer | None = None

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.pile_count = 0
        if self.is_bound:
            try:
                self.pile_count = len(parse_card_numbers(
                    str(self.data.get(self.add_prefix("tops"), ""))[:400],
                    minimum=1, maximum=100, max_count=MAX_PILES))
            except ValidationError:
                self.pile_count = 0
        for index in range(self.pile_count):
            self.fields[f"play_{index}"] = cards_field(_("Put on this pile"), maximum=100,
                                                       max_count=100)

    def play_fields(self) -> list[forms.BoundField]:
        return [self[f"play_{index}"] for index in range(self.pile_count)]

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        if self.errors:
            return data
        tops: tuple[int, ...] = tuple(data["tops"])
        hand: tuple[int, ...] = tuple(data["hand"])
        bulls: int = data.get("bulls") or 0
        plays = {index: tuple(data.get(f"play_{index}") or ()) for index in range(len(tops))}
        plays = {index: cards_ for index, cards_ in plays.items() if cards_}

        def field_of(err: ScoringError) -> str | None:
            card = err.params.get("card")
            if card in tops:
                return "tops"
            return "hand" if card in hand else None

        self.answer = self.ask(lambda: elf_checks.check_elf_play(tops, hand, plays, bulls),
                               field_of=field_of)
        play = self.answer.play if self.answer is not None else None
        if play is not None and play.problem in IMPOSSIBLE_PLAYS:
            # Not a verdict of the rules but a play that cannot be made: shown at its pile.
            card = play.params.get("card")
            piles = [index for index, cards_ in plays.items() if card in cards_]
            pile = piles[-1] if piles else None  # a card put down twice: its second place
            self.add_error(None if pile is None else f"play_{pile}", ValidationError(
                elf_checks.play_message(play), code=play.problem.value))
            self.answer = None
        return data


class BullCountsField(CardNumbersField):
    """The other players' bull cards, one count per player (``4 4 2``): refused in words
    about bull cards, not card numbers."""

    def to_python(self, value: Any) -> list[int]:
        try:
            return super().to_python(value)
        except ValidationError as err:
            token = (err.params or {}).get("token", "")
            if err.code == "too_long":
                message = gettext("Enter one number of bull cards per other player, at most "
                                  "%(most)s numbers.") % {"most": self.max_count}
            elif err.code == "too_large":
                message = gettext("Nobody holds %(token)s bull cards: there are only "
                                  "%(total)s.") % {"token": token, "total": self.maximum}
            else:
                message = gettext("“%(token)s” is not a number of bull cards.") % {
                    "token": token}
            raise ValidationError(message, code=err.code) from err


class ElfTakeForm(CheckForm):
    size = number_field(_("Cards in the pile you took"), minimum=1, maximum=100)
    mine = number_field(_("Bull cards you hold"), minimum=0, maximum=elf_nimmt.BULL_CARDS,
                        required=False, initial=0)
    others = BullCountsField(
        label=_("Bull cards of the other players"), minimum=0, maximum=elf_nimmt.BULL_CARDS,
        # Room for a few too many, so that a ninth player hears the player range, not a
        # limit on the numbers (check_elf_take refuses more than 7 players).
        max_count=3 * GAMES["elf-nimmt"].max_players, allow_duplicates=True,
        help_text=_("One number per player, e.g. 4 4 2"), widget=forms.TextInput(attrs=LIST_ATTRS))

    answer: elf_checks.ElfTakeAnswer | None = None

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        if self.errors:
            return data
        size: int = data["size"]
        mine: int = data.get("mine") or 0
        others = tuple(data["others"])
        self.answer = self.ask(lambda: elf_checks.check_elf_take(size, mine, others))
        return data


class BullsForm(forms.Form):
    """11 nimmt! bull card tracker.

    State: ``players`` (seat order) and ``held`` (bull cards per player, same
    order, dot-separated); the supply is what is left of the 10. Actions:
    ``take`` (seat of the player who took a pile of 3 or more cards; ``steal``
    names whom they take from when several others tie for the most, ``keep=1``
    declines: stealing is optional) or ``reset`` (a new deal). ``ev``
    describes the last action (see :func:`companion.games.elf_nimmt.check.tracker_event`).
    """

    players = PlayersField("elf-nimmt", label=_("Who plays? (seat order, separated by commas)"))
    held = forms.CharField(required=False, max_length=100, widget=forms.HiddenInput)
    take = WholeNumberField(required=False, minimum=0, maximum=6, widget=forms.HiddenInput)
    steal = WholeNumberField(required=False, minimum=0, maximum=6, widget=forms.HiddenInput)
    keep = forms.CharField(required=False, max_length=5, widget=forms.HiddenInput)
    reset = forms.CharField(required=False, max_length=5, widget=forms.HiddenInput)
    ev = forms.CharField(required=False, max_length=40, widget=forms.HiddenInput)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.names: tuple[str, ...] = ()
        self.state: elf_nimmt.BullCards | None = None
        self.acted = False
        self.last_event = ""
        self.choose_from: tuple[str, ...] = ()
        self.choose_reason = ""
        self.taker: int | None = None

    def _load(self, held_text: str) -> elf_nimmt.BullCards:
        if not held_text:
            return elf_nimmt.BullCards.start(self.names)
        held = parse_card_numbers(held_text, minimum=0, maximum=elf_nimmt.BULL_CARDS,
                                  max_count=len(self.names), allow_duplicates=True)
        if len(held) != len(self.names):
            raise ValidationError(gettext(
                "The bull card counts do not match the players; the tracker starts afresh."))
        total = sum(held)
        if total > elf_nimmt.BULL_CARDS:
            raise ValidationError(
                gettext("There are only 10 bull cards, but %(count)s are held."),
                params={"count": total})
        return elf_nimmt.BullCards(elf_nimmt.BULL_CARDS - total,
                                   dict(zip(self.names, held, strict=True)))

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        if "players" in self.errors or not data.get("players"):
            return data
        self.names = tuple(data["players"])
        try:
            self.state = self._load(data.get("held") or "")
        except ValidationError as err:
            self.state = elf_nimmt.BullCards.start(self.names)
            self.add_error("held", err)
            return data
        self.last_event = data.get("ev") or ""
        if data.get("reset"):
            self.state = self.state.reset()
            self._acted("new")
            return data
        take = data.get("take")
        if take is None or self.errors:
            return data
        if take >= len(self.names):
            self.add_error("take", gettext("There is no such player."))
            return data
        self.taker = take
        try:
            step = elf_checks.tracker_take(self.state, take, steal=data.get("steal"),
                                           keep=bool(data.get("keep")))
        except Refusal as refusal:
            self.add_error(None, refusal.message)
            return data
        except ScoringError as err:
            self.add_error(None, message_for(err))
            return data
        if not step.event:
            self.choose_from, self.choose_reason = step.choose_from, step.reason
            return data
        self.state = step.state
        self._acted(step.event)
        return data

    @property
    def taker_name(self) -> str:
        return self.names[self.taker] if self.taker is not None else ""

    def _acted(self, ev: str) -> None:
        self.acted = True
        self.last_event = ev

    @property
    def event(self) -> str:
        """The last action in words, with its reason (from ``ev``)."""
        if self.state is None or not self.last_event:
            return ""
        return elf_checks.tracker_event(self.last_event, self.state)

    def _query(self, holders: Mapping[str, int]) -> dict[str, str]:
        return {"players": ",".join(self.names),
                "held": ".".join(str(holders[p]) for p in self.names)}

    def state_query(self) -> dict[str, str]:
        if self.state is None:
            return {}
        query = self._query(self.state.holders)
        if self.acted:
            query["ev"] = self.last_event
        return query

    def undo_query(self) -> dict[str, str] | None:
        """After a steal: the state before it, marked as declined ("nicht wegnehmen")."""
        if self.state is None:
            return None
        before = elf_checks.tracker_undo(self.last_event, self.state)
        if before is None:
            return None
        return {**self._query(before), "ev": f"kept.{self.last_event.split('.')[1]}"}

    def rows(self) -> list[dict[str, Any]]:
        """Per player: name, seat index, bull cards held."""
        if self.state is None:
            return []
        return [{"index": i, "name": p, "held": self.state.holders[p]}
                for i, p in enumerate(self.names)]

    def leaders(self) -> tuple[str, ...]:
        """With the supply empty: the players holding the most bull cards."""
        if self.state is None or self.state.supply:
            return ()
        most = max(self.state.holders.values(), default=0)
        return tuple(p for p in self.names if most and self.state.holders[p] == most)



"""13: may a card go on a target, and the three targets' running totals at the table.

A target is given by the values of its cards: a 4 is a red 4 (the only 4s in
the game), every other value has the target's colour. Two or more cards on a
target never total more than 13: the card that goes over stays alone.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace

from django.utils.translation import gettext, pgettext_lazy

from companion.games.checks import Refusal
from companion.games.messages import message_for
from scoring import ScoringError, dreizehn

COLOUR_NAMES = {
    "yellow": pgettext_lazy("13 colour", "yellow"),
    "green": pgettext_lazy("13 colour", "green"),
    "blue": pgettext_lazy("13 colour", "blue"),
    "red": pgettext_lazy("13 colour", "red"),
}
SWATCHES = {"yellow": "#f2c200", "green": "#2e9e44", "blue": "#1f6fd1", "red": "#d62828"}
TALLY_COLOURS = ("yellow", "green", "blue", "red")
"""The columns of a player's tally: cards taken per colour, red 4s last."""
TALLY_LIMITS = (dreizehn.PER_COLOUR, dreizehn.PER_COLOUR, dreizehn.PER_COLOUR,
                dreizehn.RED_COUNT)
"""The most cards of each tally colour in the box (14 per colour, 8 red 4s)."""


def card_label(card: dreizehn.Card) -> str:
    """"yellow 5" / "gelbe 5" style label of a 13 card."""
    return gettext("%(colour)s %(value)s") % {
        "colour": COLOUR_NAMES[card.colour], "value": card.value}


def target_cards(values: Iterable[int], colour: str | None) -> tuple[dreizehn.Card, ...]:
    """The cards on a target from their values: a 4 is a red 4, the rest the target's colour.

    >>> [str(card) for card in target_cards([5, 4], "green")]
    ['green 5', 'red 4']
    """
    cards = []
    for value in values:
        if value == dreizehn.RED_VALUE:
            cards.append(dreizehn.Card(dreizehn.RED, dreizehn.RED_VALUE))
        elif colour is None:
            raise Refusal(gettext(
                "A target without a colour holds only red 4s, not %(value)s.") % {
                "value": value}, code="target_colourless")
        else:
            try:
                cards.append(dreizehn.Card(colour, value))
            except ScoringError as err:
                raise Refusal(message_for(err), code=err.code) from err
    return tuple(cards)


def _target_refusal(err: ScoringError, field: str) -> Refusal:
    if err.code == "target_over":
        return Refusal(gettext(
            "These cards total %(total)s, but two or more cards on a target never total more "
            "than 13: the card that went over would lie there alone.") % {
            "total": err.params["total"]}, field=field, code="target_over")
    return Refusal(message_for(err), field=field, code=err.code)


# ------------------------------------------------------------------------ the check


@dataclass(frozen=True, slots=True)
class DreizehnAnswer:
    play: dreizehn.Play
    rule: str
    card: dreizehn.Card | None = None
    """The card played."""
    target: str | None = None
    """The target's colour before the play (``None``: none yet, variant only)."""

    @property
    def allowed(self) -> bool:
        return self.play.allowed

    @property
    def why_allowed(self) -> str:
        """Why the card may go there: ``"red"`` (a red 4 goes on any target), ``"first"``
        (variant: the first coloured card gives a target its colour), ``"colour"`` (its
        own colour's target); ``""`` when it may not."""
        if not self.allowed or self.card is None:
            return ""
        if self.card.colour == dreizehn.RED:
            return "red"
        return "first" if self.target is None else "colour"

    @property
    def colour_name(self) -> str:
        """The played card's colour in the reader's language."""
        return str(COLOUR_NAMES[self.card.colour]) if self.card is not None else ""


def check_dreizehn_play(
    target: str | None, values: Sequence[int], card: dreizehn.Card, *,
    variant: bool = False, elsewhere: Sequence[str] = (),
) -> DreizehnAnswer:
    """May ``card`` go on the ``target`` (a colour, ``None`` for one without a colour yet
    in the variant) holding cards of ``values``, and what happens?

    >>> answer = check_dreizehn_play("yellow", [5, 4, 1, 2], dreizehn.Card("yellow", 2))
    >>> answer.play.total, len(answer.play.taken), answer.rule
    (2, 4, 'over-13')
    >>> check_dreizehn_play("yellow", [7, 4], dreizehn.Card("yellow", 2)).rule
    'app-decides-exactly-13'
    >>> check_dreizehn_play("yellow", [5], dreizehn.Card("yellow", 2)).rule
    'over-13'
    """
    mode = dreizehn.Variant.COLOUR_BY_FIRST_CARD if variant else dreizehn.Variant.FIXED_COLOURS
    if target is None and not variant:
        raise Refusal(gettext("Only in the variant can a target be without a colour."),
                      field="target", code="target_colourless")
    try:
        cards = target_cards(values, target)
    except Refusal as refusal:
        raise Refusal(refusal.message, field="cards", code=refusal.code) from refusal
    try:
        dreizehn.check_target(target, cards, variant=mode)
    except ScoringError as err:
        raise _target_refusal(
            err, "target" if err.code == "target_empty_coloured" else "cards") from err
    play = dreizehn.check_play(target, cards, card, variant=mode,
                               colours_elsewhere=elsewhere if variant else ())
    if play.verdict is dreizehn.Verdict.COLOUR_ELSEWHERE or (variant and not play.allowed):
        # In the variant a target's colour is the one its first coloured card gave it.
        rule = "variant-open-targets"
    elif not play.allowed:
        rule = "colours"
    elif play.total == dreizehn.LIMIT and not play.taken:
        rule = "app-decides-exactly-13"
    else:
        # Over 13 the cards are taken; below it nothing happens: the "over 13" rule either way.
        rule = "over-13"
    return DreizehnAnswer(play, rule, card, target)


# ---------------------------------------------------------------- the target helper


@dataclass(frozen=True, slots=True)
class Target:
    key: str
    """The target's key in the URL: ``y``/``g``/``b`` (fixed colours) or ``t1``–``t3``."""
    colour: str | None
    """Its colour (``None``: none yet, variant only)."""
    cards: tuple[dreizehn.Card, ...]
    total: int


FIXED_KEYS = {"y": "yellow", "g": "green", "b": "blue"}
VARIANT_KEYS = ("t1", "t2", "t3")


def load_target(key: str, colour: str | None, values: Sequence[int], *, variant: bool) -> Target:
    """One target from the URL, refused (naming its key) if it could not lie like this."""
    mode = dreizehn.Variant.COLOUR_BY_FIRST_CARD if variant else dreizehn.Variant.FIXED_COLOURS
    try:
        cards = target_cards(values, colour)
        total = dreizehn.check_target(colour, cards, variant=mode)
    except Refusal as refusal:
        raise Refusal(refusal.message, field=key, code=refusal.code) from refusal
    except ScoringError as err:
        raise _target_refusal(err, key) from err
    return Target(key, colour, cards, total)


def check_colours_once(targets: Sequence[Target]) -> None:
    """In the variant each colour lies on one target only."""
    colours = [target.colour for target in targets if target.colour is not None]
    for colour in colours:
        if colours.count(colour) > 1:
            raise Refusal(gettext("The colour %(colour)s cannot be on two targets.") % {
                "colour": COLOUR_NAMES[colour]}, code="colour_twice")


def check_tally(tally: Sequence[Sequence[int]], targets: Sequence[Target]) -> None:
    """Cards taken per colour (and those still on the targets) within the box's 14 per
    colour and 8 red 4s."""
    for column, (colour, limit) in enumerate(zip(TALLY_COLOURS, TALLY_LIMITS, strict=True)):
        lying = sum(1 for target in targets for card in target.cards if card.colour == colour)
        count = sum(row[column] for row in tally) + lying
        if count > limit:
            if colour == dreizehn.RED:
                message = gettext("There are only 8 red 4s, but %(count)s are counted here.")
            else:
                message = gettext("There are only 14 %(colour)s cards, but %(count)s are "
                                  "counted here.")
            raise Refusal(message % {"colour": COLOUR_NAMES[colour], "count": count},
                          field="taken", code="tally_over")


@dataclass(frozen=True, slots=True)
class TargetPlay:
    targets: tuple[Target, ...]
    play: dreizehn.Play
    target: int
    """Index of the target played on."""
    card: dreizehn.Card


def play_on_target(
    targets: Sequence[Target], index: int, card: dreizehn.Card, *, variant: bool,
) -> TargetPlay:
    """``card`` played on target ``index``; refused when it may not go there.

    >>> t = [load_target(k, c, [], variant=False) for k, c in FIXED_KEYS.items()]
    >>> t[0] = load_target("y", "yellow", [7, 5], variant=False)
    >>> after = play_on_target(t, 0, dreizehn.Card("yellow", 2), variant=False)
    >>> after.targets[0].total, [c.value for c in after.play.taken]
    (2, [7, 5])
    """
    mode = dreizehn.Variant.COLOUR_BY_FIRST_CARD if variant else dreizehn.Variant.FIXED_COLOURS
    target = targets[index]
    elsewhere = [t.colour for i, t in enumerate(targets) if i != index and t.colour]
    play = dreizehn.check_play(target.colour, target.cards, card, variant=mode,
                               colours_elsewhere=elsewhere if variant else ())
    if play.verdict is dreizehn.Verdict.COLOUR_ELSEWHERE:
        raise Refusal(gettext("The colour %(colour)s already lies on another target.") % {
            "colour": COLOUR_NAMES[card.colour]}, field="target", code="colour_elsewhere")
    if not play.allowed:
        raise Refusal(gettext("A %(card)s card cannot go on the %(target)s target.") % {
            "card": COLOUR_NAMES[card.colour],
            "target": COLOUR_NAMES[target.colour or dreizehn.RED]},
            field="target", code="wrong_colour")
    after = list(targets)
    after[index] = replace(target, colour=play.colour, cards=play.cards, total=play.total)
    return TargetPlay(tuple(after), play, index, card)

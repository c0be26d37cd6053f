"""X nimmt!: a round resolved card by card, and a card joining an X-Reihe."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from companion.games.checks import check_player_count
from companion.games.rows import ResolvedRound, closing_rule, revealed_only
from scoring import x_nimmt

X_ROW_CARDS = (3, 4, 5)
"""The row cards of the three rows, top to bottom."""

RULE_ANCHORS = {
    x_nimmt.PlacementRule.ASCENDING: "rule-lowest-difference",
    x_nimmt.PlacementRule.FULL_ROW: "rule-full-row",
    x_nimmt.PlacementRule.LOW_CARD: "rule-low-card",
}
"""The rules page's anchor of each placement rule."""


@dataclass(frozen=True, slots=True)
class RoundChoices:
    """The choices made so far: a row per too-low card, an X-Reihe card per taking card."""

    rows: Mapping[int, int] = field(default_factory=dict)
    """Revealed card → index 0–2 of the row its player takes (rule 4)."""
    x_cards: Mapping[int, int] = field(default_factory=dict)
    """Revealed card → the taken card its player puts into the X-Reihe."""


@dataclass(frozen=True, slots=True)
class XStep:
    """One step of the round with the rule that decided it."""

    step: x_nimmt.Step
    row_card: int
    rule: str


@dataclass(frozen=True, slots=True)
class XOption:
    """One answer to the pending choice: a row to take, or a card for the X-Reihe."""

    value: str
    """``"<revealed card>:<row index or card>"``, as the form posts it back."""
    row_card: int | None = None
    takes: tuple[int, ...] = ()
    card: int | None = None


@dataclass(frozen=True, slots=True)
class XRoundAnswer(ResolvedRound):
    resolution: x_nimmt.RoundResolution
    steps: tuple[XStep, ...]
    options: tuple[XOption, ...]
    """The answers to the pending choice (empty when the round is complete)."""
    rows_after: tuple[tuple[int, tuple[int, ...]], ...]
    """(row card, cards) per row after the last step."""
    choices: RoundChoices
    """The choices that were used (those for cards not revealed are dropped)."""
    rule: str
    pending_row_card: int | None = None
    """For a pending X-Reihe choice: the row card of the row the card went to."""
    pending_take_rule: str | None = None
    """For a pending X-Reihe choice: why its player takes (full row, or the low card's
    chosen row)."""


def check_x_nimmt_round(
    rows: Sequence[Sequence[int]], cards: Mapping[str, int],
    choices: RoundChoices | None = None, *, x_rows: Mapping[str, Sequence[int]] | None = None,
) -> XRoundAnswer:
    """The round in which ``cards`` (player → revealed card) meet ``rows`` (3-, 4-, 5-row).

    >>> answer = check_x_nimmt_round([[12], [15], [54]], {"Anna": 18, "Ben": 22, "Cem": 60})
    >>> [(s.step.card, s.row_card, s.step.taken) for s in answer.steps]
    [(18, 4, ()), (22, 4, ()), (60, 5, ())]
    """
    check_player_count("x-nimmt", len(cards))
    choices = choices or RoundChoices()
    used = RoundChoices(revealed_only(choices.rows, cards), revealed_only(choices.x_cards, cards))
    resolution = x_nimmt.resolve_round(
        rows, cards, row_choices=dict(used.rows), x_choices=dict(used.x_cards),
        x_rows={name: tuple(row) for name, row in x_rows.items()} if x_rows else None,
    )
    steps = tuple(
        XStep(step, X_ROW_CARDS[step.row], RULE_ANCHORS[step.rule]) for step in resolution.steps
    )
    pending = resolution.pending
    options: tuple[XOption, ...] = ()
    pending_rule = None
    pending_row_card: int | None = None
    pending_take_rule: str | None = None
    if pending is not None and pending.kind is x_nimmt.ChoiceKind.ROW:
        options = tuple(
            XOption(f"{pending.card}:{index}", row_card=X_ROW_CARDS[index],
                    takes=resolution.rows[index])
            for index in pending.options
        )
        pending_rule = "rule-low-card"
    elif pending is not None:
        options = tuple(XOption(f"{pending.card}:{card}", card=card) for card in pending.options)
        pending_rule = "taken-cards"
        if pending.row is not None:
            pending_row_card = X_ROW_CARDS[pending.row]
            # The rows as they were before the card (the engine waits before placing it).
            low = all(pending.card < row[-1] for row in resolution.rows if row)
            pending_take_rule = "rule-low-card" if low else "rule-full-row"
    return XRoundAnswer(
        resolution, steps, options,
        tuple(zip(X_ROW_CARDS, resolution.rows, strict=True)), used,
        closing_rule(steps, pending=pending_rule), pending_row_card, pending_take_rule,
    )


@dataclass(frozen=True, slots=True)
class XRowAnswer:
    before: tuple[int, ...]
    card: int
    after: tuple[int, ...]
    to_x_stack: tuple[int, ...]
    stack_minus_points: int
    """What the cards moved to the X-stack cost at the end of the deal (engine-counted)."""
    rule: str = "x-row"


def check_x_row(x_row: Sequence[int], card: int) -> XRowAnswer:
    """``card`` joins the X-Reihe ``x_row``: what moves to the X-stack and what it costs.

    >>> answer = check_x_row([20, 40], 10)
    >>> answer.after, answer.to_x_stack, answer.stack_minus_points
    ((10,), (20, 40), 12)
    """
    after, moved = x_nimmt.add_to_x_row(x_row, card)
    cost = x_nimmt.deal_penalty(hand=(), x_stack=moved)
    return XRowAnswer(tuple(x_row), card, after, moved, cost)

"""6 nimmt!: a round resolved card by card ("where does this card go, what do I take")."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from companion.games.checks import check_player_count
from companion.games.rows import ResolvedRound, closing_rule, revealed_only
from scoring import sechs_nimmt as engine

RULE_ANCHORS = {
    engine.PlacementRule.ASCENDING: "rule-lowest-difference",
    engine.PlacementRule.SIXTH_CARD: "rule-sixth-card",
    engine.PlacementRule.LOW_CARD: "rule-low-card",
}
"""The rules page's anchor of each placement rule."""


@dataclass(frozen=True, slots=True)
class SechsStep:
    """One step of the round with the rule that decided it and what the take costs."""

    step: engine.Step
    row_number: int
    """1–4, top to bottom."""
    rule: str
    hornochsen: int
    """The Hornochsen on the cards taken (0 if none)."""


@dataclass(frozen=True, slots=True)
class RowOption:
    """One row a low card's player may take."""

    value: str
    """``"<revealed card>:<row index>"``, as the form posts it back."""
    row_number: int
    takes: tuple[int, ...]
    hornochsen: int


@dataclass(frozen=True, slots=True)
class SechsRoundAnswer(ResolvedRound):
    resolution: engine.RoundResolution
    steps: tuple[SechsStep, ...]
    options: tuple[RowOption, ...]
    """The rows the pending low card may take (empty when the round is complete)."""
    rows_after: tuple[tuple[int, tuple[int, ...]], ...]
    """(row number, cards) per row after the last step."""
    choices: Mapping[int, int] = field(default_factory=dict)
    """The row choices that were used (those for cards not revealed are dropped)."""
    rule: str = "rule-lowest-difference"


def _bulls(cards: Sequence[int]) -> int:
    return sum(engine.hornochsen(card) for card in cards)


def check_sechs_nimmt_round(
    rows: Sequence[Sequence[int]], cards: Mapping[str, int],
    choices: Mapping[int, int] | None = None,
) -> SechsRoundAnswer:
    """The round in which ``cards`` (player → revealed card) meet the four ``rows``.

    >>> answer = check_sechs_nimmt_round([[12], [20, 21, 22, 23, 24], [50], [70]],
    ...                                  {"Anna": 25, "Ben": 35, "Cem": 8}, {8: 0})
    >>> [(s.step.player, s.row_number, s.step.taken, s.hornochsen) for s in answer.steps]
    [('Cem', 1, (12,), 1), ('Anna', 2, (20, 21, 22, 23, 24), 11), ('Ben', 2, (), 0)]
    """
    check_player_count("sechs-nimmt", len(cards))
    used = revealed_only(choices or {}, cards)
    resolution = engine.resolve_round(rows, cards, row_choices=used)
    steps = tuple(
        SechsStep(step, step.row + 1, RULE_ANCHORS[step.rule], _bulls(step.taken))
        for step in resolution.steps
    )
    pending = resolution.pending
    options = () if pending is None else tuple(
        RowOption(f"{pending.card}:{index}", index + 1, resolution.rows[index],
                  _bulls(resolution.rows[index]))
        for index in pending.options
    )
    return SechsRoundAnswer(
        resolution, steps, options,
        tuple((index + 1, row) for index, row in enumerate(resolution.rows)), used,
        closing_rule(steps, pending=None if pending is None else "rule-low-card"),
    )

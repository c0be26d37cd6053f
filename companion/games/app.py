"""What the app knows about one game beside its rules engine: :class:`GameApp`.

Each game's folder builds one (``companion/games/<game>/__init__.py``: ``APP``);
:mod:`companion.games` collects them in the engine's order.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from django import forms
from django.urls import reverse
from django.utils.functional import Promise

from companion.games.check_forms import CheckForm
from companion.games.entry import EntryFormat
from companion.games.live import LiveMode
from companion.games.rules_text import GameText
from companion.games.search_words import GameSearch
from companion.games.tallies import Figure, Tallies
from companion.turns import TurnRules
from scoring import GameInfo
from scoring.common import ScorePart


@dataclass(frozen=True, slots=True)
class Tool:
    """A live helper for the table: a view in the game's folder (its state in the URL,
    see :mod:`companion.games.tools`), served at ``/tools/<key>/``."""

    key: str
    """Its part of the address, unique across the games (``bulls``: ``/tools/bulls/``)."""
    label: str | Promise
    """The button that opens it, in the reader's language."""
    view: str
    """The dotted name of its view function (imported on the first request, so that the
    registry does not import views)."""

    @property
    def url(self) -> str:
        return reverse("tool", args=[self.key])


@dataclass(frozen=True, slots=True, kw_only=True)
class GameApp:
    """One game as the app sees it; every field is data, so no page asks ``if game == ...``.

    Keyword-only, so that a new field (with or without a default) never reorders the
    five ``APP = GameApp(...)`` calls.
    """

    slug: str
    info: GameInfo
    """The engine's facts (``scoring.GAMES[slug]``): title, players, who wins."""
    rules: Mapping[str, GameText]
    """The rules page per language (``"de"``, ``"en"``)."""
    check_forms: Mapping[str, type[CheckForm]]
    """The forms of the check page by their prefix (which the page posts as ``check``),
    in the page's order."""
    check_template: str
    """The check page's template, with a partial per form prefix for htmx answers."""
    tally: Callable[[Any], dict[str, int]]
    """What one recorded entry (the engine's ``Entry``) adds to the per-deal statistics
    (zeros may be left out): summed per seat of a finished match (``SeatResult.tally``),
    then per player and game (``GameRecord``)."""
    figures: Callable[[Tallies], tuple[Figure, ...]]
    """The statistics only per-deal data allows, from the game's summed tallies."""
    entry: EntryFormat
    """How a deal is entered on the score sheet (the deal form's fields per player)."""
    search: GameSearch
    """How players ask about the game: its names in a question, its own words, the
    sections about a move and the reader of a question naming cards."""
    turns: TurnRules = field(default_factory=TurnRules)
    """Who deals and starts each deal, and the rematch's first deal."""
    start_fields: Callable[[], dict[str, forms.Field]] | None = None
    """The game's match options on the new-match form: its form fields by name (the form
    names them ``<folder>-<name>`` and shows them while the game is chosen), if any."""
    start_options: Callable[[Mapping[str, Any]], dict[str, object]] | None = None
    """The options the match stores, from the cleaned values of ``start_fields`` (by their
    own names); raises ``ValidationError`` for a combination the game refuses."""
    tool: Tool | None = None
    """The game's live helper, if it has one."""
    live: LiveMode | None = None
    """The game's live board, if it has one (recorded tap by tap while playing)."""
    option_checks: Mapping[str, Callable[[Any], None]] = field(default_factory=dict)
    """Match options of this game beside the live record, each with the check of its
    value read from a file (raises :class:`~companion.games.checks.Refusal`)."""
    bgg_id: int | None = None
    """The game's BoardGameGeek id, if known: how a BG Stats file names it
    (:mod:`companion.bgstats`; written as 0, BG Stats' "none", when unknown)."""
    colour_words: Mapping[str, str | Promise] = field(default_factory=dict)
    """The game's colour keys (in its engine's messages and score parts) in the reader's
    words (:func:`companion.games.messages.colour_word`)."""
    demo_players: tuple[int, ...] = ()
    """The game's matches in the demo data (``manage.py seed_demo``): the number of
    players of each, played through the engine's ``random_game``."""
    part_texts: Mapping[str, Callable[[ScorePart], str]] = field(default_factory=dict)
    """The words for the game's own kinds of score part (``ScorePart.kind`` that are not
    ``scoring.common.SHARED_PART_KINDS``), each from the part to a line in the reader's
    language (``companion.breakdown``)."""
    bgg_name: str = ""
    """The game's name at BoardGameGeek (with ``bgg_id``): BG Stats' ``bggName``; a game
    without an id is a custom game there, whose ``bggName`` is its own name."""
    bgstats_names: tuple[str, ...] = ()
    """The names a BG Stats game of this kind may carry (compared by
    :func:`companion.bgstats.name_match_key`: case, spaces and punctuation do not count)."""

    @property
    def folder(self) -> str:
        """The folder's (and the engine module's) name, e.g. ``x_nimmt``."""
        return self.info.module.rsplit(".", 1)[1]

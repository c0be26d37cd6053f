"""11 nimmt!: which piles cards may go on, a bull card play, and what taking a pile earns.

Every answer that names a player says why it is that player (the rules file's
decision on stealing bull cards): the counts that make them "the player with
the most", counted over everybody with the taker included.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from django.utils.translation import gettext, ngettext

from companion.games.checks import Refusal, check_player_count, names_and, names_or
from companion.games.messages import message_for
from scoring import ScoringError, elf_nimmt

PLAY_RULES = {
    elf_nimmt.PlayProblem.TOO_FAR: "rule-difference",
    elf_nimmt.PlayProblem.WRONG_ORDER: "bull-cards",
    elf_nimmt.PlayProblem.SEVERAL_CARDS: "bull-cards",
    elf_nimmt.PlayProblem.TOO_MANY_PILES: "bull-cards",
}
"""The deciding rule of a refused play (others: the turn)."""


@dataclass(frozen=True, slots=True)
class ElfCard:
    card: int
    distances: tuple[int, ...]
    legal: tuple[int, ...]
    """0-based pile indices the card may go on."""

    @property
    def piles_text(self) -> str:
        """The piles it may go on as a player reads them: "1", "1 or 2", "1, 3 or 4"."""
        return names_or([str(index + 1) for index in self.legal])


@dataclass(frozen=True, slots=True)
class ElfPlayAnswer:
    tops: tuple[int, ...]
    cards: tuple[ElfCard, ...]
    must_take: bool | None
    """None when no hand was given."""
    play: elf_nimmt.PlayCheck | None
    play_message: str
    bulls: int
    rule: str
    several: bool = False
    """The play puts down more than one card (what only bull cards allow)."""
    wraps: bool = False
    """A card of the play goes on a higher top card: it fits only because 1 follows 100."""


def play_message(check: elf_nimmt.PlayCheck) -> str:
    """The engine's verdict on a play in the reader's language (counted words by ngettext)."""
    if check.problem is elf_nimmt.PlayProblem.TOO_MANY_PILES:
        bulls = int(str(check.params["bulls"]))
        piles = int(str(check.params["piles"]))
        if bulls == 0:
            return ngettext(
                "Without a bull card you may put cards on one pile only, not %(piles)d.",
                "Without a bull card you may put cards on one pile only, not %(piles)d.",
                piles) % {"piles": piles}
        return ngettext(
            "With %(bulls)d bull card you may put cards on %(bulls)d pile only, not %(piles)d.",
            "With %(bulls)d bull cards you may put cards on at most %(bulls)d piles, "
            "not %(piles)d.", bulls) % {"bulls": bulls, "piles": piles}
    err = ScoringError(check.message, template=check.template)
    err.params = dict(check.params)
    return message_for(err)


def _crosses_100(check: elf_nimmt.PlayCheck) -> bool:
    """A wrongly ordered pile whose cards wrap after 100 (the lower number goes on top)."""
    top, first, then = (check.params.get(key) for key in ("top", "first", "then"))
    return isinstance(top, int) and isinstance(first, int) and isinstance(then, int) and (
        first > top > then)


def check_elf_play(
    tops: Sequence[int], hand: Sequence[int], plays: Mapping[int, Sequence[int]], bulls: int,
) -> ElfPlayAnswer:
    """Where each hand card fits, whether the player must take, and whether ``plays``
    (pile index → cards in the order put down) is allowed with ``bulls`` bull cards.

    >>> answer = check_elf_play([98], [5, 20], {}, 0)
    >>> [(c.card, c.distances, c.legal) for c in answer.cards], answer.must_take
    ([(5, (7,), (0,)), (20, (22,), ())], False)
    >>> check_elf_play([95], [96, 3], {0: (3, 96)}, 1).rule
    'app-decides-wrap-order'
    >>> check_elf_play([98], [5], {0: (5,)}, 0).rule, check_elf_play([33], [40], {0: (40,)}, 0).rule
    ('rule-wrap-around', 'rule-difference')
    """
    if not hand and not plays:
        raise Refusal(gettext("Enter your hand cards."), field="hand", code="no_hand")
    must = elf_nimmt.must_take(tops, hand) if hand else None
    cards = tuple(
        ElfCard(card, elf_nimmt.pile_distances(tops, card), elf_nimmt.legal_piles(tops, card))
        for card in hand
    )
    check = None
    message = ""
    rule = "rule-difference" if must else "turn"
    if plays:
        check = elf_nimmt.check_play(tops, plays, bulls, hand=hand if hand else None)
        message = play_message(check)
        rule = "bull-cards" if check.legal and len(
            [c for cs in plays.values() for c in cs]) > 1 else (
            PLAY_RULES.get(check.problem, "turn") if check.problem else "rule-difference")
        if check.problem is elf_nimmt.PlayProblem.WRONG_ORDER and _crosses_100(check):
            rule = "app-decides-wrap-order"
        elif check.legal and rule == "rule-difference" and any(
                card < tops[pile] for pile, cards_ in plays.items() for card in cards_):
            rule = "rule-wrap-around"  # one card that fits only because 1 comes after 100
    put = [(pile, card) for pile, cards_ in plays.items() for card in cards_]
    wraps = any(0 <= pile < len(tops) and card < tops[pile] for pile, card in put)
    return ElfPlayAnswer(tuple(tops), cards, must, check, message, bulls, rule,
                         several=len(put) > 1, wraps=wraps)


# ------------------------------------------------------------------ bull cards


def bull_card_reason(due: elf_nimmt.BullCardDue, taker: str, *, you: bool = False) -> str:
    """Where the bull card ``taker`` earned comes from, and why, in one or two sentences.

    ``you`` words it for the reader ("you") instead of naming the taker.
    """
    most = due.most
    if due.source is elf_nimmt.BullCardSource.SUPPLY:
        raise ValueError("a bull card from the supply needs no reason")
    if due.source is elf_nimmt.BullCardSource.TAKER_HAS_MOST:
        if you:
            return gettext(
                "The supply is empty and you alone hold the most bull cards (%(most)s): there "
                "is nobody to take one from, so you get none.") % {"most": most}
        return gettext(
            "The supply is empty and %(player)s alone holds the most bull cards (%(most)s): "
            "there is nobody to take one from, so %(player)s gets none.") % {
            "player": taker, "most": most}
    others = due.candidates
    if due.taker_among_most:
        leaders = names_and([taker, *others])
        text = gettext("The supply is empty. %(leaders)s hold the most bull cards "
                       "(%(most)s each).") % {"leaders": leaders, "most": most}
    elif len(others) == 1:
        text = gettext("The supply is empty. %(player)s holds the most bull cards "
                       "(%(most)s).") % {"player": others[0], "most": most}
    else:
        text = gettext("The supply is empty. %(leaders)s hold the most bull cards "
                       "(%(most)s each).") % {"leaders": names_and(others), "most": most}
    if you:
        if len(others) == 1:
            ask = gettext("You may take one from %(player)s; you do not have to.") % {
                "player": others[0]}
        else:
            ask = gettext("You may take one from %(players)s (your choice); you do not have "
                          "to.") % {"players": names_or(others)}
    elif len(others) == 1:
        ask = gettext("%(taker)s may take one from %(player)s.") % {
            "taker": taker, "player": others[0]}
    else:
        ask = gettext("%(taker)s may take one from %(players)s: from whom?") % {
            "taker": taker, "players": names_or(others)}
    return f"{text} {ask}"


@dataclass(frozen=True, slots=True)
class ElfTakeAnswer:
    size: int
    earns: bool
    """The pile had 3 or more cards."""
    due: elf_nimmt.BullCardDue | None
    """Where the bull card comes from (None when the pile earns none)."""
    after: elf_nimmt.BullCards | None
    """The bull cards afterwards, when the card comes from the supply or from one player."""
    headline: str
    rule: str

    @property
    def from_a_player(self) -> bool:
        """The supply is empty: the card would come from another player (or from nobody)."""
        return self.due is not None and self.due.source is not elf_nimmt.BullCardSource.SUPPLY

    @property
    def gets_one(self) -> bool:
        return self.due is not None and self.due.source is not (
            elf_nimmt.BullCardSource.TAKER_HAS_MOST)


def check_elf_take(size: int, mine: int, others: Sequence[int]) -> ElfTakeAnswer:
    """What taking a pile of ``size`` cards earns a player holding ``mine`` bull cards,
    when the other players hold ``others``.

    >>> check_elf_take(4, 6, [4]).due.source.name
    'TAKER_HAS_MOST'
    """
    check_player_count("elf-nimmt", 1 + len(others), field="others")
    you = gettext("You")
    holders = {you: mine}
    for index, count in enumerate(others, start=2):
        holders[gettext("Player %(number)s") % {"number": index}] = count
    held = sum(holders.values())
    if held > elf_nimmt.BULL_CARDS:
        raise Refusal(gettext("There are only 10 bull cards, but %(count)s are held.") % {
            "count": held}, field="others", code="bull_total")
    state = elf_nimmt.BullCards(elf_nimmt.BULL_CARDS - held, holders)
    if size < elf_nimmt.PILE_FOR_BULL_CARD:
        return ElfTakeAnswer(size, False, None, None, ngettext(
            "A pile of %(count)d card earns no bull card.",
            "A pile of %(count)d cards earns no bull card.", size) % {"count": size},
            "bull-card-gain")
    due = elf_nimmt.bull_card_source(state, you)
    if due.source is elf_nimmt.BullCardSource.SUPPLY:
        after = elf_nimmt.take_pile(state, you, size)
        return ElfTakeAnswer(size, True, due, after, gettext(
            "You get a bull card from the supply (%(left)s left).") % {"left": after.supply},
            "bull-card-gain")
    after = (elf_nimmt.take_pile(state, you, size)
             if due.source is elf_nimmt.BullCardSource.PLAYER else None)
    return ElfTakeAnswer(size, True, due, after, bull_card_reason(due, you, you=True),
                         "app-decides-stealing")


# ------------------------------------------------------------- the bull card tracker


@dataclass(frozen=True, slots=True)
class TrackerStep:
    """The tracker after a player took a pile of 3 or more cards."""

    state: elf_nimmt.BullCards
    event: str
    """What happened, for the URL (see :func:`tracker_event`): ``supply.<taker>``,
    ``steal.<taker>.<victim>``, ``none.<taker>``, ``kept.<taker>``; empty while the
    taker still has to choose."""
    choose_from: tuple[str, ...] = ()
    """When several others tie for the most: whom the taker may take one from."""
    reason: str = ""
    """Why those players (with :attr:`choose_from`)."""


def tracker_take(
    state: elf_nimmt.BullCards, taker: int, *, steal: int | None = None, keep: bool = False,
) -> TrackerStep:
    """``taker`` (a seat) took a pile of 3 or more cards: the bull card from the supply,
    or, with the supply empty, from the player with the most (``steal`` names the seat
    on a tie; ``keep`` declines, as stealing is optional).

    >>> start = elf_nimmt.BullCards(0, {"Anna": 6, "Ben": 4})
    >>> tracker_take(start, 0).event, tracker_take(start, 1).event
    ('none.0', 'steal.1.0')
    """
    players = tuple(state.holders)
    name = players[taker]
    due = elf_nimmt.bull_card_source(state, name)
    if due.source is elf_nimmt.BullCardSource.SUPPLY:
        return TrackerStep(elf_nimmt.take_pile(state, name, elf_nimmt.PILE_FOR_BULL_CARD),
                           f"supply.{taker}")
    if due.source is elf_nimmt.BullCardSource.TAKER_HAS_MOST:
        return TrackerStep(state, f"none.{taker}")
    if keep:
        return TrackerStep(state, f"kept.{taker}")
    if steal is not None and not 0 <= steal < len(players):
        raise Refusal(gettext("There is no such player."), field="steal", code="no_player")
    if due.source is elf_nimmt.BullCardSource.CHOICE and steal is None:
        return TrackerStep(state, "", due.candidates, bull_card_reason(due, name))
    victim = players[steal] if steal is not None else due.candidates[0]
    after = elf_nimmt.take_pile(state, name, elf_nimmt.PILE_FOR_BULL_CARD, victim)
    return TrackerStep(after, f"steal.{taker}.{players.index(victim)}")


def _seat(text: str, players: Sequence[str]) -> int | None:
    return int(text) if text.isascii() and text.isdigit() and len(text) < 2 and (
        int(text) < len(players)) else None


def tracker_event(event: str, state: elf_nimmt.BullCards) -> str:
    """The last action of the tracker in words, with its true reason; "" for an
    event that does not fit ``state`` (a hand-made URL)."""
    players = tuple(state.holders)
    kind, *rest = event.split(".")
    seats = [_seat(part, players) for part in rest]
    if kind == "new" and not rest:
        return gettext("New deal: all 10 bull cards are back in the supply.")
    if not seats or None in seats:
        return ""
    names = [players[seat] for seat in seats if seat is not None]
    if kind == "supply" and len(names) == 1:
        return gettext("%(player)s gets a bull card from the supply (%(left)s left).") % {
            "player": names[0], "left": state.supply}
    if kind == "kept" and len(names) == 1:
        due = elf_nimmt.bull_card_source(state, names[0])
        if due.source not in (elf_nimmt.BullCardSource.PLAYER, elf_nimmt.BullCardSource.CHOICE):
            return ""  # nothing to decline: the supply has one, or the taker alone has most
        return gettext("%(player)s takes no bull card from %(players)s: taking one is "
                       "allowed, not required.") % {
            "player": names[0], "players": names_or(due.candidates)}
    if kind == "none" and len(names) == 1:
        due = elf_nimmt.bull_card_source(state, names[0])
        if due.source is not elf_nimmt.BullCardSource.TAKER_HAS_MOST:
            return ""
        return bull_card_reason(due, names[0])
    if kind == "steal" and len(names) == 2 and names[0] != names[1] and not state.supply:
        taker, victim = names
        if state.holders[taker] == 0:
            return ""
        before = dict(state.holders)
        before[taker] -= 1
        before[victim] += 1
        most = max(before.values())
        if before[victim] != most:
            return ""
        leaders = [player for player in players if before[player] == most]
        if len(leaders) == 1:
            return gettext("%(player)s held the most bull cards (%(most)s): %(taker)s takes "
                           "one from %(player)s.") % {
                "player": victim, "most": most, "taker": taker}
        return gettext("%(leaders)s held the most bull cards (%(most)s each): %(taker)s "
                       "takes one from %(player)s.") % {
            "leaders": names_and(leaders), "most": most, "taker": taker, "player": victim}
    return ""


def tracker_undo(event: str, state: elf_nimmt.BullCards) -> dict[str, int] | None:
    """After a steal: the bull cards as they were, to offer "do not take it" (stealing is
    optional); ``None`` for any other event."""
    if not tracker_event(event, state) or not event.startswith("steal."):
        return None
    players = tuple(state.holders)
    _kind, taker, victim = event.split(".")
    before = dict(state.holders)
    before[players[int(taker)]] -= 1
    before[players[int(victim)]] += 1
    return before

"""Kartenrunde's data: groups, their players, game nights, matches and deals.

Scores are computed by ``scoring/`` only; the models keep what was recorded
(``DealScore.data``) and the engine's results (``DealScore.score``,
``Seat.total``/``place``/``is_winner``) so that history pages can read them
without recomputing every match.
"""

from __future__ import annotations

import secrets

from django.conf import settings
from django.db import models
from django.db.models.functions import Lower
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from scoring import GAMES


def new_invite_token() -> str:
    """An unguessable invite token (192 bits)."""
    return secrets.token_urlsafe(24)


def new_pass_nonce() -> str:
    """The random half of a table pass's token (128 bits)."""
    return secrets.token_urlsafe(16)


def game_choices() -> list[tuple[str, str]]:
    """The games a match may be of: every game of the registry (``scoring.GAMES``).

    A callable, so that a migration names this function rather than freezing the list:
    a new game needs no migration (the field still refuses a slug no game has).
    """
    return [(slug, info.title) for slug, info in GAMES.items()]


class Group(models.Model):
    """A group ("Gruppe"): people who play together."""

    name = models.CharField(_("name"), max_length=80)
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="owned_groups",
        verbose_name=_("owner"),
    )
    created_at = models.DateTimeField(_("created"), default=timezone.now)

    class Meta:
        verbose_name = _("group")
        verbose_name_plural = _("groups")
        ordering = [Lower("name"), "id"]

    def __str__(self) -> str:
        return self.name


class Membership(models.Model):
    """An account that belongs to a group."""

    class Role(models.TextChoices):
        OWNER = "owner", _("owner")
        MEMBER = "member", _("member")

    group = models.ForeignKey(Group, on_delete=models.CASCADE, related_name="memberships")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="memberships"
    )
    role = models.CharField(_("role"), max_length=10, choices=Role.choices, default=Role.MEMBER)
    joined_at = models.DateTimeField(_("joined"), default=timezone.now)

    class Meta:
        verbose_name = _("membership")
        verbose_name_plural = _("memberships")
        constraints = [
            models.UniqueConstraint(fields=["group", "user"], name="unique_membership"),
        ]

    def __str__(self) -> str:
        return f"{self.user} in {self.group}"


class Invite(models.Model):
    """A join link with an unguessable token; the owner can revoke it."""

    group = models.ForeignKey(Group, on_delete=models.CASCADE, related_name="invites")
    token = models.CharField(max_length=64, unique=True, default=new_invite_token)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+"
    )
    created_at = models.DateTimeField(_("created"), default=timezone.now)
    revoked_at = models.DateTimeField(_("revoked"), null=True, blank=True)
    expires_at = models.DateTimeField(_("expires"), null=True, blank=True)

    class Meta:
        verbose_name = _("invite")
        verbose_name_plural = _("invites")

    def __str__(self) -> str:
        return f"Invite to {self.group}"


class Player(models.Model):
    """A name on a group's roster; may be linked to a member's account."""

    group = models.ForeignKey(Group, on_delete=models.CASCADE, related_name="players")
    name = models.CharField(_("name"), max_length=40)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True,
        related_name="players", verbose_name=_("account"),
    )
    colour = models.CharField(_("colour"), max_length=7, blank=True)
    """A ``#rrggbb`` colour for the sheet and charts; empty: the default palette's."""
    created_at = models.DateTimeField(_("created"), default=timezone.now)

    class Meta:
        verbose_name = _("player")
        verbose_name_plural = _("players")
        ordering = [Lower("name"), "id"]  # "anna" between "Ada" and "Ben", not after "Zora"
        constraints = [
            models.UniqueConstraint(
                "group", Lower("name"), name="unique_player_name_ci",
                violation_error_message=_("This group already has a player of that name."),
            ),
        ]

    def __str__(self) -> str:
        return self.name


class GameNight(models.Model):
    """An evening of play: matches belong to one."""

    group = models.ForeignKey(Group, on_delete=models.CASCADE, related_name="game_nights")
    date = models.DateField(_("date"), default=timezone.localdate)
    place = models.CharField(_("place"), max_length=100, blank=True)
    notes = models.TextField(_("notes"), blank=True)
    created_at = models.DateTimeField(_("created"), default=timezone.now)

    class Meta:
        verbose_name = _("game night")
        verbose_name_plural = _("game nights")
        ordering = ["-date", "-id"]
        indexes = [models.Index(fields=["group", "-date"])]

    def __str__(self) -> str:
        return f"{self.group}: {self.date}"


class Match(models.Model):
    """One game of one of Kartenrunde's games, played by seated players."""

    class Status(models.TextChoices):
        OPEN = "open", _("running")
        FINISHED = "finished", _("finished")
        ABANDONED = "abandoned", _("abandoned")

    class Source(models.TextChoices):
        SHEET = "sheet", _("score sheet")
        """Recorded deal by deal on the score sheet."""
        BGSTATS = "bgstats", _("imported from BG Stats")
        """Imported from a BG Stats export: final scores only."""

    group = models.ForeignKey(Group, on_delete=models.CASCADE, related_name="matches")
    game_night = models.ForeignKey(GameNight, on_delete=models.CASCADE, related_name="matches")
    game = models.CharField(_("game"), max_length=30, choices=game_choices)
    options = models.JSONField(_("options"), default=dict, blank=True)
    first_dealer = models.PositiveSmallIntegerField(_("first dealer (seat)"), default=0)
    status = models.CharField(
        _("status"), max_length=10, choices=Status.choices, default=Status.OPEN
    )
    created_at = models.DateTimeField(_("created"), default=timezone.now)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True,
        related_name="+", verbose_name=_("created by"),
    )
    finished_at = models.DateTimeField(_("finished"), null=True, blank=True)
    revision = models.PositiveIntegerField(default=0)
    """Bumped by every change to the sheet; the sheet's ETag, read without rendering."""
    source = models.CharField(
        _("source"), max_length=10, choices=Source.choices, default=Source.SHEET
    )
    """Where the match comes from. An imported one (``bgstats``) is finished, has seats
    with their final totals, places and winners, and no deals: it cannot be reopened."""
    # NULL, not "": the sheet's matches have none and must not collide in the constraint.
    external_id = models.CharField(max_length=64, null=True, blank=True)  # noqa: DJ001
    """The imported play's id in its source (BG Stats: the play's ``uuid``), so that the
    same file imported twice adds nothing."""

    class Meta:
        verbose_name = _("match")
        verbose_name_plural = _("matches")
        ordering = ["-created_at", "-id"]
        indexes = [
            models.Index(fields=["group", "game"]),
            # The running ones (group home, start page): found without reading the history.
            models.Index(fields=["group", "status"]),
        ]
        constraints = [
            models.UniqueConstraint(
                fields=["group", "source", "external_id"], name="unique_match_external_id"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.get_game_display()} ({self.game_night.date})"


class Seat(models.Model):
    """A player at a match, in seat order, with the engine's current result."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="seats")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="seats")
    number = models.PositiveSmallIntegerField(_("seat"))
    total = models.IntegerField(_("total"), default=0)
    place = models.PositiveSmallIntegerField(_("place"), null=True, blank=True)
    is_winner = models.BooleanField(_("winner"), default=False)

    class Meta:
        verbose_name = _("seat")
        verbose_name_plural = _("seats")
        ordering = ["match", "number"]
        constraints = [
            models.UniqueConstraint(fields=["match", "number"], name="unique_seat_number"),
            models.UniqueConstraint(fields=["match", "player"], name="unique_seat_player"),
        ]

    def __str__(self) -> str:
        return f"{self.player} @ {self.match_id}"


class Deal(models.Model):
    """One deal of a match; ``version`` guards against stale saves from another phone."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="deals")
    number = models.PositiveSmallIntegerField(_("deal"))
    version = models.PositiveIntegerField(default=1)
    created_at = models.DateTimeField(_("created"), default=timezone.now)
    updated_at = models.DateTimeField(_("updated"), default=timezone.now)

    class Meta:
        verbose_name = _("deal")
        verbose_name_plural = _("deals")
        ordering = ["match", "number"]
        constraints = [
            models.UniqueConstraint(fields=["match", "number"], name="unique_deal_number"),
        ]

    def __str__(self) -> str:
        return f"Deal {self.number} of match {self.match_id}"


class DealScore(models.Model):
    """What one player took in one deal (``data``, the engine's Entry) and its score."""

    deal = models.ForeignKey(Deal, on_delete=models.CASCADE, related_name="scores")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="deal_scores")
    data = models.JSONField(default=dict)
    score = models.IntegerField(_("score"))

    class Meta:
        verbose_name = _("deal score")
        verbose_name_plural = _("deal scores")
        constraints = [
            models.UniqueConstraint(fields=["deal", "player"], name="unique_deal_player"),
        ]

    def __str__(self) -> str:
        return f"{self.player}: {self.score}"


class MatchChange(models.Model):
    """The match's log: every change of a deal (undoable) and of the match's state.

    Nothing is ever deleted from it. An undo and a redo are entries of their own
    (who, when, the deal before and after); the change they act on is marked as
    undone (``undone_at``) while it is undone, so undo and redo know their targets.
    """

    class Kind(models.TextChoices):
        RECORD = "record", _("recorded")
        EDIT = "edit", _("edited")
        DELETE = "delete", _("deleted")
        FINISH = "finish", _("finished")
        REOPEN = "reopen", _("reopened")
        ABANDON = "abandon", _("abandoned")
        UNDO = "undo", _("undone")
        REDO = "redo", _("redone")

    DEAL_KINDS = (Kind.RECORD, Kind.EDIT, Kind.DELETE)
    """The changes of a deal: the ones undo and redo work on."""
    STEP_KINDS = (Kind.UNDO, Kind.REDO)
    """Undo and redo, logged with the deal they changed (not themselves undoable)."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="changes")
    kind = models.CharField(max_length=20, choices=Kind.choices)
    deal_number = models.PositiveSmallIntegerField(null=True, blank=True)
    before = models.JSONField(null=True, blank=True)
    """``{player_id: entry dict}`` before the change; null when the deal did not exist."""
    after = models.JSONField(null=True, blank=True)
    """``{player_id: entry dict}`` after the change; null when the deal no longer exists."""
    created_at = models.DateTimeField(default=timezone.now)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True,
        related_name="+",
    )
    undone_at = models.DateTimeField(null=True, blank=True)
    undone_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True,
        related_name="+",
    )
    created_by_guest = models.CharField(max_length=40, blank=True)
    """The name a guest gave with a table pass, when the change came through one
    (``created_by`` is then empty): the log says "via Tischpass (name)"."""
    undone_by_guest = models.CharField(max_length=40, blank=True)
    """Likewise for the undo of this change."""
    # NULL, not "": changes without a key must not collide in the unique constraint.
    client_key = models.CharField(max_length=64, null=True, blank=True)  # noqa: DJ001
    """The idempotency key a phone sent with a recorded deal (offline queue)."""

    class Meta:
        verbose_name = _("change")
        verbose_name_plural = _("changes")
        ordering = ["-id"]
        constraints = [
            models.UniqueConstraint(
                fields=["match", "client_key"], name="unique_change_client_key"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.kind} deal {self.deal_number} of match {self.match_id}"


class TablePass(models.Model):
    """A "Tischpass": a link for the phones at the table, no account needed.

    It opens one match, or every match of one game night, to whoever has the link:
    to follow (read-only) or, with ``may_write``, to enter deals and use the live
    board. The link's token is the pass's id and ``nonce`` signed with the site's
    secret key (``companion.services.passes``): it grants nothing without both, and
    nothing outside its match or night. It works until ``expires_at`` (the end of the
    game night, at most 24 hours) or until it is revoked.
    """

    group = models.ForeignKey(Group, on_delete=models.CASCADE, related_name="table_passes")
    match = models.ForeignKey(
        Match, on_delete=models.CASCADE, null=True, blank=True, related_name="table_passes"
    )
    game_night = models.ForeignKey(
        GameNight, on_delete=models.CASCADE, null=True, blank=True, related_name="table_passes"
    )
    nonce = models.CharField(max_length=64, default=new_pass_nonce)
    """A random value from ``secrets``, part of the signed token (a new pass, a new token)."""
    may_write = models.BooleanField(_("may enter deals"), default=False)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True,
        related_name="+",
    )
    created_at = models.DateTimeField(_("created"), default=timezone.now)
    expires_at = models.DateTimeField(_("expires"))
    revoked_at = models.DateTimeField(_("revoked"), null=True, blank=True)

    class Meta:
        verbose_name = _("table pass")
        verbose_name_plural = _("table passes")
        ordering = ["-created_at", "-id"]
        constraints = [
            # Exactly one of the two: a pass for a match or for a night, never both or none.
            models.CheckConstraint(
                condition=(
                    models.Q(match__isnull=False, game_night__isnull=True)
                    | models.Q(match__isnull=True, game_night__isnull=False)
                ),
                name="table_pass_match_or_night",
            ),
        ]

    def __str__(self) -> str:
        return f"Table pass {self.pk} of group {self.group_id}"


class ChangeReceipt(models.Model):
    """A change a phone sent with its idempotency key (``client_key``), kept with the
    change in one transaction: the same send arriving again (a double tap, a retry after
    a lost answer, the offline queue) is answered "saved already" instead of being
    applied twice or refused as stale (``companion.idempotency``)."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, null=True, blank=True,
        related_name="+",
    )
    table_pass = models.ForeignKey(
        TablePass, on_delete=models.CASCADE, null=True, blank=True, related_name="+"
    )
    """Whose send it was: a member (``user``) or a guest at the table (``table_pass``)."""
    key = models.CharField(max_length=64)
    action = models.CharField(max_length=20)
    """What the send did: "edit", "undo", "finish", "live", "start", ..."""
    fingerprint = models.CharField(max_length=64)
    """A hash of the form's values: the key sent again with other values is refused."""
    group = models.ForeignKey(
        Group, on_delete=models.CASCADE, null=True, blank=True, related_name="+"
    )
    match = models.ForeignKey(
        "Match", on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    """The match changed (or started); kept None once it is deleted, so that a repeated
    deletion is still recognised."""
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["user", "key"], condition=models.Q(user__isnull=False),
                name="unique_receipt_key",
            ),
            models.UniqueConstraint(
                fields=["table_pass", "key"], condition=models.Q(table_pass__isnull=False),
                name="unique_guest_receipt_key",
            ),
            models.CheckConstraint(
                condition=(
                    models.Q(user__isnull=False, table_pass__isnull=True)
                    | models.Q(user__isnull=True, table_pass__isnull=False)
                ),
                name="receipt_of_member_or_guest",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.action} {self.key}"


class GroupChange(models.Model):
    """The group's log: renames, joins, removals, account links and the like."""

    class Kind(models.TextChoices):
        RENAME = "rename", _("renamed")
        JOIN = "join", _("joined")
        LEAVE = "leave", _("left")
        REMOVE = "remove", _("removed")
        LINK = "link", _("linked")
        UNLINK = "unlink", _("unlinked")
        PLAYER_RENAME = "player-rename", _("player renamed")
        INVITE = "invite", _("invite changed")

    group = models.ForeignKey(Group, on_delete=models.CASCADE, related_name="changes")
    kind = models.CharField(max_length=20, choices=Kind.choices)
    detail = models.JSONField(default=dict, blank=True)
    """What changed, e.g. ``{"from": "Runde", "to": "Dienstagsrunde"}``."""
    created_at = models.DateTimeField(default=timezone.now)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True,
        related_name="+",
    )

    class Meta:
        verbose_name = _("group change")
        verbose_name_plural = _("group changes")
        ordering = ["-id"]

    def __str__(self) -> str:
        return f"{self.kind} in group {self.group_id}"


# --- Statistics kept per finished match (derived data: companion.services.results) ---------


class SeatResult(models.Model):
    """A seat of a finished match as the statistics read it, written when the match is
    finished and dropped when it is reopened or deleted (never edited by hand).

    Carries what the history's statistics need without joins: the game night's date and
    the match's start (the order played), the number of players, and the player's
    per-deal figures summed over the match (``tally``, see ``GameApp.tally``).
    """

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="results")
    seat = models.OneToOneField(Seat, on_delete=models.CASCADE, related_name="+")
    group = models.ForeignKey(Group, on_delete=models.CASCADE, related_name="+")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")
    game = models.CharField(max_length=30, choices=game_choices)
    date = models.DateField()
    """The game night's date."""
    started_at = models.DateTimeField()
    """The match's ``created_at``: with ``date`` and the match id, the order played."""
    number = models.PositiveSmallIntegerField()
    """The seat number."""
    players = models.PositiveSmallIntegerField()
    total = models.IntegerField()
    place = models.PositiveSmallIntegerField(null=True)
    is_winner = models.BooleanField()
    deals = models.PositiveSmallIntegerField()
    """The match's number of deals."""
    worst_score = models.IntegerField(null=True)
    """The player's worst deal score in the match (None without deals)."""
    worst_deal = models.PositiveSmallIntegerField(null=True)
    """The first deal with ``worst_score``."""
    tally = models.JSONField(default=dict)
    """The player's per-deal figures, summed: ``{"entries": 8, "bulls": 11, ...}``."""

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["match", "player"], name="unique_seat_result_player"),
        ]
        indexes = [
            # The order played, with the win flag: a player's streaks read the index only.
            models.Index(fields=["player", "date", "started_at", "match", "is_winner"]),
            models.Index(fields=["group", "game", "total"]),
            models.Index(fields=["group", "game", "worst_score"]),
        ]

    def __str__(self) -> str:
        return f"{self.player_id} @ {self.match_id}: {self.total}"


class PlayerRecord(models.Model):
    """What the player page shows, kept up to date from the player's :class:`SeatResult` rows."""

    player = models.OneToOneField(Player, on_delete=models.CASCADE, related_name="+")
    data = models.JSONField(default=dict)
    """``{"games": [[game, matches, wins, total sum, best, worst], ...], "months":
    [["2026-03", matches, wins], ...] (oldest first), "longest": 4, "current": 1}``."""

    def __str__(self) -> str:
        return f"record of {self.player_id}"


class PairRecord(models.Model):
    """Two players' finished matches together in one game (``first`` has the lower id)."""

    first = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")
    second = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")
    game = models.CharField(max_length=30, choices=game_choices)
    matches = models.PositiveIntegerField()
    first_ahead = models.PositiveIntegerField()
    second_ahead = models.PositiveIntegerField()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["first", "second", "game"], name="unique_pair_game"),
        ]

    def __str__(self) -> str:
        return f"{self.first_id} vs {self.second_id} in {self.game}"


class GameRecord(models.Model):
    """A group's finished matches of one game, summed for the game page."""

    group = models.ForeignKey(Group, on_delete=models.CASCADE, related_name="+")
    game = models.CharField(max_length=30, choices=game_choices)
    matches = models.PositiveIntegerField()
    deals = models.PositiveIntegerField()
    data = models.JSONField(default=dict)
    """``{"lines": [[player id, matches, wins, total sum], ...], "tallies": {"<player id>":
    {"entries": 40, "bulls": 52, ...}}}``."""

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["group", "game"], name="unique_game_record"),
        ]

    def __str__(self) -> str:
        return f"{self.game} in group {self.group_id}"


class GameCount(models.Model):
    """How many matches of one game a group has started (running, finished and abandoned
    ones): the numbers beside the games in the statistics links, read without counting
    the group's matches. Kept by ``match_start`` and ``match_delete``, recounted by
    ``results_rebuild`` (an import, a restore)."""

    group = models.ForeignKey(Group, on_delete=models.CASCADE, related_name="+")
    game = models.CharField(max_length=30, choices=game_choices)
    matches = models.PositiveIntegerField()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["group", "game"], name="unique_game_count"),
        ]

    def __str__(self) -> str:
        return f"{self.matches} × {self.game} in group {self.group_id}"


# --- Skill ratings (derived data: companion.services.ratings) -------------------------------

ALL_GAMES = ""
"""The ``game`` of a rating across all five games."""


class Rating(models.Model):
    """A player's current skill rating (openskill's ``mu`` and ``sigma``) in one game of
    their group, or across all its games (``game`` :data:`ALL_GAMES`), after the group's
    finished matches in the order played. Rewritten by ``companion.services.ratings``
    whenever a match is finished, reopened or deleted, a night moves or a group is
    imported; never edited by hand."""

    group = models.ForeignKey(Group, on_delete=models.CASCADE, related_name="+")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")
    game = models.CharField(max_length=30, blank=True)
    mu = models.FloatField()
    sigma = models.FloatField()
    matches = models.PositiveIntegerField()
    """The finished matches rated so far in this game (or in all games)."""

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["player", "game"], name="unique_rating_game"),
        ]
        indexes = [models.Index(fields=["group", "game"])]

    def __str__(self) -> str:
        return f"rating of {self.player_id} in {self.game or 'all games'}"


class RatingStep(models.Model):
    """What one finished match did to one player's ratings: in the match's game and across
    all games, before and after. The change after each match is read from here, and a
    recomputation from some night on starts from the ``*_before`` values of the first
    step it drops."""

    group = models.ForeignKey(Group, on_delete=models.CASCADE, related_name="+")
    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="rating_steps")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")
    game = models.CharField(max_length=30, choices=game_choices)
    date = models.DateField()
    """The game night's date (with ``started_at`` and the match id, the order played)."""
    started_at = models.DateTimeField()
    game_mu_before = models.FloatField()
    game_sigma_before = models.FloatField()
    game_mu = models.FloatField()
    game_sigma = models.FloatField()
    game_matches = models.PositiveIntegerField()
    """The player's rated matches in this game, this one included."""
    all_mu_before = models.FloatField()
    all_sigma_before = models.FloatField()
    all_mu = models.FloatField()
    all_sigma = models.FloatField()
    all_matches = models.PositiveIntegerField()
    """The player's rated matches in all games, this one included."""

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["match", "player"], name="unique_rating_step"),
        ]
        indexes = [
            # A recomputation drops and rewrites a group's steps from a date on.
            models.Index(fields=["group", "date"]),
            # A player's rating over time, in the order played.
            models.Index(fields=["player", "date", "started_at", "match"]),
        ]

    def __str__(self) -> str:
        return f"rating step of {self.player_id} @ {self.match_id}"

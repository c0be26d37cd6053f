"""Table passes ("Tischpass"): a link that lets the phones at the table in without an
account, for one match or one game night only.

The link carries a token: the pass's id and a random ``nonce`` (from ``secrets``,
``companion.models.new_pass_nonce``),
signed with the site's secret key (``django.core.signing``, a salt of its own). A
token that was changed, or signed with another key, is refused before the database
is asked; one whose nonce is not the pass's is refused too. A pass works until the
end of the game night in progress (06:00 the next morning, at most 24 hours) and
until a member revokes it or its maker leaves the group; what it opens is decided in
``companion.access``.
"""

from __future__ import annotations

import datetime as dt
from typing import Literal

from django.contrib.auth.base_user import AbstractBaseUser
from django.core import signing
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Exists, OuterRef
from django.utils import timezone
from django.utils.crypto import constant_time_compare
from django.utils.translation import gettext as _

from companion.evenings import EVENING_ENDS_AT, game_night_date
from companion.models import GameNight, Group, Match, MatchChange, Membership, TablePass
from companion.parsing import clean_name

SALT = "kartenrunde.table-pass"
MAX_HOURS = 24
"""A pass never works longer than this, whatever the hour it was made."""
GUEST_NAME_MAX = MatchChange._meta.get_field("created_by_guest").max_length or 40

PASSES_MAX = 10
"""Passes that work at once for one match or one game night: its pass page shows each
with its QR code, about 5 KB and 8 ms apiece (84 passes made a 215 KB page that took a
third of a second)."""

PassState = Literal["active", "expired", "revoked", "maker_left"]


def pass_expiry(now: dt.datetime | None = None) -> dt.datetime:
    """When a pass made at ``now`` stops working: the end of the game night in progress
    (:data:`companion.evenings.EVENING_ENDS_AT` the next morning), at most
    :data:`MAX_HOURS` later."""
    now = now or timezone.now()
    morning = dt.datetime.combine(
        game_night_date(now) + dt.timedelta(days=1), dt.time(EVENING_ENDS_AT)
    )
    return min(timezone.make_aware(morning), now + dt.timedelta(hours=MAX_HOURS))


def maker_in_group() -> Exists:
    """Whether the pass's maker is (still) a member of its group, as a query expression
    (``TablePass.objects.annotate(maker_in_group=maker_in_group())``: no query of its own).
    """
    return Exists(Membership.objects.filter(group_id=OuterRef("group_id"),
                                            user_id=OuterRef("created_by_id")))


def _maker_is_member(table_pass: TablePass) -> bool:
    known = getattr(table_pass, "maker_in_group", None)
    if known is not None:
        return bool(known)
    return table_pass.created_by_id is not None and Membership.objects.filter(
        group_id=table_pass.group_id, user_id=table_pass.created_by_id).exists()


def pass_state(table_pass: TablePass, now: dt.datetime | None = None) -> PassState:
    """Whether the pass works: it ends when revoked, at its expiry, and as soon as the
    member who made it is no longer in the group (left, removed, account deleted): a
    pass never grants more than its maker has."""
    if not _maker_is_member(table_pass):
        return "maker_left"
    if table_pass.revoked_at is not None:
        return "revoked"
    if table_pass.expires_at <= (now or timezone.now()):
        return "expired"
    return "active"


def pass_token(table_pass: TablePass) -> str:
    """The token of the pass's link (the same every time: the QR code can be shown again)."""
    return signing.Signer(salt=SALT).sign(f"{table_pass.pk}.{table_pass.nonce}")


def pass_for_token(token: str) -> TablePass | None:
    """The pass a link's token names, with its group, match and night; None for a token
    that is unknown, changed or signed with another key (whatever its state)."""
    try:
        value = signing.Signer(salt=SALT).unsign(token)
    except signing.BadSignature:
        return None
    pk, _dot, nonce = value.partition(".")
    if not pk.isdigit() or len(pk) > 18:
        return None
    table_pass = (
        TablePass.objects.select_related("group", "match", "game_night", "created_by")
        .annotate(maker_in_group=maker_in_group()).filter(pk=int(pk)).first()
    )
    if table_pass is None or not nonce or not constant_time_compare(table_pass.nonce, nonce):
        return None
    return table_pass


def table_pass_create(
    *, created_by: AbstractBaseUser, may_write: bool, match: Match | None = None,
    game_night: GameNight | None = None,
) -> TablePass:
    """A new pass for ``match`` or for ``game_night`` (exactly one of them); at most
    :data:`PASSES_MAX` of them work at once."""
    if (match is None) == (game_night is None):
        raise ValueError("A table pass is for a match or for a game night.")
    group_id = match.group_id if match is not None else game_night.group_id  # type: ignore[union-attr]
    with transaction.atomic():
        # Lock the group row: two taps at once cannot both take the last free place.
        Group.objects.select_for_update().filter(pk=group_id).first()
        working = TablePass.objects.filter(
            revoked_at__isnull=True, expires_at__gt=timezone.now(),
            **({"match": match} if match is not None else {"game_night": game_night}),
        )
        if working.count() >= PASSES_MAX:
            raise ValidationError(
                _("At most %(max)d table passes work at once: revoke one you no longer "
                  "need.") % {"max": PASSES_MAX}, code="passes_full")
        return TablePass.objects.create(
            group_id=group_id, match=match, game_night=game_night,
            may_write=may_write,
            created_by=created_by, expires_at=pass_expiry(),
        )


def table_pass_revoke(*, table_pass: TablePass) -> TablePass:
    """End the pass now: every phone that uses it loses access with its next request.
    Revoking twice keeps the first time."""
    with transaction.atomic():
        if table_pass.revoked_at is None:
            table_pass.revoked_at = timezone.now()
            table_pass.save(update_fields=["revoked_at"])
    return table_pass


def guest_name_clean(name: str) -> str:
    """The name a guest goes by in the change log: cleaned like a player's name."""
    try:
        return clean_name(name, max_length=GUEST_NAME_MAX)
    except ValidationError as error:
        if error.code == "required":
            raise ValidationError(
                _("Pick your name or type one."), code="required"
            ) from error
        raise

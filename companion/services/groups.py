"""Business steps of the groups area: groups, members, invites, roster, game nights.

Every step is keyword-only, runs inside ``transaction.atomic()`` and raises
``django.core.exceptions.ValidationError`` with a message the user understands
when the input breaks a rule; nothing is saved half-way.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Iterator
from contextlib import contextmanager

from django.contrib.auth.base_user import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from companion.colours import parse_colour
from companion.models import GameNight, Group, Invite, Membership, Player

GROUP_NAME_MAX = Group._meta.get_field("name").max_length or 80
PLAYER_NAME_MAX = Player._meta.get_field("name").max_length or 40


EVENING_ENDS_AT = 6
"""Hour of the morning (local time) until which the previous evening is still "today"."""


def game_night_date(now: dt.datetime | None = None) -> dt.date:
    """The date of the evening in progress, in the site's time zone.

    Card evenings run past midnight: until 06:00 the evening that began the day
    before is still going on, so a match started at 00:30 joins that night.
    """
    local = timezone.localtime(now)
    return (local - dt.timedelta(hours=EVENING_ENDS_AT)).date()


def game_night_for_today(*, group: Group) -> GameNight:
    """Today's game night of ``group``, created when there is none.

    "Today" is :func:`game_night_date`: after midnight the evening's night goes on.
    When a group has several nights on that date, the newest one is used.
    """
    today = game_night_date()
    with transaction.atomic():
        # Lock the group row so two phones starting a match at once share one night
        # (PostgreSQL; SQLite serialises writes anyway).
        Group.objects.select_for_update().filter(pk=group.pk).first()
        night = GameNight.objects.filter(group=group, date=today).order_by("-id").first()
        if night is None:
            night = GameNight.objects.create(group=group, date=today)
        return night


def _clean_group_name(name: str) -> str:
    name = " ".join(name.split())
    if not name:
        raise ValidationError(_("Please give the group a name."), code="required")
    if len(name) > GROUP_NAME_MAX:
        raise ValidationError(
            _("A group name has at most %(max)d characters.") % {"max": GROUP_NAME_MAX},
            code="max_length",
        )
    return name


def _clean_player_name(
    *, group: Group | None, name: str, taken: Iterable[str] = (), exclude: Player | None = None
) -> str:
    """A player's name with spaces tidied; unique in the group regardless of case."""
    name = " ".join(name.split())
    if not name:
        raise ValidationError(_("Please enter a name."), code="required")
    if len(name) > PLAYER_NAME_MAX:
        raise ValidationError(
            _("A player's name has at most %(max)d characters.") % {"max": PLAYER_NAME_MAX},
            code="max_length",
        )
    clash = name.casefold() in {t.casefold() for t in taken}
    if not clash and group is not None:
        others = Player.objects.filter(group=group, name__iexact=name)
        if exclude is not None:
            others = others.exclude(pk=exclude.pk)
        clash = others.exists()
    if clash:
        raise _name_taken(name)
    return name


def _name_taken(name: str) -> ValidationError:
    return ValidationError(
        _("There is already a player called “%(name)s” in this group.") % {"name": name},
        code="unique",
    )


@contextmanager
def _unique_player_name(name: str) -> Iterator[None]:
    """Save a player's name in a savepoint; the database's unique constraint has the last word.

    Two phones adding "Anna" at once both pass :func:`_clean_player_name`; the
    database refuses the second (``unique_player_name_ci``, case-insensitive),
    and that phone gets the same message as if the check had caught it.
    """
    try:
        with transaction.atomic():
            yield
    except IntegrityError as error:
        if "unique_player_name_ci" not in str(error):
            raise
        raise _name_taken(name) from error


def group_create(
    *, owner: AbstractBaseUser, name: str, player_names: Iterable[str] = ()
) -> Group:
    """A new group owned by ``owner``, who becomes its first member and player.

    ``player_names`` adds further players to the roster at once. Errors name the
    argument they are about (``{"name": ...}`` or ``{"players": ...}``).
    """
    try:
        name = _clean_group_name(name)
    except ValidationError as error:
        raise ValidationError({"name": error}) from error
    owner_name = owner.get_username()[:PLAYER_NAME_MAX]
    names = [owner_name]
    try:
        for raw in player_names:
            if raw.strip():
                names.append(_clean_player_name(group=None, name=raw, taken=names))
    except ValidationError as error:
        raise ValidationError({"players": error}) from error
    with transaction.atomic():
        group = Group.objects.create(name=name, owner=owner)
        Membership.objects.create(group=group, user=owner, role=Membership.Role.OWNER)
        Player.objects.create(group=group, name=owner_name, user=owner)
        Player.objects.bulk_create(Player(group=group, name=n) for n in names[1:])
    return group


def group_rename(*, group: Group, name: str) -> Group:
    group.name = _clean_group_name(name)
    with transaction.atomic():
        group.save(update_fields=["name"])
    return group


def invite_create(*, group: Group, created_by: AbstractBaseUser) -> Invite:
    """A new join link for ``group`` with a fresh unguessable token."""
    with transaction.atomic():
        return Invite.objects.create(group=group, created_by=created_by)


def invite_revoke(*, invite: Invite) -> Invite:
    """Make the join link unusable; revoking twice keeps the first time."""
    with transaction.atomic():
        if invite.revoked_at is None:
            invite.revoked_at = timezone.now()
            invite.save(update_fields=["revoked_at"])
    return invite


NEW_PLAYER = "new"


def group_join(
    *, invite: Invite, user: AbstractBaseUser, player: Player | str | None = None
) -> Membership:
    """Make ``user`` a member of the invite's group.

    ``player`` says who the new member is on the roster: an unlinked player of
    the group, :data:`NEW_PLAYER` for a new player named after the account, or
    ``None`` to link later. Joining a group one already belongs to changes nothing.
    """
    group = invite.group
    if invite.revoked_at is not None:
        raise ValidationError(_("This invite link has been revoked."), code="revoked")
    with transaction.atomic():
        membership, created = Membership.objects.get_or_create(
            group=group, user=user, defaults={"role": Membership.Role.MEMBER}
        )
        if not created:
            return membership
        if isinstance(player, Player):
            if player.group_id != group.pk:
                raise ValidationError(_("That player is not in this group."), code="invalid")
            if player.user_id is not None:
                raise ValidationError(
                    _("“%(name)s” is already linked to another account.") % {"name": player.name},
                    code="linked",
                )
            player.user = user
            player.save(update_fields=["user"])
        elif player == NEW_PLAYER:
            name = _clean_player_name(group=group, name=user.get_username())
            with _unique_player_name(name):
                Player.objects.create(group=group, name=name, user=user)
    return membership


def player_add(*, group: Group, name: str) -> Player:
    with transaction.atomic():
        name = _clean_player_name(group=group, name=name)
        with _unique_player_name(name):
            return Player.objects.create(group=group, name=name)


def player_rename(*, player: Player, name: str) -> Player:
    name = _clean_player_name(group=player.group, name=name, exclude=player)
    with _unique_player_name(name):
        Player.objects.filter(pk=player.pk).update(name=name)
    player.name = name
    return player


def player_recolour(*, player: Player, colour: str) -> Player:
    """Give ``player`` a ``#rrggbb`` colour, or the default palette's with ``colour=""``."""
    player.colour = parse_colour(colour)
    with transaction.atomic():
        player.save(update_fields=["colour"])
    return player


def player_link(*, player: Player, user: AbstractBaseUser | None) -> Player:
    """Link ``player`` to a member's account, or unlink it with ``user=None``.

    An account stands for at most one player per group: linking it moves the
    link away from the player it had before.
    """
    with transaction.atomic():
        if user is not None:
            if not Membership.objects.filter(group_id=player.group_id, user=user).exists():
                raise ValidationError(
                    _("Only members of the group can be linked to a player."), code="not_member"
                )
            Player.objects.filter(group_id=player.group_id, user=user).exclude(
                pk=player.pk
            ).update(user=None)
        player.user = user
        player.save(update_fields=["user"])
    return player


def game_night_create(
    *, group: Group, date: dt.date | None = None, place: str = "", notes: str = ""
) -> GameNight:
    with transaction.atomic():
        return GameNight.objects.create(
            group=group,
            date=date or game_night_date(),
            place=place.strip(),
            notes=notes.strip(),
        )


def game_night_update(
    *, night: GameNight, date: dt.date, place: str = "", notes: str = ""
) -> GameNight:
    night.date = date
    night.place = place.strip()
    night.notes = notes.strip()
    with transaction.atomic():
        night.save(update_fields=["date", "place", "notes"])
    return night

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
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from companion.colours import parse_colour
from companion.evenings import game_night_date
from companion.models import (
    GameNight,
    Group,
    GroupChange,
    Invite,
    Membership,
    Player,
    TablePass,
)
from companion.parsing import clean_name, name_key
from companion.services.results import night_results_update
from companion.signals import access_changed

GROUP_NAME_MAX = Group._meta.get_field("name").max_length or 80
PLAYER_NAME_MAX = Player._meta.get_field("name").max_length or 40
ROSTER_MAX = 500
"""Players a group's roster may hold: far more than any table needs, few enough that the
roster, the start form and every name check stay fast (a pasted list of 20,000 names
took minutes to check and made the roster page 60 MB)."""


def roster_full_message() -> str:
    return _("A group's roster holds at most %(max)d players.") % {"max": ROSTER_MAX}


MEMBERS_MAX = 100
"""Accounts a group may have as members: more than any card group meets with, few enough
that the settings page (each member with their players and a remove button, about 0.8 kB)
and the roster's link form (every member to choose from) stay small."""


def members_full_message() -> str:
    return _("This group has %(max)d members already, as many as a group can have. Ask its "
             "owner to remove someone who no longer plays.") % {"max": MEMBERS_MAX}


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


INVITE_DAYS = 14
"""How long a new or renewed invite link works."""
INVITES_MAX = 10
"""Invite links a group may have that are not revoked (expired ones too: they can be
renewed): the settings page shows each with its QR code, about 4 KB and 8 ms apiece (62
links made a 270 KB page that took half a second)."""


def invites_full_message() -> str:
    return _("A group has at most %(max)d invite links: revoke one you no longer need, "
             "or renew an expired one.") % {"max": INVITES_MAX}


def _clean_group_name(name: str) -> str:
    """The group's name cleaned like every name (:func:`companion.parsing.clean_name`)."""
    try:
        return clean_name(name, max_length=GROUP_NAME_MAX)
    except ValidationError as error:
        if error.code == "required":
            raise ValidationError(_("Please give the group a name."), code="required") from error
        raise ValidationError(
            _("A group name has at most %(max)d characters.") % {"max": GROUP_NAME_MAX},
            code="max_length",
        ) from error


def _clean_player_name(
    *, group: Group | None, name: str, taken: Iterable[str] = (), exclude: Player | None = None
) -> str:
    """A player's name, cleaned (:func:`companion.parsing.clean_name`) and unique in the group.

    Unique means no other player's name looks the same: the same letters in
    another case, in fullwidth forms ("ＡＮＮＡ" is "Anna") or with invisible
    characters count as the same name.
    """
    try:
        name = clean_name(name, max_length=PLAYER_NAME_MAX)
    except ValidationError as error:
        if error.code == "required":
            raise ValidationError(_("Please enter a name."), code="required") from error
        raise ValidationError(
            _("A player's name has at most %(max)d characters.") % {"max": PLAYER_NAME_MAX},
            code="max_length",
        ) from error
    key = name_key(name)
    clash = next((t for t in taken if name_key(t) == key), None)
    if clash is None and group is not None:
        others = Player.objects.filter(group=group)
        if exclude is not None:
            others = others.exclude(pk=exclude.pk)
        clash = next((other for other in others.values_list("name", flat=True)
                      if name_key(other) == key), None)
    if clash is not None:
        raise _name_taken(name)
    return name


def _log(group: Group, kind: str, by: AbstractBaseUser | None, **detail: object) -> None:
    """A line of the group's log (:class:`GroupChange`), inside the caller's transaction."""
    GroupChange.objects.create(
        group=group, kind=kind, detail=detail,
        created_by=by if by is not None and by.is_authenticated else None,
    )


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
    player_names = [raw for raw in player_names if raw.strip()]
    if len(player_names) + 1 > ROSTER_MAX:
        raise ValidationError({"players": ValidationError(roster_full_message(),
                                                          code="roster_full")})
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


def group_rename(*, group: Group, name: str, by: AbstractBaseUser | None = None) -> Group:
    old = group.name
    group.name = _clean_group_name(name)
    with transaction.atomic():
        group.save(update_fields=["name"])
        if group.name != old:
            _log(group, GroupChange.Kind.RENAME, by, **{"from": old, "to": group.name})
    return group


def invite_expired(invite: Invite, now: dt.datetime | None = None) -> bool:
    """Whether the invite link's time is up (links made before expiry existed never expire)."""
    return invite.expires_at is not None and invite.expires_at <= (now or timezone.now())


def invite_create(*, group: Group, created_by: AbstractBaseUser) -> Invite:
    """A new join link for ``group`` with a fresh unguessable token, working 14 days; at
    most :data:`INVITES_MAX` that are not revoked."""
    with transaction.atomic():
        # Lock the group row: two taps at once cannot both take the last free place.
        Group.objects.select_for_update().filter(pk=group.pk).first()
        if Invite.objects.filter(group=group, revoked_at__isnull=True).count() >= INVITES_MAX:
            raise ValidationError(invites_full_message(), code="invites_full")
        invite = Invite.objects.create(
            group=group, created_by=created_by,
            expires_at=timezone.now() + dt.timedelta(days=INVITE_DAYS),
        )
        _log(group, GroupChange.Kind.INVITE, created_by, action="create")
    return invite


def invite_renew(*, invite: Invite, by: AbstractBaseUser | None = None) -> Invite:
    """Let the join link work another 14 days from now (a revoked link stays revoked)."""
    if invite.revoked_at is not None:
        raise ValidationError(_("This invite link has been revoked."), code="revoked")
    with transaction.atomic():
        invite.expires_at = timezone.now() + dt.timedelta(days=INVITE_DAYS)
        invite.save(update_fields=["expires_at"])
        _log(invite.group, GroupChange.Kind.INVITE, by, action="renew")
    return invite


def invite_revoke(*, invite: Invite, by: AbstractBaseUser | None = None) -> Invite:
    """Make the join link unusable; revoking twice keeps the first time."""
    with transaction.atomic():
        if invite.revoked_at is None:
            invite.revoked_at = timezone.now()
            invite.save(update_fields=["revoked_at"])
            _log(invite.group, GroupChange.Kind.INVITE, by, action="revoke")
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
    if invite_expired(invite):
        raise ValidationError(_("This invite link has expired."), code="expired")
    with transaction.atomic():
        # The group's row locked: two joins at once cannot both take the last place.
        Group.objects.select_for_update().filter(pk=group.pk).first()
        existing = Membership.objects.filter(group=group, user=user).first()
        if existing is not None:
            return existing
        if Membership.objects.filter(group=group).count() >= MEMBERS_MAX:
            raise ValidationError(members_full_message(), code="group_full")
        membership = Membership.objects.create(
            group=group, user=user, role=Membership.Role.MEMBER)
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
            if Player.objects.filter(group=group).count() >= ROSTER_MAX:
                raise ValidationError(roster_full_message(), code="roster_full")
            with _unique_player_name(name):
                player = Player.objects.create(group=group, name=name, user=user)
        _log(group, GroupChange.Kind.JOIN, user, user=user.get_username(),
             player=player.name if isinstance(player, Player) else None)
    return membership


def _check_owner(group: Group, by: AbstractBaseUser | None, message: str) -> None:
    if by is None or group.owner_id != by.pk:
        raise PermissionDenied(message)


def _end_passes(group: Group, user_id: int) -> None:
    """End the table passes ``user_id`` made in ``group`` (they are leaving it), for good:
    they stay ended should the account join again. The guests' phones show why
    (``companion.services.passes.pass_state``)."""
    TablePass.objects.filter(group=group, created_by_id=user_id, revoked_at__isnull=True
                             ).update(revoked_at=timezone.now())
    access_changed()  # an update sends no signal (companion/signals.py)


def member_remove(*, membership: Membership, by: AbstractBaseUser) -> None:
    """The owner removes a member; the member's players stay on the roster, unlinked.

    The players' matches and statistics stay as they are (history belongs to the
    group); only the account loses its access and its links, and the table passes it made
    end.
    """
    group = membership.group
    _check_owner(group, by, _("Only the owner of the group can remove members."))
    if membership.user_id == group.owner_id:
        raise ValidationError(_("The owner cannot be removed from the group."), code="owner")
    with transaction.atomic():
        username = membership.user.get_username()
        Player.objects.filter(group=group, user_id=membership.user_id).update(user=None)
        _end_passes(group, membership.user_id)
        membership.delete()
        _log(group, GroupChange.Kind.REMOVE, by, user=username)


def group_leave(*, group: Group, user: AbstractBaseUser) -> None:
    """A member leaves the group; their players stay on the roster, unlinked.

    The table passes they made end. The owner cannot leave: the group would have nobody
    to look after it.
    """
    if group.owner_id == user.pk:
        raise ValidationError(
            _("As the owner you cannot leave the group you look after."), code="owner"
        )
    with transaction.atomic():
        deleted, _rows = Membership.objects.filter(group=group, user=user).delete()
        if not deleted:
            return
        Player.objects.filter(group=group, user=user).update(user=None)
        _end_passes(group, user.pk)
        _log(group, GroupChange.Kind.LEAVE, user, user=user.get_username())


def player_add(*, group: Group, name: str) -> Player:
    with transaction.atomic():
        name = _clean_player_name(group=group, name=name)
        if Player.objects.filter(group=group).count() >= ROSTER_MAX:
            raise ValidationError(roster_full_message(), code="roster_full")
        with _unique_player_name(name):
            return Player.objects.create(group=group, name=name)


def player_rename(*, player: Player, name: str, by: AbstractBaseUser | None = None) -> Player:
    old = player.name
    name = _clean_player_name(group=player.group, name=name, exclude=player)
    with _unique_player_name(name):
        Player.objects.filter(pk=player.pk).update(name=name)
        if name != old:
            _log(player.group, GroupChange.Kind.PLAYER_RENAME, by, **{"from": old, "to": name})
    player.name = name
    return player


def player_recolour(*, player: Player, colour: str) -> Player:
    """Give ``player`` a ``#rrggbb`` colour, or the default palette's with ``colour=""``."""
    player.colour = parse_colour(colour)
    with transaction.atomic():
        player.save(update_fields=["colour"])
    return player


def player_link(
    *, player: Player, user: AbstractBaseUser | None, by: AbstractBaseUser | None = None
) -> Player:
    """Link ``player`` to a member's account, or unlink it with ``user=None``.

    An account stands for at most one player per group: linking it moves the
    link away from the player it had before. With ``by`` (the member asking),
    the roles hold: the owner links anybody; a member links only their own
    account, and only to a player nobody is linked to, and unlinks only
    themselves.
    """
    group = player.group
    if by is not None and group.owner_id != by.pk:
        own = user is not None and user.pk == by.pk and player.user_id in (None, by.pk)
        leaving = user is None and player.user_id == by.pk
        if not (own or leaving):
            raise ValidationError(
                _("Only the owner of the group can link a player to someone else's account "
                  "or change someone else's link. You can link yourself to a player "
                  "nobody is linked to."),
                code="not_owner",
            )
    previous = player.user
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
        if user is not None and (previous is None or previous.pk != user.pk):
            _log(group, GroupChange.Kind.LINK, by, player=player.name, user=user.get_username())
        elif user is None and previous is not None:
            _log(group, GroupChange.Kind.UNLINK, by, player=player.name,
                 user=previous.get_username())
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
        night_results_update(night=night)
    return night

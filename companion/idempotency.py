"""Idempotency keys for every write form: a change sent again is recognised, not repeated.

Every write form of the sheet, the live board and the match's life carries a key of its
own (``client_key``, a fresh one per rendered form: ``{% client_key %}``). A phone sends
the same form again when an answer got lost (a double tap, the network, the offline
queue of ``static/js/queue.js``). :func:`once` runs the change and stores its
:class:`~companion.models.ChangeReceipt` in one transaction; a send whose key has a
receipt raises :class:`Repeated` and changes nothing, so the view answers it as saved,
with the current state, instead of refusing it as stale ("changed on another phone")
or applying it twice. The same key with other values is refused (``key_reused``).

A recorded deal keeps its own key on its log entry (``MatchChange.client_key``,
``companion.services.deals.AlreadyRecorded``): the queue sends deals since long before.
"""

from __future__ import annotations

import functools
import hashlib
import re
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.http import HttpRequest, HttpResponse
from django.utils.translation import gettext as _

from companion.access import session_passes, viewer_of
from companion.models import ChangeReceipt, Group, Match

FIELD = "client_key"
KEY = re.compile(r"[A-Za-z0-9-]{8,64}")
UNSIGNED = frozenset({"csrfmiddlewaretoken", FIELD, "revision"})
"""Fields left out of a send's fingerprint: the CSRF token differs per page, and the
offline queue sends a queued live tap with the board's newer revision."""


def new_key() -> str:
    return uuid.uuid4().hex


class Repeated(Exception):
    """The send repeats one that was stored (its receipt): nothing new was done."""

    def __init__(self, receipt: ChangeReceipt) -> None:
        super().__init__(receipt.key)
        self.receipt = receipt


@dataclass(slots=True)
class Sent:
    """What :func:`once` stores with the receipt; a view that creates a match or a group
    names it."""

    match: Match | None = None
    group: Group | None = None


def client_key(request: HttpRequest) -> str | None:
    """The send's key, None without one; a damaged key is refused."""
    value = request.POST.get(FIELD, "")
    if not value:
        return None
    if not KEY.fullmatch(value):
        raise ValidationError(
            _("The form's key is damaged, so nothing was saved. Reload the page and try "
              "again."), code="bad_key",
        )
    return value


def _owner(request: HttpRequest) -> dict[str, Any] | None:
    """Whose receipts a send's key is looked up in: the member's, or a guest's at the
    table (the table pass's, found by the view's lookup); None for neither."""
    if request.user.is_authenticated:
        return {"user": request.user}
    table_pass = viewer_of(request).table_pass
    return {"table_pass": table_pass} if table_pass is not None else None


def check_repeat(request: HttpRequest, action: str) -> None:
    """Raise :class:`Repeated` if the send's key has a receipt of this very send. (A
    damaged key, or a key of another send, is left to :func:`once`, which refuses it.)"""
    try:
        key = client_key(request)
    except ValidationError:
        return
    if key is None:
        return
    if request.user.is_authenticated:
        mine = ChangeReceipt.objects.filter(user=request.user)
    else:  # a guest at the table: before the view's lookup, any pass of the session
        mine = ChangeReceipt.objects.filter(table_pass__in=list(session_passes(request)))
    earlier = mine.filter(key=key).first()
    if earlier is None:
        return
    problem = _repeat(earlier, action, fingerprint(request))
    if isinstance(problem, Repeated):
        raise problem


def fingerprint(request: HttpRequest) -> str:
    fields = sorted((name, value) for name, values in request.POST.lists()
                    for value in values if name not in UNSIGNED)
    return hashlib.sha256(repr(fields).encode()).hexdigest()


class _Raced(Exception):
    """Another request stored the same key first (PostgreSQL, two sends at once)."""


@contextmanager
def once(
    request: HttpRequest, *, action: str, match: Match | None = None,
    group: Group | None = None,
) -> Iterator[Sent]:
    """Run the change in the ``with`` block once per key, in one transaction with its
    receipt; raise :class:`Repeated` if the key was stored before (nothing is changed).

    The match's row is locked first, so that a repeat arriving while the first send is
    still being saved waits for it and then finds its receipt.
    """
    key = client_key(request)
    owner = _owner(request)
    if key is None or owner is None:
        with transaction.atomic():
            yield Sent(match, group)
        return
    sent = Sent(match, group)
    try:
        with transaction.atomic():
            if match is not None:
                list(Match.objects.select_for_update().filter(pk=match.pk).values_list("pk"))
            earlier = ChangeReceipt.objects.filter(**owner, key=key).first()
            if earlier is not None:
                raise _repeat(earlier, action, fingerprint(request))
            yield sent
            try:
                with transaction.atomic():
                    ChangeReceipt.objects.create(
                        **owner, key=key, action=action, fingerprint=fingerprint(request),
                        group=sent.group or (match.group if match is not None else None),
                        match=sent.match,
                    )
            except IntegrityError as err:
                raise _Raced from err
    except _Raced:
        # The other send's change stands; this one's was rolled back with the transaction.
        raise _repeat(ChangeReceipt.objects.get(**owner, key=key), action,
                      fingerprint(request)) from None


def answers_repeats(
    action: str, answer: Callable[..., HttpResponse]
) -> Callable[[Callable[..., HttpResponse]], Callable[..., HttpResponse]]:
    """A write view that recognises a repeated send (its key has a receipt, see
    :mod:`companion.idempotency`) and answers it with ``answer(request, receipt,
    **view_kwargs)``: saved already, with the current state. Checked before the view
    looks anything up (a repeated deletion finds nothing to delete), and again inside
    the view's transaction (:func:`companion.idempotency.once`)."""

    def decorator(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
        @functools.wraps(view)
        def wrapped(request: HttpRequest, **kwargs: Any) -> HttpResponse:
            try:
                if request.method == "POST":
                    check_repeat(request, action)
                return view(request, **kwargs)
            except Repeated as repeat:
                return answer(request, repeat.receipt, **kwargs)

        return wrapped

    return decorator


def receipt_writer(request: HttpRequest, action: str) -> Callable[[Group], None] | None:
    """For a change written in several transactions (an import): what stores its receipt
    in the last of them, None without a key. Raises :class:`Repeated` when another send
    with the key was stored first (the caller's last transaction then rolls back)."""
    key = client_key(request)
    owner = _owner(request)
    if key is None or owner is None:
        return None
    sent = fingerprint(request)

    def store(group: Group) -> None:
        try:
            with transaction.atomic():
                ChangeReceipt.objects.create(**owner, key=key, action=action,
                                             fingerprint=sent, group=group)
        except IntegrityError as err:
            raise _repeat(ChangeReceipt.objects.get(**owner, key=key),
                          action, sent) from err

    return store


def _repeat(earlier: ChangeReceipt, action: str, sent: str) -> Exception:
    if earlier.action != action or earlier.fingerprint != sent:
        return ValidationError(
            _("This was sent with the key of another change and was not saved. Reload the "
              "page and try again."), code="key_reused",
        )
    return Repeated(earlier)

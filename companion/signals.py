"""What ends the trust in a phone's earlier access check (companion/trusted_polls.py): any
change that can take a viewer's access to a match away, or change what kind of viewer
they are. Each calls :func:`~companion.trusted_polls.access_changed` once its transaction
committed: a check that read the database before that is trusted no more; one after it
sees the change."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.signals import user_logged_out
from django.contrib.sessions.models import Session
from django.db import transaction
from django.db.models.signals import post_delete, post_save

from companion import trusted_polls
from companion.models import Group, Membership, TablePass


def access_changed(**_kwargs: Any) -> None:
    transaction.on_commit(trusted_polls.access_changed, robust=True)


def _account_saved(update_fields: Any = None, **kwargs: Any) -> None:
    if update_fields is not None and set(update_fields) == {"last_login"}:
        return  # a login: nobody's access ends
    access_changed(**kwargs)


def connect() -> None:
    user = get_user_model()
    post_save.connect(_account_saved, sender=user, dispatch_uid="trust-user-saved")
    for model in (user, Membership, TablePass, Group, Session):
        post_delete.connect(access_changed, sender=model,
                            dispatch_uid=f"trust-{model._meta.label_lower}-deleted")
    for model in (Membership, TablePass, Group):
        post_save.connect(access_changed, sender=model,
                          dispatch_uid=f"trust-{model._meta.label_lower}-saved")
    user_logged_out.connect(access_changed, dispatch_uid="trust-logged-out")

"""CSRF tokens drawn with one call to the random source (companion/csrf.py): Django's
checks read them, each character is as likely as any other, and no two are alike."""

from __future__ import annotations

import re
from collections import Counter

import pytest
from django.contrib.auth.models import User
from django.middleware import csrf as django_csrf
from django.test import Client

from companion import csrf


def test_django_draws_its_secrets_and_masks_with_ours() -> None:
    assert django_csrf._get_new_csrf_string is csrf.new_csrf_string
    assert django_csrf._mask_cipher_secret is csrf.mask_cipher_secret


def test_a_masked_token_unmasks_to_its_secret_with_djangos_own_function() -> None:
    secret = csrf.new_csrf_string()
    tokens = {csrf.mask_cipher_secret(secret) for _ in range(50)}
    assert len(tokens) == 50
    for token in tokens:
        assert len(token) == 2 * django_csrf.CSRF_SECRET_LENGTH
        assert re.fullmatch(r"[a-zA-Z0-9]+", token)
        assert django_csrf._unmask_cipher_token(token) == secret


def test_every_allowed_character_is_drawn_about_equally_often() -> None:
    drawn = Counter("".join(csrf.new_csrf_string() for _ in range(20_000)))
    expected = 20_000 * django_csrf.CSRF_SECRET_LENGTH / len(django_csrf.CSRF_ALLOWED_CHARS)
    assert set(drawn) == set(django_csrf.CSRF_ALLOWED_CHARS)
    # About 100 either way is chance; a byte mapped by plain modulo makes eight
    # characters 20 % likelier (about 2,000 more).
    assert all(abs(count - expected) < 0.06 * expected for count in drawn.values())


@pytest.mark.django_db
def test_a_form_posted_with_the_pages_token_passes_djangos_check() -> None:
    User.objects.create_user("anna", password="kartenrunde-anna-1")
    phone = Client(enforce_csrf_checks=True)
    page = phone.get("/accounts/login/").content.decode()
    token = re.search(r'name="csrfmiddlewaretoken" value="(\w+)"', page)
    assert token is not None
    forged = token[1][:-1] + ("a" if token[1][-1] != "a" else "b")
    for sent, status in ((forged, 403), (token[1], 302)):
        assert phone.post("/accounts/login/", {
            "csrfmiddlewaretoken": sent, "username": "anna", "password": "kartenrunde-anna-1",
        }).status_code == status

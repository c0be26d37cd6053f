"""Views of the accounts area: sign up and the account page.

Log in, log out and the password change are Django's auth views with our
templates (see ``companion/urls/accounts.py``).
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from companion import signups
from companion.forms.accounts import SignupForm
from companion.selectors.groups import groups_shortlist


def safe_next(url: str, request: HttpRequest) -> str:
    """``url`` if it is a path on this site (checked by ``url_has_allowed_host_and_scheme``),
    else "": a ``next`` parameter is a place to go back to, never a view name to resolve
    (``redirect("x")`` would look up a view called "x") and never another site."""
    if url.startswith("/") and url_has_allowed_host_and_scheme(
        url, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return url
    return ""


def _next_url(request: HttpRequest) -> str:
    """The safe ``next`` parameter of the request, or ""."""
    return safe_next(request.POST.get("next") or request.GET.get("next") or "", request)


class LoginView(auth_views.LoginView):
    """Django's login with ``next`` checked like :func:`signup`'s: a path, or nothing."""

    redirect_authenticated_user = True

    def get_redirect_url(self) -> str:
        return safe_next(super().get_redirect_url(), self.request)


def _signups_paused(request: HttpRequest, form: SignupForm, minutes: int) -> HttpResponse:
    paused = ngettext(
        "Too many new accounts from this address: please try again in %(minutes)s minute.",
        "Too many new accounts from this address: please try again in %(minutes)s minutes.",
        minutes) % {"minutes": minutes}
    return render(request, "registration/signup.html",
                  {"form": form, "next": _next_url(request), "paused": paused}, status=429)


def signup(request: HttpRequest) -> HttpResponse:
    """Create an account and log in with it; then go on to ``next`` (an invite) or home.
    At most a few accounts per address and hour (``companion.signups``): past that, 429."""
    if request.user.is_authenticated:
        return HttpResponseRedirect(_next_url(request) or reverse("home"))
    form = SignupForm(request.POST or None)
    if request.method == "POST":
        minutes = signups.signups_paused(request)
        if minutes is not None:  # before the passwords are checked: no work for a script
            return _signups_paused(request, SignupForm(), minutes)
    if request.method == "POST" and form.is_valid():
        slot = signups.signup_take(request)
        if slot is None:
            return _signups_paused(request, form, signups.minutes_left())
        try:
            with transaction.atomic():
                user = form.save()
        except IntegrityError:
            signups.signup_give_back(slot)
            # Someone took the name between the form's check and the insert.
            form.add_error("username", User._meta.get_field("username").error_messages["unique"])
            return render(
                request, "registration/signup.html", {"form": form, "next": _next_url(request)}
            )
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        next_url = _next_url(request)
        if next_url:
            return HttpResponseRedirect(next_url)
        messages.success(
            request,
            _("Welcome, %(name)s! Create a group for the people you play with.")
            % {"name": user.get_username()},
        )
        return redirect("group_create")
    return render(request, "registration/signup.html", {"form": form, "next": _next_url(request)})


@login_required
def account(request: HttpRequest) -> HttpResponse:
    """The signed-in user's page: groups, password change, log out."""
    return render(
        request, "registration/account.html", {"groups": groups_shortlist(request.user)}
    )

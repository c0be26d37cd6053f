"""Views that belong to no area: the landing page, the refused-form page."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from companion.selectors.groups import (
    groups_shortlist,
    running_matches_for_user,
    running_page_for_user,
)
from companion.views.passes import guest_passes
from scoring import GAMES


def csrf_failure(request: HttpRequest, reason: str = "") -> HttpResponse:
    """A form sent without its security token (page open for days, cookies blocked, forged).

    Django's own page is English and technical; this one is ours, in the user's language.
    """
    return render(request, "403_csrf.html", {"no_cookie": "cookie" in reason.lower()},
                  status=403)


def home(request: HttpRequest) -> HttpResponse:
    """Logged out: what Kartenrunde is, its games, sign up. Logged in: your groups."""
    context: dict[str, object] = {"games": list(GAMES.values()),
                                  "table_passes": guest_passes(request)}
    if request.user.is_authenticated:
        context["groups"] = groups_shortlist(request.user)
        context["running"] = running_matches_for_user(request.user)
    return render(request, "companion/home.html", context)


@login_required
def running(request: HttpRequest) -> HttpResponse:
    """The running matches of all the user's groups, a page at a time ("Show more")."""
    template = "companion/groups/running.html"
    return render(request, f"{template}#page" if request.htmx else template, {
        "page_obj": running_page_for_user(request.user, request.GET.get("page")),
        "show_group": True,
    })

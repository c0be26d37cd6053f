"""Views that belong to no area: the landing page."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from scoring import GAMES


def home(request: HttpRequest) -> HttpResponse:
    """The landing page: what Kartenrunde is and the five games it knows."""
    return render(request, "companion/home.html", {"games": list(GAMES.values())})

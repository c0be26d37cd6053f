"""The benchmarks' Django set-up: the app on a throw-away SQLite database with DEBUG off
and static files collected into a throw-away place, plus two reference views that every
page is measured against in the same run:

- ``/bench/bare/``: a fixed string (no session, no database), the floor;
- ``/bench/page/``: the site layout (base.html) for the logged-in user.

Benchmarks import :func:`configure` and call it before touching Django; this module is
then the URL configuration (the app's URLs plus the two reference views).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

urlpatterns: list[Any] = []


def configure(database: Path, static_root: Path) -> None:
    """Django set up on ``database`` (migrated) with its static files in ``static_root``."""
    os.environ["DJANGO_SETTINGS_MODULE"] = "companion.settings"
    os.environ["SQLITE_PATH"] = str(database)
    os.environ.pop("DATABASE_URL", None)
    os.environ["DJANGO_DEBUG"] = "0"
    os.environ["DJANGO_STATIC_ROOT"] = str(static_root)
    os.environ["DJANGO_ALLOWED_HOSTS"] = "testserver,localhost"  # Django's test client
    import django

    django.setup()
    from django.conf import settings
    from django.contrib.auth.decorators import login_required
    from django.core.management import call_command
    from django.http import HttpRequest, HttpResponse
    from django.shortcuts import render
    from django.urls import include, path

    def bare(request: HttpRequest) -> HttpResponse:
        return HttpResponse("ok")

    @login_required
    def bare_page(request: HttpRequest) -> HttpResponse:
        return render(request, "base.html")

    urlpatterns[:] = [
        path("bench/bare/", bare),
        path("bench/page/", bare_page),
        path("", include("companion.urls")),
    ]
    settings.ROOT_URLCONF = __name__
    call_command("migrate", verbosity=0)
    call_command("collectstatic", interactive=False, verbosity=0)

"""Middleware of the app: requests with a NUL character are refused before any view;
a button's address opened as a page gets a page that says so; a change that found the
database busy says that nothing was saved.

PostgreSQL refuses a NUL character in text, so a NUL that reached a query
(a name typed into a form, a GET parameter a page filters by, a URL segment
looked up in the database) would end as a server error. No person types a NUL;
a request that carries one, in its path, its query string or its form data
(names or values), gets a short page that says the input cannot be read
(400), and no view runs.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from django.db import OperationalError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

logger = logging.getLogger(__name__)

NUL = "\x00"
FORM_TYPES = ("application/x-www-form-urlencoded", "multipart/form-data")


def _has_nul(request: HttpRequest) -> bool:
    if NUL in request.path_info:
        return True
    if any(NUL in key or any(NUL in v for v in values) for key, values in request.GET.lists()):
        return True
    if request.method == "POST" and request.content_type in FORM_TYPES:
        for key, values in request.POST.lists():
            if NUL in key or any(NUL in v for v in values):
                return True
        for key, files in request.FILES.lists():
            if NUL in key or any(NUL in (upload.name or "") for upload in files):
                return True
    return False


class RefuseNulMiddleware:
    """Answer 400 with an explanation to any request with a NUL character in its input."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if _has_nul(request):
            return render(request, "400.html", {"nul": True}, status=400)
        return self.get_response(request)



class NotAllowedPageMiddleware:
    """A GET on what only a form may send (``@require_POST``: a button's address opened
    from an old tab or a shared link) is answered 405 with a page that says to use the
    button, not with Django's empty body (a blank page on the phone)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if response.status_code != 405 or response.content or request.method != "GET":
            return response
        page = render(request, "405.html", status=405)
        page["Allow"] = response["Allow"]
        return page


class DatabaseBusyMiddleware:
    """A change that could not get the database's write lock in time is answered 503
    ("busy, nothing was saved, try again"), not with the server error page.

    SQLite lets one connection write at a time; another waits up to its ``timeout``
    (settings.SQLITE_OPTIONS) and then fails with "database is locked". That happens
    inside the change's transaction, so nothing of it was stored, and the answer says
    so; the offline queue and the "Try again" button send the same form again with its
    key (companion.idempotency), so a retry can never store it twice.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if not (isinstance(exception, OperationalError) and _locked(exception)):
            return None
        logger.warning("Database busy, nothing saved: %s %s", request.method, request.path)
        response = render(request, "503.html", status=503)
        response["Retry-After"] = "5"
        return response


def _locked(error: OperationalError) -> bool:
    text = str(error).lower()
    return "database is locked" in text or "database table is locked" in text

"""The installable app: the web app manifest and the service worker.

The service worker is served from ``/sw.js`` (not from ``/static/``) so that its
scope is the whole site; it is a template because it names the hashed URLs of
the layout's static files and speaks the user's language in its offline page.
"""

from __future__ import annotations

import hashlib
import json

from django.contrib.staticfiles.storage import staticfiles_storage
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.templatetags.static import PrefixNode
from django.urls import reverse
from django.utils.cache import patch_cache_control, patch_vary_headers
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

THEME = {"light": {"theme": "#f8f9fa", "background": "#ffffff"},
         "dark": {"theme": "#2b3035", "background": "#212529"}}
"""Bootstrap's top bar and page colours in its light and dark modes."""

SHELL = [
    "vendor/bootstrap/bootstrap.app.css", "css/app.css", "css/net.css",
    "django_htmx/htmx-2.min.js", "js/net.js", "js/sheet.js", "js/sync.js", "js/queue.js",
    "js/wakelock.js", "icons/icon-192.png",
]
"""Static files of the layout and the sheet, stored when the service worker is installed.
Everything else is stored as it is fetched (by URL, so hashed names need no list)."""


def _static_urls(names: list[str]) -> list[str]:
    urls = []
    for name in names:
        try:
            urls.append(staticfiles_storage.url(name))
        except ValueError:  # not collected (a manifest storage without this file): skip it
            continue
    return urls


@require_GET
def manifest(request: HttpRequest) -> HttpResponse:
    icon = staticfiles_storage.url
    data = {
        "id": "/",
        "name": _("Kartenrunde: score sheets for the card table"),
        "short_name": "Kartenrunde",
        "description": _("Keeps score for Amigo card games, deal by deal, on every phone "
                         "at the table."),
        "lang": get_language(),
        "dir": "ltr",
        "start_url": reverse("home"),
        "scope": "/",
        "display": "standalone",
        "orientation": "any",
        "theme_color": THEME["light"]["theme"],
        "background_color": THEME["light"]["background"],
        "user_preferences": {"color_scheme_dark": {
            "theme_color": THEME["dark"]["theme"],
            "background_color": THEME["dark"]["background"],
        }},
        "icons": [
            {"src": icon("icons/icon-192.png"), "sizes": "192x192", "type": "image/png",
             "purpose": "any"},
            {"src": icon("icons/icon-512.png"), "sizes": "512x512", "type": "image/png",
             "purpose": "any"},
            {"src": icon("icons/icon-maskable-512.png"), "sizes": "512x512",
             "type": "image/png", "purpose": "maskable"},
        ],
    }
    response = JsonResponse(
        data, content_type="application/manifest+json",
        json_dumps_params={"ensure_ascii": False, "indent": 1},
    )
    patch_vary_headers(response, ["Accept-Language", "Cookie"])
    return response


@require_GET
def service_worker(request: HttpRequest) -> HttpResponse:
    shell = _static_urls(SHELL)
    context = {
        "version": hashlib.sha256(json.dumps(shell).encode()).hexdigest()[:12],
        "shell": json.dumps(shell),
        "static_prefix": json.dumps(PrefixNode.handle_simple("STATIC_URL")),
        "offline_page": json.dumps(render(request, "offline.html").content.decode()),
    }
    response = render(request, "sw.js", context,
                      content_type="application/javascript; charset=utf-8")
    patch_cache_control(response, no_cache=True, max_age=0)
    patch_vary_headers(response, ["Accept-Language", "Cookie"])
    return response

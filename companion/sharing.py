"""Links meant for another device: invite links and the QR codes that carry them.

A link built from the request would name 127.0.0.1 when the host opened the
app on the machine that serves it, which no phone can reach. `make run` tells
the app the machine's addresses on the local network (``LAN_URLS``, set by
``manage.py serve``); such a link then names the first of those instead.
"""

from __future__ import annotations

from functools import lru_cache
from urllib.parse import urlsplit

import segno
from django.conf import settings
from django.http import HttpRequest
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe

from companion.lan import is_loopback


def share_url(request: HttpRequest, location: str) -> str:
    """The absolute URL of ``location`` (a path or a URL) as another device can open it."""
    url = request.build_absolute_uri(location)
    parts = urlsplit(url)
    if settings.LAN_URLS and is_loopback(parts.hostname or ""):
        path = parts.path + (f"?{parts.query}" if parts.query else "")
        return settings.LAN_URLS[0].rstrip("/") + path
    return url


@lru_cache(maxsize=512)  # a pure function of its arguments: nothing shared is kept here
def qr_svg(url: str, *, title: str) -> SafeString:
    """``url`` as a QR code, an inline SVG scaled by CSS (black on white with its
    quiet zone, which every scanner reads, also in dark mode)."""
    code = segno.make(url, error="m")
    svg = code.svg_inline(
        border=4, dark="#000", light="#fff", omitsize=True, svgclass="qr-code",
        title=title, lineclass=None,
    )
    return mark_safe(svg.replace("<svg ", f'<svg role="img" aria-label="{escape(title)}" ', 1))

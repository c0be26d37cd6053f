"""``{% qr_code location title %}``: a link for another phone as a QR code (inline SVG).

``location`` is a path or an absolute URL; the code carries the URL another
device can open (``companion.sharing.share_url``).
"""

from __future__ import annotations

from django import template
from django.template import Context
from django.utils.safestring import SafeString

from companion.sharing import qr_svg, share_url

register = template.Library()


@register.simple_tag(takes_context=True)
def qr_code(context: Context, location: str, title: str) -> SafeString:
    return qr_svg(share_url(context["request"], location), title=title)

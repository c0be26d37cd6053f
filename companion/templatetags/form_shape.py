"""``{% shaped %}``: names the markup of a fresh deal form, so a save can leave it out.

The next deal's form after a save is the form the page got fresh, but for the
deal number, its key, its heading and the CSRF token. ``{% shaped %}…{% endshaped %}``
puts a digest of the rest in place of ``data-shape="__SHAPE__"`` (written only on
a fresh form); static/js/sync.js keeps a copy of such a form, sends its shape
with a save, and the save answers with the new number, key and heading only when
the next form's shape is the same (``companion.views.sheet._saved``).
"""

from __future__ import annotations

import hashlib
import re

from django import template
from django.template.base import Parser, Token
from django.template.context import Context
from django.utils.safestring import SafeString, mark_safe

register = template.Library()

MARK = "__SHAPE__"
_VARYING = re.compile(
    r'(<h2[^>]*>)[^<]*(</h2>)'
    r'|(name="(?:number|client_key|csrfmiddlewaretoken)" value=")[^"]*'
    r'| hx-swap-oob="true"'
)


def form_shape(html: str) -> str:
    """A digest of a deal form's markup without what differs from one fresh form to the next.

    >>> a = '<section data-shape="x"><h2 class="h6">Deal 2</h2><input name="number" value="2">'
    >>> b = '<section data-shape="x" hx-swap-oob="true"><h2 class="h6">Deal 3</h2>'
    >>> form_shape(a) == form_shape(b + '<input name="number" value="3">')
    True
    >>> form_shape(a) == form_shape(a.replace("<section", '<section class="x"'))
    False
    """
    plain = _VARYING.sub(lambda m: (m[1] or "") + (m[2] or "") + (m[3] or ""), html)
    return hashlib.blake2s(plain.encode(), digest_size=8).hexdigest()


class ShapedNode(template.Node):
    def __init__(self, nodelist: template.NodeList) -> None:
        self.nodelist = nodelist

    def render(self, context: Context) -> SafeString:
        html = self.nodelist.render(context)
        if MARK not in html:
            return mark_safe(html)  # rendered by the template engine: escaped there
        return mark_safe(html.replace(MARK, form_shape(html), 1))


@register.tag
def shaped(parser: Parser, token: Token) -> ShapedNode:
    nodelist = parser.parse(("endshaped",))
    parser.delete_first_token()
    return ShapedNode(nodelist)

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
"""What :func:`form_shape` leaves out, as one expression (:func:`_plain` does the same)."""
_HEADING = re.compile(r'(<h2[^>]*>)[^<]*(</h2>)')
_VALUES = ('name="number" value="', 'name="client_key" value="',
           'name="csrfmiddlewaretoken" value="')
_OOB = ' hx-swap-oob="true"'
_STARTS = ("<h2", *_VALUES, _OOB)


def _plain(html: str) -> str:
    """``_VARYING.sub`` keeping the headings' tags and the values' names (the same text):
    the expression tries its three branches at every character of a 10-30 KB form, about
    half a millisecond; this looks for the starts of its branches with ``str.find``.

    >>> text = '<h2 class="h6">Deal 2</h2><h2>x<b></h2> name="number" value="2" hx-swap-oob="true"'
    >>> _plain(text) == _VARYING.sub(lambda m: (m[1] or "") + (m[2] or "") + (m[3] or ""), text)
    True
    """
    found = {start: html.find(start) for start in _STARTS}
    parts, done = [], 0
    while True:
        waiting = [(at, start) for start, at in found.items() if at >= 0]
        if not waiting:
            break
        at, start = min(waiting)
        if start == "<h2":
            heading = _HEADING.match(html, at)
            if heading is None:  # no match here: the expression goes on after the "<"
                found[start] = html.find(start, at + 1)
                continue
            parts += (html[done:at], heading[1], heading[2])
            done = heading.end()
        elif start == _OOB:
            parts.append(html[done:at])
            done = at + len(start)
        else:
            value = at + len(start)
            end = html.find('"', value)
            parts.append(html[done:value])
            done = len(html) if end < 0 else end
        for other, other_at in found.items():
            if 0 <= other_at < done:
                found[other] = html.find(other, done)
    parts.append(html[done:])
    return "".join(parts)


def form_shape(html: str) -> str:
    """A digest of a deal form's markup without what differs from one fresh form to the next.

    >>> a = '<section data-shape="x"><h2 class="h6">Deal 2</h2><input name="number" value="2">'
    >>> b = '<section data-shape="x" hx-swap-oob="true"><h2 class="h6">Deal 3</h2>'
    >>> form_shape(a) == form_shape(b + '<input name="number" value="3">')
    True
    >>> form_shape(a) == form_shape(a.replace("<section", '<section class="x"'))
    False
    """
    return hashlib.blake2s(_plain(html).encode(), digest_size=8).hexdigest()


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

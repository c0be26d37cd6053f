"""``{% constant %} … {% endconstant %}``: a part of the site layout that is the same on
every page in one language, rendered once per process and then reused; inside it,
``{% dynamic %} … {% enddynamic %}`` marks what is rendered for every request.

The layout (base.html) is on every page, so what it costs every page costs: its head
(static file URLs, the translated texts), its menu (URLs) and the scripts' texts took
longer than a whole bare view (bench/web.py). A constant part is rendered without the
page's context, only with ``LANGUAGE_CODE`` and ``logged_in`` (whether the page is for a
logged-in user): no user, no session, no CSRF token (what needs them renders empty
there, so nothing of one request can show up in another's page) except in its
``{% dynamic %}`` parts, which get the page's context. It is kept per language, URL
prefix (``SCRIPT_NAME``) and ``logged_in``, the things its URLs and texts may depend on;
a settings change (tests) forgets every kept part.

A ``{% dynamic %}`` part must not sit inside a tag that decides on the page's context
(an ``{% if user… %}`` or a ``{% for %}`` in the constant part sees no user and no
loop variable): put such tags outside.

>>> from django.template import Context, Template
>>> from django.utils import translation
>>> page = Template("{% load layout %}{% constant %}<p lang='{{ LANGUAGE_CODE }}'>"
...                 "{{ who }} {% dynamic %}{{ who }}{% enddynamic %}</p>{% endconstant %}")
>>> with translation.override("en"):
...     page.render(Context({"who": "Anna"})), page.render(Context({"who": "Ben"}))
("<p lang='en'> Anna</p>", "<p lang='en'> Ben</p>")
"""

from __future__ import annotations

import uuid
from typing import Any

from django import template
from django.core.signals import setting_changed
from django.dispatch import receiver
from django.template.base import Node, NodeList, Parser, Token
from django.template.context import Context
from django.urls import get_script_prefix
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language, gettext

register = template.Library()

_HOLE = f"\x00dynamic-{uuid.uuid4().hex}\x00"
"""What a dynamic part renders as while its constant part is rendered once (never in a
page: NUL is no character of a template)."""
_HOLES = "layout.dynamic-parts"
"""Context key: the list the dynamic parts add themselves to while that happens."""

_generation = 0
"""Moved on by every settings change: parts rendered before are rendered again."""


@receiver(setting_changed)
def _forget_rendered_parts(**kwargs: Any) -> None:
    global _generation
    _generation += 1


def generation() -> int:
    """The settings' generation: a part kept under an older one is rendered again (the
    constant parts here, the kept sheet parts and forms of ``revision_parts``)."""
    return _generation


class DynamicNode(Node):
    def __init__(self, nodelist: NodeList) -> None:
        self.nodelist = nodelist

    def render(self, context: Context) -> str:
        holes = context.get(_HOLES)
        if holes is None:  # outside a constant part, or its page being rendered
            return self.nodelist.render(context)
        holes.append(self)
        return _HOLE


Rendered = tuple[tuple[str, ...], tuple[DynamicNode, ...]]
"""A part rendered once: its text, split where its dynamic parts go, and those parts."""


def split_at_holes(text: str, holes: list[DynamicNode], tag: str) -> Rendered:
    """``text`` of a part rendered with ``holes`` collecting its dynamic parts, split
    where they go."""
    chunks = tuple(text.split(_HOLE))
    if len(chunks) != len(holes) + 1:
        raise template.TemplateSyntaxError(
            f"The text of a {{% {tag} %}} part does not match its {{% dynamic %}} parts.")
    return chunks, tuple(holes)


def fill_holes(rendered: Rendered, context: Context) -> SafeString:
    """A part rendered once, with its dynamic parts rendered for this page."""
    chunks, holes = rendered
    if not holes:
        return mark_safe(chunks[0])
    parts = [chunks[0]]
    for hole, chunk in zip(holes, chunks[1:], strict=True):
        parts += (hole.nodelist.render(context), chunk)
    return mark_safe("".join(parts))


class ConstantNode(Node):
    def __init__(self, nodelist: NodeList) -> None:
        self.nodelist = nodelist
        self.generation = _generation
        self.rendered: dict[tuple[str | None, str, bool], Rendered] = {}

    def _render_once(self, context: Context, language: str | None, logged_in: bool) -> Rendered:
        holes: list[DynamicNode] = []
        text = self.nodelist.render(
            context.new({"LANGUAGE_CODE": language, "logged_in": logged_in, _HOLES: holes}))
        return split_at_holes(text, holes, "constant")

    def render(self, context: Context) -> SafeString:
        if self.generation != _generation:
            # A new dict, not clear(): other threads may be reading the old one.
            self.rendered, self.generation = {}, _generation
        language = get_language()
        user = context.get("user")
        logged_in = user is not None and user.is_authenticated is True
        key = (language, get_script_prefix(), logged_in)
        rendered = self.rendered.get(key)
        if rendered is None:
            rendered = self.rendered[key] = self._render_once(context, language, logged_in)
        return fill_holes(rendered, context)


def block_tag(parser: Parser, token: Token) -> NodeList:
    """The content of a block tag without arguments (``{% name %}…{% endname %}``), as the
    layout's tags and the sheet's kept parts are written."""
    name, *arguments = token.split_contents()
    if arguments:
        raise template.TemplateSyntaxError(f"{{% {name} %}} takes no arguments.")
    nodelist = parser.parse((f"end{name}",))
    parser.delete_first_token()
    return nodelist


@register.tag
def constant(parser: Parser, token: Token) -> ConstantNode:
    """``{% constant %}…{% endconstant %}``: rendered once per language (see the module)."""
    return ConstantNode(block_tag(parser, token))


@register.tag
def dynamic(parser: Parser, token: Token) -> DynamicNode:
    """``{% dynamic %}…{% enddynamic %}``: rendered for every page, inside a constant part."""
    return DynamicNode(block_tag(parser, token))


# The layout's values of one request, for its {% dynamic %} parts: each is one Python
# expression instead of a template variable with its lookups, filters and escaping, or a
# translated sentence built by {% blocktranslate %} (together they cost as much as the
# rest of the layout: bench/web.py). The output is the same as the template's was.


class ValueNode(Node):
    def __init__(self, value: Any) -> None:
        self.value = value

    def render(self, context: Context) -> str:
        return self.value(context)  # type: ignore[no-any-return]


def _csrf_token(context: Context) -> str:
    """The masked CSRF token (what ``{{ csrf_token }}`` writes): letters and digits."""
    return str(context.get("csrf_token", ""))


def _user_id(context: Context) -> str:
    """The logged-in user's id, empty for a visitor (``{{ user.pk|default:'' }}``)."""
    user = context.get("user")
    return str(getattr(user, "pk", None) or "")


def _logged_in_as(context: Context) -> str:
    """The account menu's first line (what ``{% blocktranslate %}`` wrote)."""
    return gettext("Logged in as %(name)s") % {"name": escape(context["user"].get_username())}


def _current_path(context: Context) -> str:
    """The page's path and query, for the language switch's return (escaped); empty for a
    page rendered without a request, as ``{{ request.get_full_path }}`` was."""
    request = context.get("request")
    return "" if request is None else escape(request.get_full_path())


_VALUES = {
    "csrf_token": _csrf_token,
    "user_id": _user_id,
    "logged_in_as": _logged_in_as,
    "current_path": _current_path,
}


@register.tag
def value(parser: Parser, token: Token) -> ValueNode:
    """``{% value name %}``: one of the layout's request values (``_VALUES``), escaped."""
    bits = token.split_contents()
    if len(bits) != 2 or bits[1] not in _VALUES:
        raise template.TemplateSyntaxError(
            f"{{% value %}} takes one of: {', '.join(_VALUES)}.")
    return ValueNode(_VALUES[bits[1]])

"""The form renderer (settings.FORM_RENDERER): Django's own, with its plain ``<input>``
written in Python instead of through two templates (issue 31).

Django renders every widget through the template engine: an ``<input>`` is
``django/forms/widgets/number.html`` (or ``hidden.html``, …), which includes ``input.html``,
which includes ``attrs.html``. A deal form has a dozen of them (its hidden fields and a
field per player), and every save and every woken sheet renders one: the widgets were a
quarter of the sheet's template time. Here those templates' output is written directly,
character for character what they make (tests/companion/test_form_renderer.py compares the
two); every other widget (select, radio, textarea, …) still goes through its template.

A documented extension point (Django's "The low-level render API": a renderer is any class
with ``render(template_name, context, request)``), not a change of Django.
"""

from __future__ import annotations

from typing import Any

from django.forms.renderers import DjangoTemplates
from django.utils.html import conditional_escape
from django.utils.safestring import SafeData

INPUT = "django/forms/widgets/input.html"
PLAIN_INPUTS = frozenset({INPUT} | {
    f"django/forms/widgets/{name}.html"
    for name in ("checkbox", "color", "date", "datetime", "email", "file", "hidden",
                 "number", "password", "search", "tel", "text", "time", "url")
})
"""Django's widget templates that are ``input.html`` and nothing else (each of the others
is one line, ``{% include "django/forms/widgets/input.html" %}``)."""


def _text(value: Any) -> str:
    """``{{ value|stringformat:'s' }}`` under autoescaping."""
    text = str(value)
    return text if isinstance(value, SafeData) else conditional_escape(text)


def plain_input(widget: dict[str, Any]) -> str:
    """What ``input.html`` (with ``attrs.html``) renders for a widget's context."""
    parts = [f'<input type="{conditional_escape(widget["type"])}" '
             f'name="{conditional_escape(widget["name"])}"']
    if widget["value"] is not None:
        parts.append(f' value="{_text(widget["value"])}"')
    for name, value in widget["attrs"].items():
        if value is False:
            continue
        parts.append(f" {conditional_escape(name)}")
        if value is not True:
            parts.append(f'="{_text(value)}"')
    parts.append(">")
    return "".join(parts)


class FormRenderer(DjangoTemplates):
    def render(self, template_name: str, context: dict[str, Any], request: Any = None) -> str:
        if template_name in PLAIN_INPUTS:
            return plain_input(context["widget"])
        return super().render(template_name, context, request=request)

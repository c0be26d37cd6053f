"""Widgets of the deal form that write their HTML in Python.

The deal form has up to 40 inputs (seven colours for each of four players, the
hidden values); through Django's widget templates (``input.html`` including
``attrs.html``, one template render per input and per option) they cost more
than the rest of the sheet together. These widgets keep everything Django works
out for an input (``get_context``: the value as shown, ``id``, ``aria-invalid``,
``aria-describedby``, the field's ``min``/``max``) and only replace the template
render with the same markup written directly: byte for byte what the templates
give (``tests/companion/test_sheet_widgets.py`` compares them).
"""

from __future__ import annotations

import html
from collections.abc import Mapping
from typing import Any

from django import forms
from django.forms.renderers import BaseRenderer
from django.utils.safestring import SafeData, SafeString, mark_safe


def _escape(value: object) -> str:
    """What ``{{ value }}`` writes of a text with autoescape on (Django's ``escape`` is
    ``html.escape``; called directly, without its lazy-string wrapper, for speed)."""
    html_method = getattr(value, "__html__", None)
    if html_method is not None:
        return str(html_method())
    return html.escape(str(value))


def _text(value: object) -> str:
    """What ``{{ value|stringformat:'s' }}`` writes with autoescape on."""
    return str(value) if isinstance(value, SafeData) else html.escape(str(value))


def _attrs(attrs: Mapping[str, Any]) -> str:
    """``django/forms/widgets/attrs.html``: `` name="value"``, a bare name for True,
    nothing for False."""
    parts = []
    for name, value in attrs.items():
        if value is False:
            continue
        parts.append(f" {_escape(name)}" if value is True
                     else f' {_escape(name)}="{_text(value)}"')
    return "".join(parts)


def input_html(widget: Mapping[str, Any]) -> str:
    """``django/forms/widgets/input.html`` for a widget context."""
    value = widget["value"]
    shown = f' value="{_text(value)}"' if value is not None else ""
    return (
        f'<input type="{_escape(widget["type"])}" '
        f'name="{_escape(widget["name"])}"{shown}{_attrs(widget["attrs"])}>'
    )


def select_html(widget: Mapping[str, Any]) -> str:
    """``django/forms/widgets/select.html`` (with ``select_option.html``) for a widget context."""
    parts = [f'<select name="{_escape(widget["name"])}"{_attrs(widget["attrs"])}>']
    for group_name, options, _index in widget["optgroups"]:
        if group_name:
            parts.append(f'\n  <optgroup label="{_escape(group_name)}">')
        for option in options:
            parts.append(
                f'\n  <option value="{_text(option["value"])}"{_attrs(option["attrs"])}>'
                f'{_escape(option["label"])}</option>\n'
            )
        if group_name:
            parts.append("\n  </optgroup>")
    parts.append("\n</select>")
    return "".join(parts)


class PlainInputMixin:
    """An input widget whose HTML is written here instead of by its template."""

    def _render(
        self, template_name: str, context: dict[str, Any], renderer: BaseRenderer | None = None
    ) -> SafeString:
        return mark_safe(input_html(context["widget"]))  # every value escaped in input_html


class NumberInput(PlainInputMixin, forms.NumberInput):
    pass


class TextInput(PlainInputMixin, forms.TextInput):
    pass


class HiddenInput(PlainInputMixin, forms.HiddenInput):
    pass


class Select(forms.Select):
    """A select whose HTML (options included) is written here instead of by its templates."""

    def _render(
        self, template_name: str, context: dict[str, Any], renderer: BaseRenderer | None = None
    ) -> SafeString:
        return mark_safe(select_html(context["widget"]))  # every value escaped in select_html


__all__ = ["HiddenInput", "NumberInput", "Select", "TextInput", "input_html", "select_html"]

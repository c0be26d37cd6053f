"""The form renderer writes Django's plain ``<input>`` without templates
(companion/forms/renderer.py): character for character what Django's templates make."""

from __future__ import annotations

import datetime
import itertools

import pytest
from django import forms
from django.conf import settings
from django.forms.renderers import DjangoTemplates, get_default_renderer
from django.utils.safestring import mark_safe

from companion.forms.renderer import INPUT, PLAIN_INPUTS, FormRenderer

TEMPLATES = DjangoTemplates()
FAST = FormRenderer()

VALUES = [None, "", 0, 7, "Anna & <Ben>", 'say "hi"', "it's", mark_safe("<b>safe</b>"),
          datetime.date(2026, 12, 3), 2.5, "ü € ♠"]
ATTRS = [
    {},
    {"id": "id_s0-red", "class": "form-control", "min": 0, "max": 30, "required": True},
    {"autofocus": False, "disabled": True, "data-x": 'a"b<c>', "aria-label": "Anna's"},
    {"placeholder": mark_safe("&lt;x&gt;"), "step": "any", "data-zero": 0, "title": ""},
]
WIDGETS = [forms.TextInput, forms.NumberInput, forms.HiddenInput, forms.EmailInput,
           forms.URLInput, forms.SearchInput, forms.TelInput, forms.ColorInput,
           forms.DateInput, forms.DateTimeInput, forms.TimeInput]


def test_the_templates_it_stands_for_are_input_html_and_nothing_else():
    """If a Django upgrade gives one of them more markup, this fails (and the renderer
    would write the old markup)."""
    include = '{% include "django/forms/widgets/input.html" %}'
    for name in PLAIN_INPUTS - {INPUT}:
        assert TEMPLATES.get_template(name).template.source.strip() == include, name
    assert TEMPLATES.get_template(INPUT).template.source.strip() == (
        '<input type="{{ widget.type }}" name="{{ widget.name }}"{% if widget.value != None %}'
        ' value="{{ widget.value|stringformat:\'s\' }}"{% endif %}'
        '{% include "django/forms/widgets/attrs.html" %}>'
    )


@pytest.mark.parametrize("widget_class", WIDGETS, ids=lambda w: w.__name__)
def test_an_input_is_written_as_its_templates_write_it(widget_class):
    for value, attrs in itertools.product(VALUES, ATTRS):
        widget = widget_class(attrs=attrs)
        expected = widget.render("s0-red", value, renderer=TEMPLATES)
        assert widget.render("s0-red", value, renderer=FAST) == expected, (value, attrs)


def test_checkboxes_passwords_and_files_too():
    for value in (True, False, None, "on", "x<y"):
        widget = forms.CheckboxInput(attrs={"class": "btn-check"})
        assert (widget.render("kept", value, renderer=FAST)
                == widget.render("kept", value, renderer=TEMPLATES))
    for widget in (forms.PasswordInput(render_value=True), forms.PasswordInput(),
                   forms.FileInput(attrs={"accept": ".json,.csv"})):
        assert (widget.render("secret", 'p"w<d', renderer=FAST)
                == widget.render("secret", 'p"w<d', renderer=TEMPLATES))


def test_other_widgets_still_go_through_their_templates():
    widget = forms.Select(choices=[("a", "Anna <A>"), ("b", "Ben")])
    assert (widget.render("player", "b", renderer=FAST)
            == widget.render("player", "b", renderer=TEMPLATES))
    assert 'selected' in widget.render("player", "b", renderer=FAST)


def test_it_is_the_apps_renderer():
    assert settings.FORM_RENDERER == "companion.forms.renderer.FormRenderer"
    assert isinstance(get_default_renderer(), FormRenderer)

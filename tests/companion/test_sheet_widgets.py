"""The deal form's widgets write the same HTML as Django's widget templates, without them."""

from __future__ import annotations

from typing import Any

import pytest
from django import forms
from django.utils.safestring import mark_safe
from django.utils.translation import gettext_lazy

from companion.forms import widgets

ATTRS: dict[str, Any] = {
    "inputmode": "numeric", "pattern": "[0-9]*", "class": "form-control text-center",
    "placeholder": gettext_lazy("e.g. 55, 3, 17"), "min": 0, "max": 999, "required": True,
    "disabled": False, "data-x": 'say "hi" & <go>', "data-safe": mark_safe("<b>"),
}


@pytest.mark.parametrize("value", [None, "", 0, 7, "55, 3, 17", 'x"<y>&', True])
@pytest.mark.parametrize(("plain", "django"), [
    (widgets.NumberInput, forms.NumberInput),
    (widgets.TextInput, forms.TextInput),
    (widgets.HiddenInput, forms.HiddenInput),
])
def test_an_input_is_written_as_djangos_template_writes_it(
    plain: type[forms.Widget], django: type[forms.Widget], value: object
) -> None:
    attrs = {"id": "id_s0-rot", "aria-invalid": "true"}
    assert plain(attrs=ATTRS).render("s0-rot", value, attrs) == django(attrs=ATTRS).render(
        "s0-rot", value, attrs
    )


@pytest.mark.parametrize("value", [None, 0, 10, "7", "<nope>"])
@pytest.mark.parametrize("choices", [
    [(0, "–"), (7, "7"), (10, "10"), ("<b>", gettext_lazy("Card numbers"))],
    [("Group & co", [(1, "one"), (2, "two")]), (3, "three")],
])
def test_a_select_is_written_as_djangos_templates_write_it(
    choices: list[Any], value: object
) -> None:
    attrs = {"class": "form-select", "id": "id_s1-interim_bonus"}
    plain = widgets.Select(attrs=attrs, choices=choices)
    django = forms.Select(attrs=attrs, choices=choices)
    assert plain.render("s1-interim_bonus", value) == django.render("s1-interim_bonus", value)


def test_the_selected_option_is_marked() -> None:
    html = widgets.Select(choices=[(0, "–"), (10, "10")]).render("bonus", 10)
    assert html == (
        '<select name="bonus">\n  <option value="0">–</option>\n\n'
        '  <option value="10" selected>10</option>\n\n</select>'
    )

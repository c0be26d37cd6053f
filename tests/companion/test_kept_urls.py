"""``{% url %}`` of templatetags/kept_urls.py: the addresses Django's tag writes, kept per
view, arguments, script prefix and language."""

from __future__ import annotations

import pytest
from django.template import Context, Template
from django.urls import NoReverseMatch, set_script_prefix

from companion.templatetags.kept_urls import _reverse


def render(text: str, **context: object) -> str:
    return Template("{% load kept_urls %}" + text).render(Context(context))


def test_it_writes_what_djangos_tag_writes_for_every_argument_and_form() -> None:
    text = ("{% url 'match_sheet' g m %}|{% url 'deal_edit' group_id=g match_id=m number=n %}"
            "|{% url 'match_undo' g m as undo %}[{{ undo }}]|{% url 'rules_game' game %}")
    values = {"g": 3, "m": 14, "n": 2, "game": "x-nimmt"}
    plain = Template(text).render(Context(values))
    assert render(text, **values) == plain == render(text, **values)
    assert plain == ("/g/3/matches/14/|/g/3/matches/14/deals/2/|"
                     "[/g/3/matches/14/undo/]|/rules/x-nimmt/")


def test_an_address_is_kept_per_script_prefix() -> None:
    assert render("{% url 'match_sheet' 1 2 %}") == "/g/1/matches/2/"
    set_script_prefix("/kartenrunde/")
    try:
        assert render("{% url 'match_sheet' 1 2 %}") == "/kartenrunde/g/1/matches/2/"
    finally:
        set_script_prefix("/")
    assert render("{% url 'match_sheet' 1 2 %}") == "/g/1/matches/2/"


def test_an_address_that_does_not_exist_is_an_error_or_empty_as_a_variable() -> None:
    with pytest.raises(NoReverseMatch):
        render("{% url 'match_sheet' 'x' %}")
    assert render("{% url 'match_sheet' 'x' as gone %}[{{ gone }}]") == "[]"


def test_an_argument_that_cannot_be_a_key_goes_the_built_in_way() -> None:
    _reverse.cache_clear()
    for template in (Template("{% url 'match_sheet' g m %}"),
                     Template("{% load kept_urls %}{% url 'match_sheet' g m %}")):
        with pytest.raises(NoReverseMatch, match=r"with arguments '\(\[1\], 2\)' not found"):
            template.render(Context({"g": [1], "m": 2}))
    assert _reverse.cache_info().currsize == 0

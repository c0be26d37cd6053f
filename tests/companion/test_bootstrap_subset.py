"""The app's Bootstrap (static/vendor/bootstrap/bootstrap.app.css): the dist file's rules
that can match the pages, built by ``manage.py build_css`` (companion/bootstrap_subset.py).

A template that starts using a Bootstrap class the built file lacks fails here, so no
page loses its styling silently: run ``make css`` and commit the file.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.conf import settings
from django.core.management import CommandError, call_command

from companion import bootstrap_subset
from companion.bootstrap_subset import Names, collect_names, selector_classes, shake

ROOT = Path(settings.BASE_DIR)
CSS = """\
:root,[data-bs-theme=light]{--bs-blue:#0d6efd;--bs-body-color:#212529;--bs-link:var(--bs-blue)}\
[data-bs-theme=dark]{color-scheme:dark;--bs-body-color:#dee2e6}\
body{color:var(--bs-body-color)}\
.btn{--bs-btn-bg:transparent;background:var(--bs-btn-bg)}\
.btn-primary{--bs-btn-bg:#0d6efd}.btn-danger{--bs-btn-bg:#dc3545}\
.btn-group>.btn:nth-child(n+3),.btn-toolbar .btn{margin:0}\
.btn-check:checked+.btn,:not(.btn-check)+.btn:active{color:red}\
[data-bs-popper]{top:0}\
.spinner-border{--bs-spinner-animation-name:spinner-border;\
animation:1s var(--bs-spinner-animation-name)}\
@keyframes spinner-border{to{transform:rotate(360deg)}}@keyframes placeholder-glow{50%{opacity:.2}}\
@media (min-width:576px){.modal{width:500px}.btn-lg{padding:1rem}}\
"""


def names(*words: str, prefixes: tuple[str, ...] = (), properties: tuple[str, ...] = ()) -> Names:
    return Names(frozenset(words), frozenset(prefixes), frozenset(properties))


APP = names("body", "btn", "btn-primary", "btn-group", "btn-lg", "data-bs-theme", "div")


def test_it_keeps_only_the_rules_whose_classes_the_app_uses() -> None:
    kept = shake(CSS, APP)
    assert ".btn-primary{--bs-btn-bg:#0d6efd}" in kept
    assert "btn-danger" not in kept
    assert "modal" not in kept


def test_it_keeps_a_rule_byte_for_byte_and_drops_only_the_selectors_that_cannot_match() -> None:
    kept = shake(CSS, APP)
    assert ".btn-group>.btn:nth-child(n+3){margin:0}" in kept  # .btn-toolbar's selector left out
    assert ":not(.btn-check)+.btn:active{color:red}" in kept  # :not() needs no element


def test_it_keeps_what_an_element_or_the_colour_modes_need_and_drops_unused_attributes() -> None:
    kept = shake(CSS, APP)
    assert "[data-bs-theme=dark]{color-scheme:dark;--bs-body-color:#dee2e6}" in kept
    assert "body{color:var(--bs-body-color)}" in kept
    assert "data-bs-popper" not in kept


def test_a_media_block_keeps_its_used_rules_and_goes_when_none_is_left() -> None:
    assert "@media (min-width:576px){.btn-lg{padding:1rem}}" in shake(CSS, APP)
    assert "@media" not in shake(CSS, names("btn"))


def test_it_drops_custom_properties_that_nothing_reads() -> None:
    kept = shake(CSS, APP)
    assert "--bs-blue" not in kept
    assert "--bs-link" not in kept
    assert ":root,[data-bs-theme=light]{--bs-body-color:#212529}" in kept


def test_a_custom_property_the_apps_own_css_reads_stays() -> None:
    kept = shake(CSS, names(*APP.words, properties=("--bs-blue",)))
    assert ":root,[data-bs-theme=light]{--bs-blue:#0d6efd;--bs-body-color:#212529}" in kept


def test_keyframes_stay_when_a_kept_rule_names_them_even_through_a_custom_property() -> None:
    kept = shake(CSS, names("spinner-border"))
    assert "@keyframes spinner-border{" in kept
    assert "placeholder-glow" not in kept


def test_a_class_completed_at_run_time_keeps_its_theme_colour_variants() -> None:
    found = collect_names(['<div class="alert alert-{{ message.level_tag }}">',
                           'K.el("button", "btn btn-" + level)'])
    assert {"alert-", "btn-"} <= found.prefixes
    kept = shake(CSS, Names(found.words, found.prefixes))
    assert ".btn-danger{--bs-btn-bg:#dc3545}" in kept


def test_with_every_name_used_it_gives_back_the_stylesheet_less_the_unnamed_keyframes() -> None:
    everything = set(re.findall(r"[A-Za-z_][\w-]*", CSS))
    properties = set(re.findall(r"--[\w-]+", CSS))
    kept = shake(CSS, Names(frozenset(everything), frozenset(), frozenset(properties)))
    assert kept == CSS.replace("@keyframes placeholder-glow{50%{opacity:.2}}", "")


# --- The committed file ------------------------------------------------------------------


def template_classes() -> dict[str, set[str]]:
    """Every class written in a ``class="..."`` of the app's templates, by template
    (the literal ones: what a template tag inserts is left out)."""
    found: dict[str, set[str]] = {}
    paths = [*ROOT.glob("templates/**/*.html"), *ROOT.glob("companion/**/templates/**/*.html")]
    for path in paths:
        text = path.read_text(encoding="utf-8")
        for value in re.findall(r'\bclass="((?:\{%.*?%\}|\{\{.*?\}\}|[^"])*)"', text):
            plain = re.sub(r"\{%.*?%\}|\{\{.*?\}\}", " {} ", value)
            for word in plain.split():
                if "{" not in word and not word.endswith("-"):
                    found.setdefault(word, set()).add(str(path.relative_to(ROOT)))
    return found


WITHOUT_STYLE = {
    "dropdown-menu-end": "only sets --bs-position, read by Bootstrap's JavaScript (not used); "
                         "app.css places the account menu",
}
"""Bootstrap classes a template may use that style nothing without Bootstrap's JavaScript."""


def test_every_bootstrap_class_a_template_uses_is_in_the_built_css() -> None:
    bootstrap = selector_classes(bootstrap_subset.BOOTSTRAP.read_text(encoding="utf-8"))
    built = selector_classes(bootstrap_subset.BUILT.read_text(encoding="utf-8"))
    used = template_classes()
    assert {"btn", "list-group-item", "navbar"} <= used.keys()  # the reading works
    missing = {name: sorted(where) for name, where in used.items()
               if name in bootstrap and name not in built and name not in WITHOUT_STYLE}
    assert missing == {}, "run `make css` and commit static/vendor/bootstrap/bootstrap.app.css"


def test_every_message_level_has_its_alert_colour_in_the_built_css() -> None:
    built = selector_classes(bootstrap_subset.BUILT.read_text(encoding="utf-8"))
    assert {f"alert-{tag}" for tag in settings.MESSAGE_TAGS.values()} <= built
    assert {"btn-danger", "btn-warning", "alert-warning"} <= built  # the toasts (net.js)


def test_the_committed_css_is_what_build_css_makes_from_todays_sources() -> None:
    try:
        call_command("build_css", "--check")
    except CommandError as error:
        pytest.fail(str(error))


def test_the_built_css_is_a_fraction_of_bootstrap_and_keeps_its_licence() -> None:
    built = bootstrap_subset.BUILT.read_text(encoding="utf-8")
    assert len(built) < len(bootstrap_subset.BOOTSTRAP.read_text(encoding="utf-8")) / 3
    assert built.startswith('@charset "UTF-8";/*!\n * Bootstrap  v5.3.9')

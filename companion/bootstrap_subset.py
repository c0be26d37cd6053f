"""Bootstrap's CSS cut down to the rules the app's pages can use (``manage.py build_css``).

The vendored ``bootstrap.min.css`` (the unchanged dist file) is read with tinycss2 and
written back without the rules that can match nothing the app makes. Every kept rule
is byte for byte Bootstrap's, so the look stays exactly as it was; only what no page
can show goes:

- a selector whose classes, element names or attribute names occur nowhere in the
  app's sources (templates, the games' templates, the JavaScript, the Python that
  builds HTML, and the crispy-forms and Django widget templates). A word counts
  anywhere in those files, not only in ``class="..."``: a class may come from a
  variable, a ``{% with %}``, a form's ``attrs`` or a Python string. Classes inside
  ``:not()`` (or any other pseudo-class's argument) do not count: they need no element.
- a class made of a prefix and a run-time value (``alert-{{ message.level_tag }}``,
  ``"btn-" + level``) keeps the prefix's theme-colour variants (``alert-danger``, ...).
- ``@media`` blocks left empty, ``@keyframes`` no kept rule names;
- custom properties (``--bs-...``) that nothing reads: not a kept rule's ``var()``,
  not another read custom property, not the app's own CSS, templates or scripts.

Bootstrap's colour modes stay: ``[data-bs-theme=dark]`` rules are kept like the others,
and the app's pages set the attribute (base.html).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

import tinycss2
from tinycss2.ast import (
    AtRule,
    CurlyBracketsBlock,
    Declaration,
    FunctionBlock,
    IdentToken,
    LiteralToken,
    Node,
    ParenthesesBlock,
    QualifiedRule,
    SquareBracketsBlock,
    WhitespaceToken,
)

ROOT = Path(__file__).resolve().parent.parent
BOOTSTRAP = ROOT / "static" / "vendor" / "bootstrap" / "bootstrap.min.css"
BUILT = ROOT / "static" / "vendor" / "bootstrap" / "bootstrap.app.css"

THEME_COLOURS = ("primary", "secondary", "success", "info", "warning", "danger", "light",
                 "dark")
"""Bootstrap's theme colours: the values a run-time class suffix can take here
(``settings.MESSAGE_TAGS``, the toasts' levels)."""

WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_-]*")
PREFIX = re.compile(r"\b([a-z][a-z0-9]*(?:-[a-z0-9]+)*-)(?=\{\{|\{%|\{[a-z_]|[\"']\s*\+)")
"""A class prefix completed at run time: ``alert-{{``, ``text-bg-{kind}``, ``"btn-" +``."""
CUSTOM_PROPERTY = re.compile(r"--[A-Za-z0-9_-]+")


@dataclass(frozen=True, slots=True)
class Names:
    """The words the app's sources use (class, element and attribute names among them)."""

    words: frozenset[str]
    prefixes: frozenset[str] = frozenset()
    """Class prefixes completed at run time (``alert-``)."""
    properties: frozenset[str] = frozenset()
    """Custom properties named outside Bootstrap's CSS (``--bs-body-bg`` in app.css)."""

    def has_class(self, name: str) -> bool:
        return name in self.words or any(
            name == prefix + colour for prefix in self.prefixes for colour in THEME_COLOURS
        )


def source_files() -> list[Path]:
    """Every file whose words can put a class, element or attribute on a page."""
    import crispy_bootstrap5
    import django

    widgets = Path(django.__file__).parent / "forms" / "templates" / "django" / "forms"
    files = [
        *ROOT.glob("templates/**/*.html"),
        *ROOT.glob("companion/**/templates/**/*.html"),
        *ROOT.glob("static/js/*.js"),
        *(path for path in ROOT.glob("companion/**/*.py")
          if "migrations" not in path.parts and path.name != "bootstrap_subset.py"),
        *_included(Path(crispy_bootstrap5.__file__).parent / "templates", CRISPY_ENTRIES),
        *widgets.glob("**/*.html"),
    ]
    return sorted(set(files))


CRISPY_ENTRIES = ("bootstrap5/uni_form.html", "bootstrap5/field.html", "bootstrap5/errors.html")
"""The crispy-forms templates the app's ``|crispy`` and ``|as_crispy_field`` render (its
layout objects, accordions, modals and tabs, are not used)."""
INCLUDE = re.compile(r"""\{%\s*include\s+["']([^"']+)["']""")


def _included(folder: Path, entries: Iterable[str]) -> set[Path]:
    """The templates ``entries`` in ``folder`` and those they include, at any depth."""
    found: set[Path] = set()
    todo = [folder / name for name in entries]
    while todo:
        path = todo.pop()
        if path in found or not path.exists():
            continue
        found.add(path)
        todo += [folder / name for name in INCLUDE.findall(path.read_text(encoding="utf-8"))]
    return found


def style_files() -> list[Path]:
    """The app's own stylesheets: they read Bootstrap's custom properties."""
    return sorted(ROOT.glob("static/css/*.css"))


def collect_names(texts: Iterable[str], styles: Iterable[str] = ()) -> Names:
    """The names used by ``texts`` (sources) and the custom properties ``styles`` read."""
    words: set[str] = set()
    prefixes: set[str] = set()
    properties: set[str] = set()
    for text in texts:
        words.update(WORD.findall(text))
        prefixes.update(PREFIX.findall(text))
        properties.update(CUSTOM_PROPERTY.findall(text))
    for text in styles:
        properties.update(CUSTOM_PROPERTY.findall(text))
    return Names(frozenset(words), frozenset(prefixes), frozenset(properties))


def app_names() -> Names:
    return collect_names((path.read_text(encoding="utf-8") for path in source_files()),
                         (path.read_text(encoding="utf-8") for path in style_files()))


# --- Selectors -----------------------------------------------------------------------------


@dataclass(slots=True)
class Needs:
    """What an element must have for a selector to match it."""

    classes: set[str] = field(default_factory=set)
    elements: set[str] = field(default_factory=set)
    attributes: set[str] = field(default_factory=set)


def split_selectors(prelude: list[Node]) -> list[list[Node]]:
    """A rule's selector list split at its top-level commas, each without outer spaces."""
    selectors: list[list[Node]] = [[]]
    for token in prelude:
        if isinstance(token, LiteralToken) and token.value == ",":
            selectors.append([])
        else:
            selectors[-1].append(token)
    return [_strip(selector) for selector in selectors]


def _strip(tokens: list[Node]) -> list[Node]:
    start, end = 0, len(tokens)
    while start < end and isinstance(tokens[start], WhitespaceToken):
        start += 1
    while end > start and isinstance(tokens[end - 1], WhitespaceToken):
        end -= 1
    return tokens[start:end]


def needs(selector: list[Node]) -> Needs:
    """The classes, elements and attribute names ``selector`` requires (not those in a
    pseudo-class's argument such as ``:not(.btn-check)``)."""
    found = Needs()
    previous: Node | None = None
    for token in selector:
        if isinstance(token, IdentToken):
            if isinstance(previous, LiteralToken) and previous.value == ".":
                found.classes.add(token.value)
            elif not (isinstance(previous, LiteralToken) and previous.value in (":", "|")):
                found.elements.add(token.value.lower())
        elif isinstance(token, SquareBracketsBlock):
            for inner in token.content:
                if isinstance(inner, IdentToken):
                    found.attributes.add(inner.value.lower())
                    break
        previous = token
    return found


def can_match(selector: list[Node], names: Names) -> bool:
    need = needs(selector)
    return (all(names.has_class(name) for name in need.classes)
            and need.elements <= names.words
            and need.attributes <= names.words)


# --- The stylesheet ------------------------------------------------------------------------


def parse(css: str) -> list[Node]:
    """The rules of ``css``, an ``@media`` rule's ``content`` parsed into rules too."""
    rules = tinycss2.parse_stylesheet(css, skip_comments=False, skip_whitespace=True)
    for rule in rules:
        if _is_media(rule):
            rule.content = parse(text(rule.content or []))
    return rules


def _is_media(rule: Node) -> bool:
    return isinstance(rule, AtRule) and rule.lower_at_keyword == "media"


def _qualified(rules: Iterable[Node]) -> Iterator[QualifiedRule]:
    for rule in rules:
        if isinstance(rule, QualifiedRule):
            yield rule
        elif _is_media(rule):
            yield from _qualified(rule.content)


def _declarations(rule: QualifiedRule) -> list[Declaration]:
    return [d for d in tinycss2.parse_blocks_contents(rule.content, skip_whitespace=True,
                                                      skip_comments=True)
            if isinstance(d, Declaration)]


def _keep_selectors(rules: list[Node], names: Names) -> list[Node]:
    """``rules`` without the selectors that can match nothing (and rules left without)."""
    kept: list[Node] = []
    for rule in rules:
        if isinstance(rule, QualifiedRule):
            selectors = split_selectors(rule.prelude)
            matching = [s for s in selectors if can_match(s, names)]
            if not matching:
                continue
            if len(matching) != len(selectors):
                rule.prelude = [token for number, selector in enumerate(matching)
                                for token in ([LiteralToken(0, 0, ",")] if number else [])
                                + selector]
        elif _is_media(rule):
            rule.content = _keep_selectors(rule.content, names)
            if not rule.content:
                continue
        kept.append(rule)
    return kept


def _reads(value: list[Node]) -> Iterator[str]:
    """The custom properties a value reads through ``var()``, at any depth."""
    for token in value:
        if isinstance(token, FunctionBlock):
            if token.lower_name == "var":
                first = next((t for t in token.arguments if isinstance(t, IdentToken)), None)
                if first is not None:
                    yield first.value
            yield from _reads(token.arguments)
        elif isinstance(token, SquareBracketsBlock | ParenthesesBlock | CurlyBracketsBlock):
            yield from _reads(token.content)


def read_properties(rules: list[Node], names: Names) -> set[str]:
    """Custom properties something reads: a kept rule's property, the app's own files,
    and the custom properties those read in turn."""
    defined: dict[str, list[list[Node]]] = {}
    wanted = set(names.properties)
    for rule in _qualified(rules):
        for declaration in _declarations(rule):
            if declaration.name.startswith("--"):
                defined.setdefault(declaration.name, []).append(declaration.value)
            else:
                wanted.update(_reads(declaration.value))
    todo = list(wanted)
    while todo:
        for value in defined.get(todo.pop(), []):
            for name in _reads(value):
                if name not in wanted:
                    wanted.add(name)
                    todo.append(name)
    return wanted


def _keep_properties(rules: list[Node], wanted: set[str]) -> list[Node]:
    """``rules`` without the custom properties outside ``wanted`` (and rules left empty)."""
    kept: list[Node] = []
    for rule in rules:
        if isinstance(rule, QualifiedRule):
            declarations = _declarations(rule)
            useful = [d for d in declarations if not d.name.startswith("--") or d.name in wanted]
            if not useful:
                continue
            if len(useful) != len(declarations):
                rule.content = tinycss2.parse_component_value_list(
                    ";".join(_declaration_text(d) for d in useful))
        elif _is_media(rule):
            rule.content = _keep_properties(rule.content, wanted)
            if not rule.content:
                continue
        kept.append(rule)
    return kept


def _declaration_text(declaration: Declaration) -> str:
    return (f"{declaration.name}:{text(declaration.value)}"
            + ("!important" if declaration.important else ""))


def _value_words(rules: list[Node]) -> set[str]:
    """Every word of the kept declarations' values (a keyframes' name is in a custom
    property too: ``--bs-spinner-animation-name:spinner-border``)."""
    return {token.value for rule in _qualified(rules) for declaration in _declarations(rule)
            for token in declaration.value if isinstance(token, IdentToken)}


def shake(css: str, names: Names) -> str:
    """``css`` without the rules, selectors and custom properties ``names`` cannot use."""
    rules = _keep_selectors(parse(css), names)
    rules = _keep_properties(rules, read_properties(rules, names))
    words = _value_words(rules)
    rules = [rule for rule in rules
             if not (isinstance(rule, AtRule) and rule.lower_at_keyword == "keyframes"
                     and text(rule.prelude).strip() not in words)]
    return "".join(_rule_text(rule) for rule in rules)


def _rule_text(rule: Node) -> str:
    if isinstance(rule, QualifiedRule):
        return text(rule.prelude) + "{" + text(rule.content) + "}"
    if isinstance(rule, AtRule):
        head = "@" + rule.at_keyword + text(rule.prelude)
        if rule.content is None:
            return head + ";"
        if _is_media(rule):
            return head + "{" + "".join(_rule_text(inner) for inner in rule.content) + "}"
        return head + "{" + text(rule.content) + "}"
    return rule.serialize()  # a comment: the licence


BRACKETS = {SquareBracketsBlock: "[]", ParenthesesBlock: "()", CurlyBracketsBlock: "{}"}


def text(tokens: Iterable[Node]) -> str:
    """Tokens as they were written. (tinycss2's ``serialize`` puts ``/**/`` between tokens
    that could run together, as in ``nth-child(n+3)``; minified CSS needs none.)"""
    out = []
    for token in tokens:
        if isinstance(token, FunctionBlock):
            out.append(token.name + "(" + text(token.arguments) + ")")
        elif type(token) in BRACKETS:
            pair = BRACKETS[type(token)]
            out.append(pair[0] + text(token.content) + pair[1])  # type: ignore[attr-defined]
        else:
            out.append(token.serialize())
    return "".join(out)


def selector_classes(css: str) -> set[str]:
    """Every class a selector of ``css`` names (outside pseudo-class arguments too)."""
    found: set[str] = set()
    for rule in _qualified(parse(css)):
        previous: Node | None = None
        for token in _flatten(rule.prelude):
            if (isinstance(token, IdentToken) and isinstance(previous, LiteralToken)
                    and previous.value == "."):
                found.add(token.value)
            previous = token
    return found


def _flatten(tokens: list[Node]) -> Iterator[Node]:
    for token in tokens:
        yield token
        if isinstance(token, FunctionBlock):
            yield from _flatten(token.arguments)


def build(source: Path = BOOTSTRAP) -> str:
    """The app's Bootstrap: the dist file cut down to what the app's sources use."""
    return shake(source.read_text(encoding="utf-8"), app_names())



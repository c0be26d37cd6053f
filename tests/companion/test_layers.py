"""The layers the README draws: views → services → selectors → models and ``scoring/``,
with the games' folders below the reads that ask them. An import from a lower layer up,
or two packages that import each other, fails here (imports only for type checking do
not count: they do not run).
"""

from __future__ import annotations

import ast
import sys
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

LAYERS: tuple[frozenset[str], ...] = (
    # top: what Django calls
    frozenset({"urls", "views", "templatetags", "management", "admin", "apps", "settings",
               "asgi", "wsgi", "middleware", "server"}),
    # the web's helpers: forms, access checks, repeats, shared pictures, links and renders
    frozenset({"forms", "access", "idempotency", "notices", "sharing", "night_card",
               "logins", "signups", "shared_renders"}),
    # writes
    frozenset({"services", "bgstats", "backups"}),
    # reads (an uploaded file read before it is loaded too)
    frozenset({"selectors", "breakdown", "charts", "rules_search", "rules_content",
               "uploads"}),
    # the games' folders and what they share
    frozenset({"games", "turns"}),
    # the data
    frozenset({"models", "colours", "parsing", "limits", "changes", "waiting", "logs",
               "evenings", "trusted_polls", "signals"}),
)
"""Packages and modules of ``companion`` by layer, top first; a module not named here is
at the bottom (settings' helpers, the engine's catalogue …)."""

KNOWN_TWO_WAY: frozenset[tuple[str, str]] = frozenset()
"""Two-way dependencies not untangled yet: each must go, none may be added."""
KNOWN_UPWARD: frozenset[tuple[str, str]] = frozenset()
"""Upward imports not untangled yet: each must go, none may be added."""


def _unit(module: str) -> str | None:
    parts = module.split(".")
    return parts[1] if parts[0] == "companion" and len(parts) > 1 else None


def _layer(unit: str) -> int:
    return next((index for index, units in enumerate(LAYERS) if unit in units), len(LAYERS))


def imports(root: Path = ROOT) -> dict[str, set[str]]:
    """Per package or module of ``companion``, the others it imports (at run time)."""
    found: dict[str, set[str]] = defaultdict(set)
    for path in sorted((root / "companion").rglob("*.py")):
        if "migrations" in path.parts:
            continue
        source = _unit(".".join(path.relative_to(root).with_suffix("").parts))
        tree = ast.parse(path.read_text(encoding="utf-8"))
        typing_only = {
            id(inner) for node in ast.walk(tree)
            if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test)
            for inner in ast.walk(node)
        }
        for node in ast.walk(tree):
            if id(node) in typing_only:
                continue
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                names = [node.module, *(f"{node.module}.{alias.name}" for alias in node.names)]
            else:
                continue
            for name in names:
                target = _unit(name)
                if target and source and target != source and (
                        (root / "companion" / target).is_dir()
                        or (root / "companion" / f"{target}.py").exists()):
                    found[source].add(target)
    return found


def two_way(graph: dict[str, set[str]]) -> set[tuple[str, str]]:
    return {tuple(sorted((a, b))) for a, targets in graph.items() for b in targets  # type: ignore[misc]
            if a in graph.get(b, set())}


def upward(graph: dict[str, set[str]]) -> set[tuple[str, str]]:
    return {(a, b) for a, targets in graph.items() for b in targets if _layer(b) < _layer(a)}


def test_no_two_packages_import_each_other() -> None:
    assert two_way(imports()) - KNOWN_TWO_WAY == set()


def test_no_import_runs_from_a_lower_layer_up() -> None:
    assert upward(imports()) - KNOWN_UPWARD == set()


def test_the_known_exceptions_are_still_there() -> None:
    """An exception that is gone is taken off its list, so that it cannot come back."""
    graph = imports()
    assert two_way(graph) >= KNOWN_TWO_WAY
    assert upward(graph) >= KNOWN_UPWARD


if __name__ == "__main__":  # python tests/companion/test_layers.py [repository]: the figures
    graph = imports(Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT)
    print("two-way:", sorted(two_way(graph)))
    print("upward:", sorted(upward(graph)))

"""No test starts an event loop in the main thread (tests/event_loops.py says why)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from tests.event_loops import run_apart

TESTS = Path(__file__).parent


def loops_started_here(source: str) -> list[int]:
    """The lines of ``source`` that run an event loop: ``asyncio.run(...)``,
    ``loop.run_until_complete(...)``, ``loop.run_forever()``."""
    def runs_a_loop(call: ast.Call) -> bool:
        if not isinstance(call.func, ast.Attribute):
            return False
        name = call.func.attr
        return name in {"run_until_complete", "run_forever"} or (
            name == "run" and isinstance(call.func.value, ast.Name)
            and call.func.value.id == "asyncio")

    return [node.lineno for node in ast.walk(ast.parse(source))
            if isinstance(node, ast.Call) and runs_a_loop(node)]


def test_the_finder_sees_a_loop_started_in_the_test() -> None:
    assert loops_started_here("import asyncio\n\nasyncio.run(main())\n") == [3]
    assert loops_started_here("loop = asyncio.new_event_loop()\n"
                              "loop.run_until_complete(main())\n") == [2]
    assert loops_started_here("run_apart(main())\nawait asyncio.sleep(0)\n"
                              "loop = asyncio.new_event_loop()\n") == []


def test_coroutines_run_apart_from_the_main_thread() -> None:
    started = {str(path.relative_to(TESTS)): lines for path in sorted(TESTS.rglob("*.py"))
               if path.name != "event_loops.py"
               and (lines := loops_started_here(path.read_text(encoding="utf-8")))}
    assert started == {}, "use tests.event_loops.run_apart"


def test_run_apart_gives_back_what_the_coroutine_returns_or_raises() -> None:
    async def answer() -> int:
        return 42

    async def refusal() -> None:
        raise LookupError("no such match")

    assert run_apart(answer()) == 42
    with pytest.raises(LookupError, match="no such match"):
        run_apart(refusal())

"""`runner/command.py` wires a run from its steps: each call there names what it passes
beyond the first few arguments, so that a step added or changed reads as what it takes
(no call with more than 5 positional arguments)."""

from __future__ import annotations

import ast
from pathlib import Path

import holodeck_lsp

COMMAND = Path(holodeck_lsp.__file__).parent / "runner" / "command.py"
MAX_POSITIONAL = 5


def long_positional_calls(source: str) -> list[str]:
    """Each call in ``source`` with more than MAX_POSITIONAL positional arguments, as
    `line: callee (N positional)`."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Call) and len(node.args) > MAX_POSITIONAL:
            found.append(f"{node.lineno}: {ast.unparse(node.func)} ({len(node.args)} positional)")
    return sorted(found)


def test_no_call_in_the_run_command_passes_more_than_5_positional_arguments() -> None:
    assert long_positional_calls(COMMAND.read_text(encoding="utf-8")) == []


def test_a_call_with_6_positional_arguments_is_found() -> None:
    source = "plan(a, b, c, d, e)\nstep(a, b, c, d, e, f)\nstep(a, b, c, d, e, f=f)\n"
    assert long_positional_calls(source) == ["2: step (6 positional)"]

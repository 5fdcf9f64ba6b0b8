"""A cloned repository that shadows the modules the server and the runner import, for the
tests of what code may run. Every module of it (the shadows, and the user's own grader and
tool) leaves a marker file when imported, outside the repository."""

from __future__ import annotations

import os
import sys
import textwrap
from pathlib import Path

SHADOWED = ("json", "multiprocessing", "pydantic", "yaml")
# `holodeck-lsp`, the console script editors start, next to this interpreter.
CONSOLE_SCRIPT = str(Path(sys.executable).parent / "holodeck-lsp")
QUESTION = "What was the cash in 2009?"

AGENT = """\
name: cloned
model:
  provider: openai
  name: gpt-test
  endpoint: {endpoint}
instructions:
  inline: Answer with the number only.
tools:
  - name: lookup
    type: function
    description: Look a value up.
    file: tools.py
    function: lookup
evaluations:
  metrics:
    - type: code
      grader: graders:grade
test_cases:
  - name: cash
    turns:
      - input: {question}
        ground_truth: "206588"
        expected_tools: [lookup]
"""
TOOLS = """
def lookup(item: str, year: str) -> int:
    return 206588
"""
# The user's grader; it also asks for a standard module the repository shadows.
GRADERS = """
import multiprocessing
from dataclasses import dataclass


@dataclass
class Graded:
    score: float
    passed: bool | None = None
    reason: str | None = None
    details: dict | None = None


def grade(ctx):
    return Graded(1.0, True, "graded")
"""


def _marks(markers: Path, name: str) -> str:
    return f"open({str(markers / name)!r}, 'w').close()\n"


def hostile_workspace(tmp_path: Path, endpoint: str = "http://127.0.0.1:9/v1") -> tuple[Path, Path]:
    """The repository, with its agent calling the model at ``endpoint``; (its agent file,
    the folder of markers)."""
    folder = tmp_path / "cloned"
    markers = tmp_path / "markers"
    folder.mkdir()
    markers.mkdir()
    (folder / "agent.yaml").write_text(AGENT.format(endpoint=endpoint, question=QUESTION))
    (folder / "tools.py").write_text(_marks(markers, "tools") + textwrap.dedent(TOOLS))
    (folder / "graders.py").write_text(_marks(markers, "graders") + textwrap.dedent(GRADERS))
    for name in SHADOWED:
        (folder / name).mkdir()
        (folder / name / "__init__.py").write_text(
            _marks(markers, name) + f"raise ImportError('the shadow of {name}')\n"
        )
    return folder / "agent.yaml", markers


def imported(markers: Path) -> list[str]:
    return sorted(marker.name for marker in markers.iterdir())


def descendants(pid: int) -> list[int]:
    """The processes started by ``pid`` and by them, from /proc."""
    found, pending = [], [pid]
    while pending:
        try:
            tasks = list(Path(f"/proc/{pending.pop()}/task").iterdir())
            children = [int(c) for task in tasks for c in (task / "children").read_text().split()]
        except OSError:  # ended meanwhile
            continue
        found += children
        pending += children
    return sorted(found)


def descriptor(pid: int, fd: int) -> str:
    """What a process's descriptor is: a file, `pipe:[inode]`, ..."""
    return os.readlink(f"/proc/{pid}/fd/{fd}")

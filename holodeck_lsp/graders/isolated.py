"""Opt-in: import a grader for real, in a child process with a time limit.

Importing runs the user's module code; doing it in a child keeps a hanging or
crashing module from taking the editor's server (or `check`) down with it. The child is
isolated (`isolation/children.py`): the grader's folders are the only workspace folders on
its path, and a standard-library name there never stands in for the real module.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from holodeck_lsp.isolation.children import python_command
from holodeck_lsp.pydantic_plugins import child_environment

_PROBE = r"""
import importlib, json, sys
from holodeck_lsp.isolation.stdlib_guard import guard_standard_library
folders = json.loads(sys.argv[1])
module, _, name = sys.argv[2].partition(":")
guard_standard_library(folders, [module.split(".")[0]])
sys.path[:] = folders + sys.path
try:
    obj = getattr(importlib.import_module(module), name)
except AttributeError as exc:
    print(json.dumps({"status": "attr-missing", "message": f"{type(exc).__name__}: {exc}"}))
except BaseException as exc:
    print(json.dumps({"status": "import-failed", "message": f"{type(exc).__name__}: {exc}"}))
else:
    print(json.dumps({"status": "ok" if callable(obj) else "not-callable",
                      "message": type(obj).__name__}))
"""


@dataclass(frozen=True)
class ImportOutcome:
    status: str  # ok | attr-missing | import-failed | not-callable | timeout
    message: str


def import_grader(spec: str, first_on_path: list[Path], timeout: float = 10.0) -> ImportOutcome:
    """Import ``spec`` in a fresh interpreter and report what happened."""
    import subprocess  # only here: `check` without --import-graders never needs it

    # Absolute: the child runs in the first folder, where a relative path means another place.
    folders = [p.resolve() for p in first_on_path]
    command = python_command(_PROBE, json.dumps([str(p) for p in folders]), spec)
    try:
        done = subprocess.run(
            command,
            capture_output=True,
            text=True,
            timeout=timeout,
            stdin=subprocess.DEVNULL,
            cwd=str(folders[0]) if folders else None,
            env=child_environment(),  # the grader's pydantic plugins are its own
        )
    except subprocess.TimeoutExpired:
        return ImportOutcome("timeout", f"importing the grader took longer than {timeout:g} s")
    except OSError as exc:
        return ImportOutcome("import-failed", f"could not start Python: {exc}")
    lines = [line for line in done.stdout.splitlines() if line.startswith("{")]
    if not lines:
        tail = (done.stderr.strip().splitlines() or ["no output"])[-1]
        return ImportOutcome("import-failed", f"the import crashed the interpreter: {tail}")
    result = json.loads(lines[-1])
    return ImportOutcome(str(result["status"]), str(result["message"]))

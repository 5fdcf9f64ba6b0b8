"""Bytecode of the package and of the tests, written once by the process that starts the
test workers, before they start.

Our CI machines set PYTHONDONTWRITEBYTECODE, so no process leaves bytecode behind: each of
the hundreds of child interpreters (servers, their workers, `holodeck-lsp` runs) would
compile the package afresh, and each of the fast suite's three workers would compile the
test helpers and rewrite the asserts of every test module (pytest keeps its rewritten
modules only where bytecode may be written): 1.8 s of CPU per worker. Here they are
written once: the package and the helpers as `pip install` leaves a package, the test
modules in pytest's own cache of rewritten modules, which every worker reads. With a
pytest whose cache is laid out otherwise (it is not public API), each worker rewrites
them itself, as before.
"""

from __future__ import annotations

import compileall
import os
from collections.abc import Iterator
from fnmatch import fnmatch
from pathlib import Path

import pytest

# Folders of the tests that hold no module of the suite: npm's installs, and the fixtures'
# and vendored files (a fixture's grader is user code; nothing is written beside it).
_NOT_THE_SUITES = frozenset({"node_modules", "fixtures", "data", "__pycache__"})


def write(config: pytest.Config, package: Path, tests: Path) -> None:
    compileall.compile_dir(package, quiet=1)
    patterns = [*config.getini("python_files"), "conftest.py"]
    rewritten = []
    for path in suite_modules(tests):
        if any(fnmatch(path.name, pattern) for pattern in patterns):
            rewritten.append(path)
        else:
            compileall.compile_file(path, quiet=1)
    _rewrite(config, rewritten)


def suite_modules(folder: Path) -> Iterator[Path]:
    """The suite's Python files under ``folder`` (npm's installs, fixtures and vendored
    files left out)."""
    for root, dirs, files in os.walk(folder):
        dirs[:] = [name for name in dirs if name not in _NOT_THE_SUITES]
        yield from (Path(root, name) for name in files if name.endswith(".py"))


def rewritten_path(module: Path) -> Path:
    """Where pytest keeps the rewritten code of a test module."""
    from _pytest.assertion import rewrite

    return rewrite.get_cache_dir(module) / (module.name[:-3] + rewrite.PYC_TAIL)


def _rewrite(config: pytest.Config, modules: list[Path]) -> None:
    try:
        from _pytest.assertion import rewrite

        state = config.stash[rewrite.assertstate_key]
        targets = [(module, rewritten_path(module)) for module in modules]
    except (ImportError, AttributeError, KeyError):  # another pytest; -p no:assertion
        return
    for module, pyc in targets:
        if rewrite._read_pyc(module, pyc) is not None or not rewrite.try_makedirs(pyc.parent):
            continue
        source_hash, code = rewrite._rewrite_test(module, config)
        rewrite._write_pyc(state, code, source_hash, pyc)

"""The runner's tests need its runtime and test dependencies (httpx, junitparser, and
the n-gram metrics' libraries).

In CI (CI set) a missing one fails loudly at import; on a developer's machine whose
environment predates them, the folder is left out with a note in the header instead of
breaking everyone else's test run.
"""

from __future__ import annotations

import importlib.util
import os
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

MISSING = [name for name in ("httpx", "junitparser") if importlib.util.find_spec(name) is None]
# The n-gram metrics' libraries (the `metrics` extra, which `test` includes).
MISSING_METRICS = [
    name for name in ("sacrebleu", "rouge_score", "nltk") if importlib.util.find_spec(name) is None
]
if MISSING and not os.environ.get("CI"):
    collect_ignore_glob = ["test_*.py"]
elif MISSING_METRICS and not os.environ.get("CI"):
    collect_ignore_glob = ["test_nlp_metrics.py"]


def pytest_report_header() -> str | None:
    if MISSING and not os.environ.get("CI"):
        return (
            f"tests/runner skipped: {', '.join(MISSING)} not installed (pip install -e '.[test]')"
        )
    if MISSING_METRICS and not os.environ.get("CI"):
        return (
            f"tests/runner/test_nlp_metrics.py skipped: {', '.join(MISSING_METRICS)} not "
            "installed (pip install -e '.[test]')"
        )
    return None


@pytest.fixture(autouse=True)
def _forget_user_code(tmp_path: Path) -> Iterator[None]:
    """`run` puts each agent's folder first on sys.path and imports its graders and
    agents; undo both after each test so no test sees another's modules."""
    path = list(sys.path)
    yield
    sys.path[:] = path
    root = str(tmp_path)
    # A copy taken at once: a client library's thread may import while this runs.
    for name, module in sys.modules.copy().items():
        if (getattr(module, "__file__", None) or "").startswith(root):
            del sys.modules[name]

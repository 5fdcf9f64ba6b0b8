"""Reports follow the umask (issue 19, item 10): every artefact `run` and `merge` write
(JSON, Markdown, JUnit, HTML, the recording, the events file) is created as `open()`
creates a file, 0666 less the umask, still whole (written beside, then renamed). They were
0600 whatever the umask, and replacing a 0644 report made it 0600, so CI artefact servers
and teammates could not read them."""

from __future__ import annotations

import os
import stat
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.runner.helpers import ECHO, invoke, write

AGENT = """
name: modes
model: {provider: openai, name: unused}
instructions: {inline: unused}
test_cases:
  - {name: one, input: "1"}
"""
FORMATS = ("report.json", "report.md", "report.xml", "report.html")


@pytest.fixture
def umask(request: pytest.FixtureRequest) -> Iterator[int]:
    """The process's umask for the test (the in-process CLI creates the files)."""
    previous = os.umask(request.param)
    try:
        yield request.param
    finally:
        os.umask(previous)


def modes(folder: Path) -> dict[str, str]:
    return {p.name: oct(stat.S_IMODE(p.stat().st_mode)) for p in sorted(folder.iterdir())}


@pytest.mark.parametrize(
    ("umask", "mode"), [(0o022, "0o644"), (0o077, "0o600"), (0o002, "0o664")], indirect=["umask"]
)
def test_every_artefact_is_created_as_the_umask_says(
    tmp_path: Path, umask: int, mode: str
) -> None:
    agent = write(tmp_path / "suite", {"agent.yaml": AGENT, "echo.py": ECHO})
    out = tmp_path / "out"
    out.mkdir()
    # An earlier run's report, readable by everyone: replaced by one the umask decides on.
    (out / "report.json").write_text("{}")
    (out / "report.json").chmod(0o644)
    outputs = [arg for name in FORMATS for arg in ("-o", out / name)]
    code, _, err = invoke(
        "run", agent, "--agent", "echo:factory", "-q", *outputs,
        "--record", out / "recording.jsonl", "--events", out / "events.jsonl",
    )  # fmt: skip
    assert code == 0, err
    merged = tmp_path / "merged"
    merged.mkdir()
    code, _, err = invoke("merge", out / "report.json", "-o", merged / "all.json")
    assert code == 0, err
    written = [*FORMATS, "recording.jsonl", "events.jsonl"]
    assert modes(out) == dict.fromkeys(sorted(written), mode)  # no temporary file left
    assert modes(merged) == {"all.json": mode}

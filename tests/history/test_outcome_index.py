"""The history's index: a warm history reads no run file; a file changed, touched or put
back is read again; a file the index has not seen is read; an index from elsewhere
matches nothing; two processes may index at once; a broken index is made again; a reader
that must not write never creates one."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from holodeck_lsp.history import run_history
from holodeck_lsp.history.outcome_index import index_path
from holodeck_lsp.history.run_history import read_history
from holodeck_lsp.history.run_records import HistoryRun
from tests.history.conftest import VENDORED_HISTORY


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    """A copy of the vendored history, beside its agent: `agent/results/cash-flow`."""
    shutil.copytree(VENDORED_HISTORY, tmp_path / "agent")
    return tmp_path / "agent" / "results" / "cash-flow"


@pytest.fixture
def parsed(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The names of the run files read (parsed) since the test began."""
    names: list[str] = []
    real = run_history.read_run_record

    def counting(path: Path) -> HistoryRun:
        names.append(path.name)
        return real(path)

    monkeypatch.setattr(run_history, "read_run_record", counting)
    return names


def _verdicts(folder: Path) -> list[list[bool]]:
    return [[c.passed for c in run.cases] for run in read_history(folder).runs]


def test_a_warm_history_reads_no_run_file_and_tells_the_same(
    folder: Path, parsed: list[str]
) -> None:
    cold = read_history(folder)
    assert len(parsed) == 4
    assert index_path(folder) == folder.parent.parent / ".holodeck" / "cache" / (
        "history-index.sqlite3"
    )
    warm = read_history(folder)
    assert len(parsed) == 4  # nothing read again
    assert [(r.path, r.run_id, r.cases, r.config) for r in warm.runs] == [
        (r.path, r.run_id, r.cases, r.config) for r in cold.runs
    ]
    assert read_history(folder, use_index=False).runs == cold.runs
    assert len(parsed) == 8


def test_a_changed_file_is_read_again(folder: Path, parsed: list[str]) -> None:
    assert _verdicts(folder)[0] == [True, True]
    first = sorted(folder.iterdir())[0]
    data = json.loads(first.read_text())
    data["report"]["results"][1]["passed"] = False
    first.write_text(json.dumps(data))
    parsed.clear()
    assert _verdicts(folder)[0] == [True, False]
    assert parsed == [first.name]


def test_a_file_touched_or_put_back_with_its_old_times_is_read_again(
    folder: Path, parsed: list[str]
) -> None:
    old_id = read_history(folder).runs[0].run_id
    first = sorted(folder.iterdir())[0]
    before = first.stat()
    os.utime(first)  # touched: the same content
    parsed.clear()
    read_history(folder)
    assert parsed == [first.name]
    # Changed, then its size and times put back: the change time still tells.
    text = first.read_text()
    changed = text.replace('"passed": true', '"passed":false', 1)  # the same size
    assert len(changed) == len(text) and changed != text
    first.write_text(changed)
    os.utime(first, ns=(before.st_atime_ns, before.st_mtime_ns))
    assert (first.stat().st_size, first.stat().st_mtime_ns) == (before.st_size, before.st_mtime_ns)
    parsed.clear()
    history = read_history(folder)
    assert parsed == [first.name]
    assert history.runs[0].run_id != old_id  # what the file holds now


def test_files_added_and_removed_are_seen(folder: Path, parsed: list[str]) -> None:
    read_history(folder)
    first, *rest = sorted(folder.iterdir())
    copy = folder / "copy.json"
    shutil.copy(first, copy)
    rest[0].unlink()
    parsed.clear()
    history = read_history(folder)
    assert parsed == ["copy.json"]
    assert sorted(r.path.name for r in history.runs) == sorted([first.name, "copy.json"] + [
        p.name for p in rest[1:]
    ])
    # The copy is the same run: one id, whatever its name.
    ids = {r.path.name: r.run_id for r in history.runs}
    assert ids["copy.json"] == ids[first.name]


def test_an_index_brought_from_elsewhere_matches_nothing(
    tmp_path: Path, folder: Path, parsed: list[str]
) -> None:
    read_history(folder)
    clone = tmp_path / "clone"
    shutil.copytree(folder.parent.parent, clone)  # the agent, its runs and its index
    assert (clone / ".holodeck" / "cache" / "history-index.sqlite3").is_file()
    parsed.clear()
    read_history(clone / "results" / "cash-flow")
    assert len(parsed) == 4


def test_what_is_not_a_run_is_remembered_with_its_reason(folder: Path, parsed: list[str]) -> None:
    (folder / "notes.json").write_text("[]")
    first = read_history(folder).refused
    parsed.clear()
    assert read_history(folder).refused == first
    assert parsed == []
    assert first == [
        f"{folder / 'notes.json'} is not a kept run (EvalRun): the document: Input should be "
        "an object"
    ]


def test_a_broken_index_is_made_again_and_a_linked_one_is_not_used(
    tmp_path: Path, folder: Path, parsed: list[str]
) -> None:
    index = index_path(folder)
    index.parent.mkdir(parents=True)
    index.write_bytes(b"not a database, planted " * 100)
    assert len(read_history(folder).runs) == 4
    parsed.clear()
    assert len(read_history(folder).runs) == 4
    assert parsed == []  # the index was made again, and used
    # An index reached through a link would write where the link points: not used.
    shutil.rmtree(index.parent)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    index.parent.symlink_to(elsewhere)
    read_history(folder)
    assert list(elsewhere.iterdir()) == []


def test_a_reader_that_must_not_write_never_creates_the_index(
    folder: Path, parsed: list[str]
) -> None:
    assert len(read_history(folder, update_index=False).runs) == 4
    assert not index_path(folder).exists()
    read_history(folder)  # made by a writer...
    parsed.clear()
    assert len(read_history(folder, update_index=False).runs) == 4
    assert parsed == []  # ...then read


_INDEX = """
import sys
from pathlib import Path
from holodeck_lsp.history.run_history import read_history
history = read_history(Path(sys.argv[1]))
print(len(history.runs), len(history.refused))
"""


def test_two_processes_index_the_same_folder_at_once(folder: Path, parsed: list[str]) -> None:
    for n in range(20):  # more to read, so the two overlap
        source = sorted(folder.glob("2026*.json"))[n % 4]
        data = json.loads(source.read_text())
        data["report"]["timestamp"] = f"2026-12-08T00:00:{n:02d}+00:00"
        (folder / f"extra-{n:02d}.json").write_text(json.dumps(data))
    processes = [
        subprocess.Popen(
            [sys.executable, "-c", _INDEX, str(folder)],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for _ in range(2)
    ]
    results = [p.communicate(timeout=60) for p in processes]
    assert [(p.returncode, out, err) for p, (out, err) in zip(processes, results, strict=True)] == [
        (0, "24 0\n", ""),
        (0, "24 0\n", ""),
    ]
    parsed.clear()
    assert len(read_history(folder).runs) == 24
    assert parsed == []

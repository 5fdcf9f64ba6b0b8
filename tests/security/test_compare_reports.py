"""`compare` trusts no report: a report is a file anyone can edit or swap (a CI artefact,
a download). What is not a report is refused in one sentence naming it (exit 2), without
hanging on a FIFO or reading a device or a huge file; what a report holds reaches the
terminal, the comment and the JSON escaped, and the run's secrets never."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from holodeck_lsp.runner.report.report_reading import MAX_REPORT_BYTES
from tests.conftest import REPO
from tests.runner.compared_runs import compare

REPORT = REPO / "tests" / "data" / "holodeck" / "holodeck-report.json"


def _edited(tmp_path: Path, name: str, edit: dict[str, object]) -> Path:
    data = json.loads(REPORT.read_text())
    for dotted, value in edit.items():
        *parents, last = dotted.split(".")
        node = data
        for part in parents:
            node = node[int(part)] if isinstance(node, list) else node[part]
        node[last] = value
    path = tmp_path / name
    path.write_text(json.dumps(data))
    return path


def _refused(base: Path | str, problem: str, *, starts: bool = False) -> None:
    """Refused as BASE and as HEAD with the error ``problem`` (its start, with ``starts``:
    the JSON parser words the rest)."""
    for pair in ((base, REPORT), (REPORT, base)):
        code, out, err = compare(*pair)
        assert (code, out) == (2, "")
        assert err.startswith(f"error: {problem}") if starts else err == f"error: {problem}\n"


def test_what_cannot_be_read_is_refused_naming_it(tmp_path: Path) -> None:
    _refused(tmp_path / "none.json", f"cannot read {tmp_path / 'none.json'}: it does not exist")
    (tmp_path / "empty").mkdir()
    _refused(tmp_path / "empty", f"{tmp_path / 'empty'} is a folder without a JSON report")
    fifo = tmp_path / "fifo.json"
    os.mkfifo(fifo)
    _refused(fifo, f"cannot read {fifo}: it is a FIFO (named pipe), not a regular file")
    _refused("/dev/zero", "cannot read /dev/zero: it is a character device, not a regular file")
    huge = tmp_path / "huge.json"
    with huge.open("wb") as sparse:
        sparse.truncate(MAX_REPORT_BYTES + 1)
    _refused(
        huge,
        f"cannot read {huge}: it has {MAX_REPORT_BYTES + 1:,} bytes, over the limit of "
        f"{MAX_REPORT_BYTES:,}",
    )


def test_what_is_not_a_report_is_refused_saying_where(tmp_path: Path) -> None:
    text = tmp_path / "notes.json"
    text.write_text("not json")
    _refused(text, f"{text} is not a test report: the document: Invalid JSON: ", starts=True)
    deep = tmp_path / "deep.json"
    deep.write_text("[" * 100_000 + "]" * 100_000)
    _refused(
        deep,
        f"{deep} is not a test report: the document: Invalid JSON: recursion limit exceeded",
        starts=True,
    )
    no_summary = _edited(tmp_path, "no-summary.json", {})
    data = json.loads(no_summary.read_text())
    del data["summary"]
    no_summary.write_text(json.dumps(data))
    _refused(no_summary, f"{no_summary} is not a test report: summary: Field required")
    rule = _edited(tmp_path, "rule.json", {"environment.pass_rule": "most"})
    _refused(
        rule,
        f"{rule}: environment.pass_rule: --pass-rule is all, any or a fraction in (0, 1], "
        "got 'most'",
    )
    indexes = _edited(tmp_path, "indexes.json", {"environment.case_indexes": "0,x"})
    _refused(indexes, f"{indexes}: environment.case_indexes is not a count: 'x'")


def test_a_name_cannot_steer_the_terminal_or_the_comment(tmp_path: Path) -> None:
    name = "cash\x1b]0;owned\x07 change\u202e|`` ![x](http://x.invalid/p.png)"
    renamed = _edited(tmp_path, "renamed.json", {"results.0.test_name": name})
    _, text, _ = compare(REPORT, renamed)
    assert "\x1b" not in text and "\u202e" not in text
    assert (
        "  cash\\x1b]0;owned\\x07 change\\u202e|`` ![x](http://x.invalid/p.png), turn 0: "
        "new: passed" in text
    )
    _, markdown, _ = compare(REPORT, renamed, "-f", "markdown")
    assert (
        "| ```cash\\x1b]0;owned\\x07 change\\u202e\\|`` ![x](http://x.invalid/p.png)``` | 0 "
        "| - | passed |  |  |"
    ) in markdown
    _, raw, _ = compare(REPORT, renamed, "-f", "json")
    assert "\\u202e" in raw and "\u202e" not in raw
    assert json.loads(raw)["cases"][0]["case"] == name


def test_the_runs_secrets_are_masked_in_every_format(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    secret = "sk-live-c0mpare-5ecret-91f2"
    monkeypatch.setenv("OPENAI_API_KEY", secret)
    leaky = _edited(
        tmp_path,
        "leaky.json",
        {"results.0.test_name": f"case {secret}", "results.0.turns.1.errors": [f"401: {secret}"]},
    )
    for fmt in ("text", "markdown", "json"):
        _, out, err = compare(REPORT, leaky, "-f", fmt, "-o", tmp_path / f"out.{fmt}")
        written = (tmp_path / f"out.{fmt}").read_text()
        assert secret not in out + err + written
        assert "[REDACTED]" in written, fmt

"""`merge` trusts no report (issue 19, item 9): a report is a file anyone can edit, so its
`shard` must be I/N with 1 <= I <= N <= 10,000 (`1/4000000000` with `--allow-partial`
used to allocate until MemoryError, `7/2` was accepted, `1/2/3` failed with "too many values
to unpack"), and every error names the file; exit 2, as for any bad input."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.runner.helpers import ECHO, invoke, write

AGENT = """
name: shards
model: {provider: openai, name: unused}
instructions: {inline: unused}
test_cases:
  - {name: one, input: "1"}
  - {name: two, input: "2"}
  - {name: three, input: "3"}
"""


@pytest.fixture
def whole(tmp_path: Path) -> Path:
    """The report of an unsharded run of the three cases."""
    agent = write(tmp_path, {"agent.yaml": AGENT, "echo.py": ECHO})
    report = tmp_path / "whole.json"
    code, _, err = invoke("run", agent, "--agent", "echo:factory", "-q", "-o", report)
    assert code == 0, err
    return report


def edited(report: Path, name: str, **environment: str) -> Path:
    data: dict[str, Any] = json.loads(report.read_text())
    data["environment"].update(environment)
    target = report.with_name(name)
    target.write_text(json.dumps(data))
    return target


@pytest.mark.parametrize(
    ("shard", "problem"),
    [
        ("1/4000000000", "shard I/N needs 1 <= I <= N <= 10,000, got '1/4000000000'"),
        ("7/2", "shard I/N needs 1 <= I <= N <= 10,000, got '7/2'"),
        ("0/2", "shard I/N needs 1 <= I <= N <= 10,000, got '0/2'"),
        ("1/2/3", "shard takes I/N (e.g. 2/4), got '1/2/3'"),
        ("²/3", "shard takes I/N (e.g. 2/4), got '²/3'"),
        ("1/" + "9" * 5000, "shard takes I/N (e.g. 2/4), got '1/" + "9" * 38 + "'"),
    ],
)
@pytest.mark.parametrize("partial", [True, False])
def test_a_bad_shard_is_refused_naming_its_file(
    whole: Path, shard: str, problem: str, partial: bool
) -> None:
    bad = edited(whole, "bad.json", shard=shard)
    flags = ["--allow-partial"] if partial else []
    assert invoke("merge", bad, *flags) == (2, "", f"error: {bad}: {problem}\n")


def test_the_most_shards_merge(whole: Path, tmp_path: Path) -> None:
    last = edited(whole, "last.json", shard="10000/10000")
    merged = tmp_path / "merged.json"
    code, _, err = invoke("merge", last, "--allow-partial", "-o", merged)
    missing = json.loads(merged.read_text())["environment"]["missing_shards"].split(",")
    assert (code, len(missing), missing[-1]) == (0, 9999, "9999/10000"), err
    assert invoke("merge", last) == (
        2,
        "",
        "error: shard 1/10000, 2/10000, 3/10000, 4/10000, 5/10000, 6/10000, 7/10000, 8/10000, "
        f"9/10000, 10/10000, ... (9999 in all) is missing: given {last} (10000/10000) "
        "(pass --allow-partial to merge anyway)\n",
    )


def test_every_merge_error_names_the_file(whole: Path) -> None:
    first, second = edited(whole, "a.json", shard="1/2"), edited(whole, "b.json", shard="1/3")
    assert invoke("merge", first, second) == (
        2,
        "",
        "error: the reports split the suite into different numbers of shards: "
        f"{first} (1/2), {second} (1/3)\n",
    )
    again = edited(whole, "again.json", shard="1/2")
    assert invoke("merge", first, again)[2] == (
        f"error: shard 1/2 is in both {first} and {again}\n"
    )
    assert invoke("merge", whole, whole)[2] == (
        f"error: test_cases[0] is in both {whole} and {whole}\n"
    )
    indexes = edited(whole, "indexes.json", case_indexes="0,x,2")
    assert invoke("merge", indexes)[2] == (
        f"error: {indexes}: environment.case_indexes is not a count: 'x'\n"
    )
    calls = edited(whole, "calls.json", judge_calls="many")
    assert invoke("merge", calls)[2] == (
        f"error: {calls}: environment.judge_calls is not a count: 'many'\n"
    )
    data = json.loads(whole.read_text())
    data["agent_name"] = "other"
    other = whole.with_name("other.json")
    other.write_text(json.dumps(data))
    assert invoke("merge", whole, other)[2] == (
        f"error: reports are of different agents: {whole} ('shards'), {other} ('other')\n"
    )

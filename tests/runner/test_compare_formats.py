"""`compare`'s formats: Markdown for a pull-request comment (regressions first, the rest
collapsed, under GitHub's 65,536 characters for a 1,000-case comparison, no regression ever
cut), JSON valid against its documented schema (docs/compare.schema.json, generated from
the models), `--fail-on` and `--output`."""

from __future__ import annotations

import json
import os
from pathlib import Path

import jsonschema
import pytest

from holodeck_lsp.models.comparison import Comparison
from holodeck_lsp.runner.report.comparison.comparison_markdown import COMMENT_LIMIT
from tests.conftest import REPO
from tests.runner.compared_runs import compare, many_cases, run_of, without_times
from tests.runner.test_compare import BASE_ANSWERS, BASE_CASES, HEAD_ANSWERS, HEAD_CASES

SCHEMA_FILE = REPO / "docs" / "compare.schema.json"

EXPECTED_MARKDOWN = """\
<!-- holodeck-lsp compare -->
### HoloDeck test suite: 1 regression(s)

| | BASE | HEAD | change |
|---|---|---|---|
| report | `base/report.json` | `head/report.json` | |
| runner | `holodeck-lsp 0.1.0 (HoloDeck 0.7.1)` | `holodeck-lsp 0.1.0 (HoloDeck 0.7.1)` | |
| test cases passed | 6/8 | 6/8 | +0 |
| duration | N s | N s | N s |
| tokens | 120 | 132 | +12 |
| turn pass rate | 75.0% | 75.0% | +0.0 points (SE 19.4) |

Turns: 1 regressed, 1 fixed, 1 still failing, 5 still passing, 3 new, 2 removed.

Mean scores: `equality 0.75 -> 0.81 (+0.06)`

#### Regressions (1)

| test case | turn | BASE | HEAD | p-value | failure in HEAD |
|---|---|---|---|---|---|
| `breaks` | 1 | passed | failed |  | ``metric `equality` failed: score 0: not the ground truth`` |

<details><summary>Fixed (1)</summary>

| test case | turn | BASE | HEAD | p-value | failure in HEAD |
|---|---|---|---|---|---|
| `mends` | 0 | failed | passed |  |  |

</details>

<details><summary>New (3)</summary>

| test case | turn | BASE | HEAD | p-value | failure in HEAD |
|---|---|---|---|---|---|
| `grows` | 1 | - | passed |  |  |
| `new name` | 0 | - | passed |  |  |
| `added` | 0 | - | passed |  |  |

</details>

<details><summary>Removed (2)</summary>

| test case | turn | BASE | HEAD | p-value | failure in HEAD |
|---|---|---|---|---|---|
| `old name` | 0 | passed | - |  |  |
| `gone` | 0 | passed | - |  |  |

</details>

<details><summary>Still failing (1)</summary>

| test case | turn | BASE | HEAD | p-value | failure in HEAD |
|---|---|---|---|---|---|
| `stuck` | 0 | failed | failed |  | ``metric `equality` failed: score 0: not the ground truth`` |

</details>

<details><summary>Metric scores that changed (2 turn metric(s), largest fall first)</summary>

| test case | turn | metric | score change |
|---|---|---|---|
| `breaks` | 1 | `equality` | -1.00 |
| `mends` | 0 | `equality` | +1.00 |

</details>


<sub>exit 1: 1 regression(s) (--fail-on regressed)</sub>
"""


@pytest.fixture
def runs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, Path]:
    monkeypatch.chdir(tmp_path)
    base = run_of(Path("base"), BASE_CASES, BASE_ANSWERS)
    return base, run_of(Path("head"), HEAD_CASES, HEAD_ANSWERS)


def test_markdown_is_a_comment_with_the_regressions_first(runs: tuple[Path, Path]) -> None:
    code, out, err = compare(*runs, "--format", "markdown")
    assert (code, err) == (1, "exit 1: 1 regression(s) (--fail-on regressed)\n")
    assert without_times(out) == EXPECTED_MARKDOWN


def _schema() -> dict[str, object]:
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": "https://holodeck-lsp.invalid/compare/2",
        **Comparison.model_json_schema(),
        "title": "holodeck-lsp compare --format json, version 2",
    }


def test_the_documented_schema_is_the_models() -> None:
    generated = json.dumps(_schema(), indent=2) + "\n"
    if os.environ.get("HOLODECK_UPDATE_FIXTURES"):
        SCHEMA_FILE.write_text(generated, encoding="utf-8")
    assert SCHEMA_FILE.read_text(encoding="utf-8") == generated, (
        "stale: HOLODECK_UPDATE_FIXTURES=1 pytest tests/runner/test_compare_formats.py"
    )


def test_json_is_valid_against_the_documented_schema(runs: tuple[Path, Path]) -> None:
    code, out, _ = compare(*runs, "--format", "json", "--fail-on", "never")
    assert code == 0
    data = json.loads(out)
    jsonschema.Draft202012Validator(json.loads(SCHEMA_FILE.read_text())).validate(data)
    assert data["turns"] == {
        "regressed": 1,
        "fixed": 1,
        "still_failing": 1,
        "still_passing": 5,
        "new": 3,
        "removed": 2,
        "regressions": 1,
        "beyond_noise": 0,
        "within_noise": 0,
        "not_enough_attempts": 0,
    }


@pytest.mark.parametrize(
    ("fail_on", "code", "why"),
    [
        ("regressed", 1, "exit 1: 1 regression(s) (--fail-on regressed)"),
        ("any-change", 1, "exit 1: turns changed (--fail-on any-change)"),
        ("never", 0, "1 regression(s); exit 0 (--fail-on never)"),
    ],
)
def test_fail_on_decides_the_exit_code(
    runs: tuple[Path, Path], fail_on: str, code: int, why: str
) -> None:
    assert compare(*runs, "--fail-on", fail_on, "-o", "comparison.txt") == (code, "", why + "\n")
    assert Path("comparison.txt").read_text().endswith(why + "\n")


def test_any_change_passes_when_nothing_changed(runs: tuple[Path, Path]) -> None:
    base, _ = runs
    code, out, _ = compare(base, base, "--fail-on", "any-change")
    assert code == 0
    assert out.splitlines()[2] == (
        "turns: 0 regressed, 0 fixed, 2 still failing, 8 still passing, 0 new, 0 removed"
    )


def test_a_thousand_case_comparison_fits_a_comment_with_every_regression(
    tmp_path: Path,
) -> None:
    """Every case regressed, each with a long name: the regressions are listed in the
    shortest form, all of them, and the comment stays under GitHub's limit."""
    names = [f"case {i:04d}: " + "a rather long test case name " * 4 for i in range(1000)]
    base = many_cases(tmp_path / "base.json", names, turns=4, failing=set())
    failing = {(i, t) for i in range(1000) for t in range(4) if (i + t) % 2}
    head = many_cases(tmp_path / "head.json", names, turns=4, failing=failing)
    code, out, _ = compare(base, head, "--format", "markdown")
    assert code == 1
    assert len(out) < COMMENT_LIMIT
    assert out.count("\n- `case ") == 1000  # one line per regressed case, none cut
    assert "- `case 0000: a rather long test case na...`: turn 1, 3\n" in out
    assert "Left out for length: Still failing (2000)" not in out  # nothing still fails

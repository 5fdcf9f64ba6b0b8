"""HL308, an `args` key no matching function tool can take: read from the function's source
(never imported), exactly where `holodeck test` cannot match the argument. The fixture
`tests/fixtures/invalid/unknown_arguments/` has the cases one by one."""

from __future__ import annotations

from pathlib import Path

import pytest

from holodeck_lsp.check.checker import CheckOptions, check_paths
from holodeck_lsp.editing.fixes import fixes_for
from holodeck_lsp.graders.signatures import Signature, function_signature
from holodeck_lsp.validation.validate import ValidationContext
from tests.conftest import FIXTURES
from tests.differential.runner.suites import generated_suite


def _hl308(paths: list[Path]) -> list[str]:
    result = check_paths(paths, CheckOptions(ValidationContext(user_config_dir=None)))
    return [d.message for f in result.files for d in f.diagnostics if d.code == "HL308"]


# No false alarm on the real corpus: tests/validation/test_corpus.py lists every warning
# it deserves, and HL308 is not among them.


@pytest.mark.parametrize("seed", [1, 4])
def test_hl308_is_exactly_the_arguments_holodeck_reports_missing(
    seed: int, tmp_path: Path
) -> None:
    """The runner differential's generated suites, which `holodeck test` runs: their
    functions take `metric`, `year`, `a`, `b`, `code`, `upper`, `reason`, and the suites
    assert a `missing_arg` no call ever carries (HoloDeck: "arg 'missing_arg' missing")."""
    suite = generated_suite(seed, 110)
    agent = suite.write(tmp_path)
    tools = [t["name"] for t in suite.agent["tools"]]
    expected = [
        (case["name"], e["name"])
        for case in suite.agent["test_cases"]
        for turn in case.get("turns") or [case]
        for e in turn.get("expected_tools") or []
        if isinstance(e, dict) and "missing_arg" in (e.get("args") or {})
        and any(e["name"] in t for t in tools)  # else HL307: it matches no tool at all
    ]
    messages = _hl308([agent])
    assert len(expected) > 3
    assert [m.split(" takes an argument ")[1].split(":")[0] for m in messages] == (
        ["'missing_arg'"] * len(expected)
    )
    assert [(m.split('(test case "')[1].split('"')[0], m.split("'")[1]) for m in messages] == (
        expected
    )


def test_the_suggested_name_is_a_fix_offered_not_applied() -> None:
    agent = FIXTURES / "invalid" / "unknown_arguments" / "agent.yaml"
    result = check_paths([agent], CheckOptions(ValidationContext(user_config_dir=None)))
    first = next(d for f in result.files for d in f.diagnostics if d.code == "HL308")
    (fix,) = fixes_for(agent.read_text(), first)
    assert (fix.title, fix.preferred) == ("Rename 'yeer' to 'year'", False)


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        ("def f(a, b=1, *args, c, **kw): ...", Signature(("a", "b", "c"), True, True)),
        ("async def f(self, q): ...", Signature(("q",), False, True)),
        ("if X:\n    def f(a): ...\nelse:\n    def f(b): ...", Signature(("b",), False, False)),
        ("import x\n@x.wrap\ndef f(a): ...", Signature(("a",), False, False)),
        ("def f(a): ...\nf = g", Signature(("a",), False, False)),
        ("class f: ...", None),
        ("f = lambda a: a", None),
        ("def f(:", None),
        ("x = 1", None),
    ],
)
def test_signatures_read_statically(source: str, expected: Signature | None) -> None:
    assert function_signature(source, "f") == expected

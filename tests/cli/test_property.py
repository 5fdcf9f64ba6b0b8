"""Whatever text arrives, `check` answers with diagnostics and exit 0, 1 or 2, never a crash."""

from __future__ import annotations

import string
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from holodeck_lsp.validation.validate import ValidationContext, validate_text
from tests.conftest import FIXTURES

SEEDS = [p.read_text(encoding="utf-8", errors="replace") for p in sorted(FIXTURES.rglob("*.yaml"))]
YAMLISH = string.ascii_letters + string.digits + " \t\n:-[]{}#&*!|>'\"%@`,?\\.$"


@st.composite
def mutated_fixture(draw: st.DrawFn) -> str:
    text = draw(st.sampled_from(SEEDS))
    for _ in range(draw(st.integers(1, 6))):
        pos = draw(st.integers(0, len(text)))
        action = draw(st.sampled_from(["insert", "delete", "duplicate_line"]))
        if action == "insert":
            text = text[:pos] + draw(st.text(YAMLISH, max_size=12)) + text[pos:]
        elif action == "delete":
            text = text[:pos] + text[pos + draw(st.integers(0, 20)) :]
        else:
            lines = text.splitlines(keepends=True) or [""]
            i = draw(st.integers(0, len(lines) - 1))
            text = "".join(lines[: i + 1] + lines[i:])
    return text


CTX = ValidationContext(user_config_dir=None)


@settings(suppress_health_check=[HealthCheck.too_slow])
@given(mutated_fixture())
def test_mutated_fixtures_never_raise(text: str) -> None:
    result = validate_text(text, FIXTURES / "valid" / "agent.yaml", CTX)
    for diagnostics in result.by_file.values():
        for d in diagnostics:
            assert d.range.start <= d.range.end
            assert d.code.startswith("HL")


@given(st.text(YAMLISH + "é😀\u200b\x00", max_size=200))
def test_random_text_never_raises(text: str) -> None:
    validate_text(text, Path("agent.yaml"), CTX)


@given(mutated_fixture())
def test_cli_exit_code_is_always_0_1_or_2(text: str) -> None:
    from holodeck_lsp.cli import app
    from tests.support.cli_runner import CliRunner

    result = CliRunner().invoke(
        app, ["check", "--no-user-config", "-", "--stdin-filename", "agent.yaml"], input=text
    )
    assert result.exit_code in (0, 1, 2), result.output
    assert "internal error" not in result.output

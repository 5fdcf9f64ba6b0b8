"""Core crashes the server's randomized test ran into, kept as regressions."""

from __future__ import annotations

from pathlib import Path

from holodeck_lsp.validation.validate import ValidationContext, validate_text


def test_a_huge_grader_name_is_a_diagnostic_not_a_crash(tmp_path: Path) -> None:
    (tmp_path / "graders.py").write_text("def grade(ctx):\n    return True\n")
    text = (
        "name: a\nmodel:\n  provider: openai\n  name: x\ninstructions:\n  inline: y\n"
        "evaluations:\n  metrics:\n    - type: code\n      grader: graders:" + "x" * 300 + "\n"
    )
    result = validate_text(text, tmp_path / "agent.yaml", ValidationContext(user_config_dir=None))
    assert [d.code for d in result.diagnostics()] == ["HL503"]


def test_a_test_case_whose_evaluations_is_not_a_list_is_a_diagnostic_not_a_crash(
    tmp_path: Path,
) -> None:
    text = (
        "name: a\nmodel:\n  provider: openai\n  name: x\ninstructions:\n  inline: y\n"
        "test_cases:\n  - input: hi\n    evaluations: true\n"
    )
    result = validate_text(text, tmp_path / "agent.yaml", ValidationContext(user_config_dir=None))
    assert [(d.code, d.path) for d in result.diagnostics()] == [
        ("HL103", "test_cases[0].evaluations")
    ]

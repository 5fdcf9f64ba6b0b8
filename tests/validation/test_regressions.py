"""Core crashes the server's randomized test ran into, kept as regressions."""

from __future__ import annotations

import os
import subprocess
import sys
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


def test_diagnostics_at_one_position_keep_the_order_they_were_found_in_every_process() -> None:
    # Sorted by position only, three missing keys at the document's start once came out in
    # set order, which changes with the hash seed: check's output differed between runs.
    probe = (
        "from pathlib import Path\n"
        "from holodeck_lsp.validation.validate import ValidationContext, validate_text\n"
        "result = validate_text('description: x\\n', Path('agent.yaml'),"
        " ValidationContext(user_config_dir=None))\n"
        "print(' '.join(d.path for d in result.diagnostics()))\n"
    )
    seen = {
        subprocess.run(
            [sys.executable, "-c", probe],
            capture_output=True,
            text=True,
            check=True,
            env={**os.environ, "PYTHONHASHSEED": str(seed)},
        ).stdout
        for seed in range(1, 5)
    }
    assert seen == {"name model instructions\n"}

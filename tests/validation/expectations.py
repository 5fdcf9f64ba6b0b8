"""Fixture expectations: one line per diagnostic, compared whole.

Format: `FILE:LINE:COL-END_LINE:END_COL SEVERITY CODE` (1-based, FILE relative to the
fixture's folder). Regenerate with `HOLODECK_UPDATE_FIXTURES=1 pytest tests/validation`, then
read the diff: the expectations are the specification.
"""

from __future__ import annotations

from pathlib import Path

from holodeck_lsp.check.checker import CheckOptions, CheckResult, check_paths
from holodeck_lsp.validation.validate import ValidationContext


def validate_fixture(path: Path) -> CheckResult:
    """The fixture as `check --no-user-config FILE` sees it."""
    return check_paths([path], CheckOptions(ValidationContext(user_config_dir=None)))


def render(result: CheckResult, base: Path) -> list[str]:
    lines = []
    for file_result in sorted(result.files, key=lambda f: f.file):
        rel = Path(file_result.file).relative_to(base).as_posix()
        for d in file_result.diagnostics:
            s, e = d.range.start, d.range.end
            lines.append(
                f"{rel}:{s.line + 1}:{s.character + 1}-{e.line + 1}:{e.character + 1} "
                f"{d.severity.label} {d.code}"
            )
    return lines


def invalid_cases(root: Path) -> list[tuple[str, Path, Path]]:
    """(id, file to validate, expectation file) for every invalid fixture."""
    cases = []
    for item in sorted(root.iterdir()):
        if item.is_file() and item.suffix == ".yaml":
            cases.append((item.stem, item, item.with_suffix(".expected")))
        elif item.is_dir() and (item / "agent.yaml").exists():
            cases.append((item.name, item / "agent.yaml", item / "expected.txt"))
    return cases

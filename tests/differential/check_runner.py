"""Run ``holodeck-lsp check --format json`` on single files and reduce each report to a verdict."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

DRIVER = Path(__file__).with_name("check_driver.py")


@dataclass(frozen=True)
class Finding:
    """One diagnostic as the JSON report gives it."""

    file: str
    line: int
    column: int
    severity: str
    code: str
    message: str

    def render(self) -> str:
        return f"{self.file}:{self.line}:{self.column} {self.severity} [{self.code}] {self.message}"


@dataclass(frozen=True)
class CheckResult:
    """What ``check FILE`` said about a file and everything it pulled in."""

    file: Path
    exit_code: int
    findings: tuple[Finding, ...]
    problem: str | None  # the run itself went wrong: no JSON, usage error, crash

    @property
    def has_error(self) -> bool:
        return any(f.severity == "error" for f in self.findings)


def _findings(report: Any) -> tuple[Finding, ...]:
    found: list[Finding] = []
    for entry in report["files"]:
        for diag in entry["diagnostics"]:
            found.append(
                Finding(
                    file=str(entry["file"]),
                    line=int(diag["line"]),
                    column=int(diag["column"]),
                    severity=str(diag["severity"]),
                    code=str(diag["code"]),
                    message=str(diag["message"]),
                )
            )
    return tuple(found)


def _result(file: Path, exit_code: int, stdout: str, stderr: str) -> CheckResult:
    try:
        findings = _findings(json.loads(stdout))
    except (ValueError, KeyError, TypeError) as exc:
        problem = f"exit {exit_code}, unreadable JSON ({exc}); stderr: {stderr[-2000:]}"
        return CheckResult(file, exit_code, (), problem)
    result = CheckResult(file, exit_code, findings, None)
    expected_exit = 1 if result.has_error else 0
    if exit_code != expected_exit:
        problem = (
            f"exit {exit_code}, but the report implies {expected_exit}; stderr: {stderr[-2000:]}"
        )
        return CheckResult(file, exit_code, findings, problem)
    return result


def check_all(files: Iterable[Path], cwd: Path) -> dict[Path, CheckResult]:
    """``holodeck-lsp check`` each file on its own, so the files it pulls in count toward it."""
    paths = [Path(f).resolve() for f in files]
    if not paths:
        return {}
    done = subprocess.run(
        [sys.executable, str(DRIVER), "--cwd", str(cwd), *map(str, paths)],
        capture_output=True,
        text=True,
        check=False,
        timeout=120 + 30 * len(paths),
    )
    if done.returncode != 0:
        raise RuntimeError(f"check driver exited {done.returncode}:\n{done.stderr[-4000:]}")
    results: dict[Path, CheckResult] = {}
    for line in done.stdout.splitlines():
        raw = json.loads(line)
        file = Path(raw["file"])
        results[file] = _result(file, int(raw["exit_code"]), raw["stdout"], raw["stderr"])
    missing = [p for p in paths if p not in results]
    if missing:  # the driver ended early: say so rather than let a lookup fail later
        raise RuntimeError(
            f"check driver gave no result for {len(missing)} of {len(paths)} files "
            f"(first: {missing[0]}); stderr:\n{done.stderr[-4000:]}"
        )
    return results

"""Run ``holodeck-lsp check --format json`` on single files and reduce the output to a verdict."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from collections.abc import Iterable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any


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


def check_command() -> list[str]:
    """The installed ``holodeck-lsp`` next to this interpreter (else on PATH)."""
    script = "holodeck-lsp.exe" if os.name == "nt" else "holodeck-lsp"
    beside = Path(sys.executable).with_name(script)
    if beside.exists():
        return [str(beside)]
    found = shutil.which(script)
    if found:
        return [found]
    raise FileNotFoundError("holodeck-lsp is not installed in the test environment")


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


def check_one(command: list[str], file: Path, cwd: Path) -> CheckResult:
    done = subprocess.run(
        [*command, "check", "--format", "json", "--no-user-config", str(file)],
        capture_output=True,
        text=True,
        cwd=cwd,
        check=False,
        timeout=120,
    )
    try:
        findings = _findings(json.loads(done.stdout))
    except (ValueError, KeyError, TypeError) as exc:
        problem = f"exit {done.returncode}, unreadable JSON ({exc}); stderr: {done.stderr[-2000:]}"
        return CheckResult(file, done.returncode, (), problem)
    result = CheckResult(file, done.returncode, findings, None)
    expected_exit = 1 if result.has_error else 0
    if done.returncode != expected_exit:
        problem = (
            f"exit {done.returncode}, but the report implies {expected_exit}; "
            f"stderr: {done.stderr[-2000:]}"
        )
        return CheckResult(file, done.returncode, findings, problem)
    return result


def check_all(files: Iterable[Path], cwd: Path) -> dict[Path, CheckResult]:
    """``check`` each file on its own (so references count toward it), a few at a time."""
    command = check_command()
    paths = [Path(f).resolve() for f in files]
    with ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
        results = pool.map(lambda p: check_one(command, p, cwd), paths)
        return {result.file: result for result in results}

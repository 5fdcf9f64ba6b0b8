"""Output formats of `check`: one small class each, chosen by name in `FORMATS`.

`run` prints its configuration errors through `TextFormat` too.
"""

from __future__ import annotations

import json
import os
from typing import Any, ClassVar, Protocol, TextIO

from holodeck_lsp import __version__
from holodeck_lsp.check.results import CheckResult, FileResult
from holodeck_lsp.hygiene.controls import visible
from holodeck_lsp.validation.codes import RULES
from holodeck_lsp.validation.diagnostics import Diagnostic, Range, Severity


class OutputFormat(Protocol):
    def report(self, result: CheckResult, out: TextIO) -> None: ...


def _ordered(result: CheckResult) -> list[tuple[FileResult, Diagnostic]]:
    return [(f, d) for f in result.files for d in f.diagnostics]


def _end_column(where: Range) -> int:
    """1-based, exclusive; an empty range still covers one character."""
    s, e = where.start, where.end
    return e.character + 1 if (e.line, e.character) > (s.line, s.character) else s.character + 2


class TextFormat:
    """`file:line:col: severity CODE message`, a source excerpt and a caret line.

    Control characters of a name, a message or a line (a test case called
    `\x1b]0;pwned\x07`) are printed as escapes, never obeyed by the terminal."""

    _COLOURS: ClassVar[dict[Severity, str]] = {
        Severity.ERROR: "31",
        Severity.WARNING: "33",
        Severity.INFORMATION: "36",
        Severity.HINT: "36",
    }

    def __init__(self, colour: bool | None = None, tally: bool = True) -> None:
        self.colour = colour
        self.tally = tally  # the last line, `N file(s) checked: ...`

    def _paint(self, text: str, code: str, on: bool) -> str:
        return f"\x1b[{code}m{text}\x1b[0m" if on else text

    def report(self, result: CheckResult, out: TextIO) -> None:
        on = (
            self.colour
            if self.colour is not None
            else (out.isatty() and "NO_COLOR" not in os.environ)
        )
        lines_of: dict[int, list[str]] = {}  # split once per file: linear in diagnostics
        for file, d in _ordered(result):
            s = d.range.start
            label = self._paint(d.severity.label, self._COLOURS[d.severity], on)
            where = f"{visible(file.file)}:{s.line + 1}:{s.character + 1}"
            out.write(f"{where}: {label} {d.code} {visible(d.message)}\n")
            lines = lines_of.get(id(file))
            if lines is None:
                lines = lines_of[id(file)] = (file.text or "").splitlines()
            if 0 <= s.line < len(lines):
                line = lines[s.line].rstrip("\r")
                end = d.range.end.character if d.range.end.line == s.line else len(line)
                # The caret under the escaped text: columns counted in what is printed.
                column = len(visible(line[: s.character]))
                width = max(1, len(visible(line[s.character : end])))
                caret = self._paint("^" * width, "1", on)
                out.write(f"  {visible(line)}\n  {' ' * column}{caret}\n")
            for info in d.related:
                at = info.range.start
                note = f"{visible(info.file)}:{at.line + 1}:{at.character + 1}"
                out.write(f"  note: {note}: {visible(info.message)}\n")
        for path, reason in result.unreadable:
            out.write(f"{visible(path)}: cannot read: {visible(reason)}\n")
        if not self.tally:
            return
        errors = result.error_count
        warnings = sum(d.severity == Severity.WARNING for _, d in _ordered(result))
        out.write(
            f"{len(result.files)} file(s) checked: {errors} error(s), {warnings} warning(s)\n"
        )


class JsonFormat:
    """One JSON document; the contract is written down in the README (`--format json`)."""

    def report(self, result: CheckResult, out: TextIO) -> None:
        files = [
            {
                "file": f.file,
                "diagnostics": [
                    {
                        "line": d.range.start.line + 1,
                        "column": d.range.start.character + 1,
                        "end_line": d.range.end.line + 1,
                        "end_column": _end_column(d.range),
                        "severity": d.severity.label,
                        "code": d.code,
                        "message": d.message,
                        "path": d.path,
                        "related": [
                            {
                                "file": r.file,
                                "line": r.range.start.line + 1,
                                "column": r.range.start.character + 1,
                                "message": r.message,
                            }
                            for r in d.related
                        ],
                    }
                    for d in f.diagnostics
                ],
            }
            for f in result.files
        ]
        unreadable = [{"file": p, "reason": r} for p, r in result.unreadable]
        json.dump({"files": files, "unreadable": unreadable}, out, indent=2)
        out.write("\n")


class GithubFormat:
    """GitHub Actions workflow commands: annotations on the pull request's lines."""

    _LEVEL: ClassVar[dict[Severity, str]] = {
        Severity.ERROR: "error",
        Severity.WARNING: "warning",
        Severity.INFORMATION: "notice",
        Severity.HINT: "notice",
    }

    @staticmethod
    def _data(text: str) -> str:
        # Newlines are the format's own (%0A); other control characters are shown.
        return visible(text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A"))

    @classmethod
    def _prop(cls, text: str) -> str:
        return cls._data(text).replace(":", "%3A").replace(",", "%2C")

    def report(self, result: CheckResult, out: TextIO) -> None:
        for file, d in _ordered(result):
            s, e = d.range.start, d.range.end
            props = (
                f"file={self._prop(file.file)},line={s.line + 1},col={s.character + 1},"
                f"endLine={e.line + 1},endColumn={_end_column(d.range)},"
                f"title={self._prop(d.code + ' ' + RULES[d.code].name)}"
            )
            out.write(f"::{self._LEVEL[d.severity]} {props}::{self._data(d.message)}\n")
        for path, reason in result.unreadable:
            out.write(f"::error file={self._prop(path)}::{self._data('cannot read: ' + reason)}\n")


class SarifFormat:
    """SARIF 2.1.0, for code-scanning uploads; rule ids are the stable codes."""

    _LEVEL: ClassVar[dict[Severity, str]] = {
        Severity.ERROR: "error",
        Severity.WARNING: "warning",
        Severity.INFORMATION: "note",
        Severity.HINT: "note",
    }

    def report(self, result: CheckResult, out: TextIO) -> None:
        codes = list(RULES)
        rules = [
            {
                "id": r.code,
                "name": r.name,
                "shortDescription": {"text": r.summary},
                "defaultConfiguration": {"level": self._LEVEL[r.severity]},
                "helpUri": "https://pypi.org/project/holodeck-lsp/",
            }
            for r in RULES.values()
        ]
        results = []
        for file, d in _ordered(result):
            results.append(
                {
                    "ruleId": d.code,
                    "ruleIndex": codes.index(d.code),
                    "level": self._LEVEL[d.severity],
                    "message": {"text": d.message},
                    "locations": [_sarif_location(file.file, d.range)],
                    **(
                        {
                            "relatedLocations": [
                                {**_sarif_location(r.file, r.range), "message": {"text": r.message}}
                                for r in d.related
                            ]
                        }
                        if d.related
                        else {}
                    ),
                }
            )
        document = {
            "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
            "version": "2.1.0",
            "runs": [
                {
                    "tool": {
                        "driver": {
                            "name": "holodeck-lsp",
                            "version": __version__,
                            "informationUri": "https://pypi.org/project/holodeck-lsp/",
                            "rules": rules,
                        }
                    },
                    "results": results,
                }
            ],
        }
        json.dump(document, out, indent=2)
        out.write("\n")


def _sarif_location(file: str, where: Range) -> dict[str, Any]:
    s, e = where.start, where.end
    return {
        "physicalLocation": {
            "artifactLocation": {"uri": _uri(file)},
            "region": {
                "startLine": s.line + 1,
                "startColumn": s.character + 1,
                "endLine": e.line + 1,
                "endColumn": _end_column(where),
            },
        }
    }


def _uri(path: str) -> str:
    """Repository-relative with forward slashes when possible, as code scanning wants."""
    try:
        rel = os.path.relpath(path)
    except ValueError:
        rel = path
    return (path if rel.startswith("..") else rel).replace(os.sep, "/")


FORMATS: dict[str, type[OutputFormat]] = {
    "text": TextFormat,
    "json": JsonFormat,
    "sarif": SarifFormat,
    "github": GithubFormat,
}
DEFAULT_FORMAT = "text"

"""The committed schemas, applied with `jsonschema`, agree with `holodeck-lsp check`.

Valid fixtures and every real HoloDeck file get no schema error at all; each invalid
fixture gets a schema error on exactly the lines where `check` reports an error the
schema can express (the other rules are listed in docs/diagnostic-codes.md).
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from holodeck_lsp.check.checker import CheckOptions, check_paths
from holodeck_lsp.validation.codes import RULES
from holodeck_lsp.validation.diagnostics import Severity
from holodeck_lsp.validation.validate import ValidationContext
from tests.conftest import CORPUS, FIXTURES, REPO
from tests.schema.schema_errors import schema_errors

# Error codes the schema reports too; every other error code is `check`'s alone.
SCHEMA_CODES = frozenset(
    {
        "HL004", "HL101", "HL102", "HL103", "HL104", "HL105", "HL107", "HL109", "HL110",
        "HL201", "HL202", "HL203", "HL204", "HL301", "HL302", "HL303", "HL305",
        "HL402", "HL403", "HL404", "HL602", "HL701",
    }
)  # fmt: skip
CONFIG_NAMES = ("config.yaml", "config.yml")


def _yaml_files(root: Path) -> list[Path]:
    return sorted(p for p in root.rglob("*.yaml") if p.name not in CONFIG_NAMES)


def _ids(paths: list[Path], base: Path) -> list[str]:
    return [p.relative_to(base).as_posix() for p in paths]


VALID = _yaml_files(FIXTURES / "valid")
INVALID = _yaml_files(FIXTURES / "invalid")


@pytest.mark.parametrize("path", VALID, ids=_ids(VALID, FIXTURES / "valid"))
def test_valid_fixture_has_no_schema_error(path: Path) -> None:
    assert schema_errors(path) == {}


def _corpus_entries() -> list[tuple[str, str]]:
    index = CORPUS / "index.json"
    kinds = {"agent": "agent", "payload": "test-cases"}
    return [(e["file"], kinds[e["kind"]]) for e in json.loads(index.read_text("utf-8"))]


CORPUS_ENTRIES = _corpus_entries()


def test_every_real_holodeck_file_has_no_schema_error() -> None:
    # `${VAR}` references stay as written: the schema accepts them wherever check does.
    errors = {
        file: found
        for file, kind in CORPUS_ENTRIES
        if (found := schema_errors(CORPUS / file, kind))
    }
    assert errors == {}
    assert len(CORPUS_ENTRIES) >= 80


def _check_error_lines(path: Path, kind: str) -> dict[int, list[str]]:
    """Lines of this file where `check FILE` reports an error the schema can express."""
    result = check_paths([path], CheckOptions(ValidationContext(user_config_dir=None)))
    lines: dict[int, list[str]] = {}
    for file in result.files:
        if Path(file.file) != path:
            continue
        for d in file.diagnostics:
            # A test_cases_file's shape is another file's problem when seen from an agent, and
            # so is a value the project config put in (the diagnostic points there too).
            from_config = any(Path(r.file).name in CONFIG_NAMES for r in d.related)
            about_this_file = not (d.code == "HL602" and kind == "agent") and not from_config
            if d.severity == Severity.ERROR and d.code in SCHEMA_CODES and about_this_file:
                lines.setdefault(d.range.start.line + 1, []).append(d.code)
    return lines


@pytest.mark.parametrize("path", INVALID, ids=_ids(INVALID, FIXTURES / "invalid"))
def test_invalid_fixture_fails_the_schema_where_check_fails(path: Path) -> None:
    found = schema_errors(path)
    if found is None:  # not YAML at all: nothing for a schema to see
        expected = _check_error_lines(path, "agent")
        assert expected == {}
        return
    from holodeck_lsp.validation.file_kinds import kind_of_data
    from holodeck_lsp.validation.yaml.loader import load_yaml

    kind = kind_of_data(path, load_yaml(path.read_text("utf-8")).data)
    assert sorted(found) == sorted(_check_error_lines(path, kind)), found


def test_structural_fixtures_are_covered() -> None:
    """The invalid fixtures exercise every kind of structural error listed in the issue."""
    failing = {p.stem for p in INVALID if schema_errors(p)}
    assert {
        "wrong_type_unquoted",
        "unknown_key",
        "turns_empty_and_missing_input",
        "unknown_values",
        "matchers",
    } <= failing


def test_codes_doc_lists_exactly_the_check_only_error_codes() -> None:
    text = (REPO / "docs" / "diagnostic-codes.md").read_text(encoding="utf-8")
    section = text.split("## Checked by `holodeck-lsp check` only", 1)[1]
    listed: set[str] = set()
    for first, last in re.findall(r"HL(\d{3})(?:-HL(\d{3}))?", section):
        listed |= {f"HL{n:03d}" for n in range(int(first), int(last or first) + 1)}
    errors = {code for code, rule in RULES.items() if rule.severity == Severity.ERROR}
    # HL602 is both: a test-case file's own shape, and a referenced file's from the agent.
    assert listed & errors == (errors - SCHEMA_CODES) | {"HL602"}

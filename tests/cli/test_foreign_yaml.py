"""YAML that is not HoloDeck's gets nothing from `check` folder scans, and the real
HoloDeck corpus is still all found: narrow, and no narrower than HoloDeck's files."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from holodeck_lsp.check.checker import CheckOptions, check_paths
from holodeck_lsp.cli import app
from holodeck_lsp.validation.file_kinds import looks_like_suite
from holodeck_lsp.validation.validate import ValidationContext
from holodeck_lsp.validation.yaml.loader import load_yaml
from tests.conftest import CORPUS, FOREIGN_YAML
from tests.support.cli_runner import CliRunner

FOREIGN = sorted(p for p in FOREIGN_YAML.rglob("*") if p.suffix in (".yaml", ".yml"))


def test_the_foreign_corpus_holds_at_least_twenty_shapes() -> None:
    assert len({p.parent for p in FOREIGN}) >= 20
    assert len(FOREIGN) >= 30


def test_a_folder_scan_of_foreign_yaml_checks_nothing_and_reports_nothing(tmp_path: Path) -> None:
    # Beside a real agent: what the scan finds is the agent alone.
    root = tmp_path / "repo"
    shutil.copytree(FOREIGN_YAML, root)
    agent = root / "agent.yaml"
    agent.write_text(
        "name: a\nmodel:\n  provider: openai\n  name: gpt-4o\ninstructions:\n  inline: y\n"
    )
    result = CliRunner().invoke(app, ["check", "--no-user-config", "--format", "json", str(root)])
    assert result.exit_code == 0, result.output
    report = json.loads(result.output)
    assert [Path(f["file"]).name for f in report["files"]] == ["agent.yaml"]
    assert report["files"][0]["diagnostics"] == []


def test_no_foreign_file_reads_as_a_suite_by_its_content() -> None:
    recognised = []
    for path in FOREIGN:
        loaded = load_yaml(path.read_text(encoding="utf-8"))
        if loaded.parsed and looks_like_suite(loaded.data, path):
            recognised.append(path.relative_to(FOREIGN_YAML).as_posix())
    assert recognised == []


def test_every_real_holodeck_file_is_still_found_by_a_folder_scan() -> None:
    result = check_paths([CORPUS], CheckOptions(ValidationContext(user_config_dir=None)))
    found = {Path(f.file).resolve() for f in result.files}
    index = json.loads((CORPUS / "index.json").read_text(encoding="utf-8"))
    assert [e["file"] for e in index if (CORPUS / e["file"]).resolve() not in found] == []

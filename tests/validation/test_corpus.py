"""Real HoloDeck files, all accepted by HoloDeck itself: not one error from us, and only the
warnings they deserve (a false positive is the worst bug a warning can have)."""

from __future__ import annotations

import os
from pathlib import Path

from holodeck_lsp.check.checker import CheckOptions, check_paths
from holodeck_lsp.validation.diagnostics import Severity
from holodeck_lsp.validation.validate import ValidationContext
from tests.conftest import CORPUS


def test_check_reports_no_error_on_the_real_corpus() -> None:
    result = check_paths([CORPUS], CheckOptions(ValidationContext(user_config_dir=None)))
    errors = [
        f"{f.file}:{d.range.start.line + 1}: {d.code} {d.message}"
        for f in result.files
        for d in f.diagnostics
        if d.severity == Severity.ERROR
    ]
    assert errors == []
    assert len(result.files) >= 80


# Each warning of the corpus, read by hand, each deserved: HL307 (the `nomcp` templates
# still expect `search_kb` and the like, tools they no longer declare), HL510 (judge models
# without `endpoint` or `api_key`, which `holodeck test` refuses), HL512 (agents HoloDeck's
# backend refuses at start: the request-parity records show each one refused), HL513
# (`rouge`, which `holodeck test` scores 0.0), HL514 (a groundedness threshold of 0.85,
# which every 1-5 rating passes under `holodeck test`), HL603; never HL308 (an
# argument a function tool cannot take)
# (`files:` the corpus does not ship). Regenerate with HOLODECK_UPDATE_FIXTURES=1, then
# read the diff.
EXPECTED_WARNINGS = Path(__file__).with_name("corpus_warnings.txt")


def test_the_corpus_gives_only_the_warnings_it_deserves() -> None:
    result = check_paths([CORPUS], CheckOptions(ValidationContext(user_config_dir=None)))
    warnings = sorted(
        f"{Path(f.file).relative_to(CORPUS).as_posix()}:{d.range.start.line + 1} {d.code}"
        for f in result.files
        for d in f.diagnostics
        if d.severity == Severity.WARNING
    )
    if os.environ.get("HOLODECK_UPDATE_FIXTURES"):
        EXPECTED_WARNINGS.write_text("\n".join(warnings) + "\n", encoding="utf-8")
    assert warnings == EXPECTED_WARNINGS.read_text(encoding="utf-8").splitlines()


def test_every_corpus_yaml_validates_without_error_when_named_explicitly() -> None:
    files = sorted(CORPUS.rglob("*.yaml"))
    result = check_paths(files, CheckOptions(ValidationContext(user_config_dir=None)))
    errors = [
        f"{f.file}: {d.code} {d.message}"
        for f in result.files
        for d in f.diagnostics
        if d.severity == Severity.ERROR
    ]
    assert errors == []


def test_hl510_on_holodeck_init_templates_only_where_holodeck_test_refuses_them() -> None:
    """`holodeck init`'s templates (rendered by HoloDeck 0.7.1 in the corpus): those with a
    standard metric judge it with `evaluations.model`, which has an `endpoint` only for
    azure_openai; `holodeck test` exits 2 on the others (ConfigError: "Azure AI metrics
    require 'endpoint' and 'api_key'"), so HL510 warns there, and only there."""
    rendered = CORPUS / "holodeck" / "rendered-templates"
    result = check_paths([rendered], CheckOptions(ValidationContext(user_config_dir=None)))
    warned = {
        Path(f.file).parent.name: d.message
        for f in result.files
        for d in f.diagnostics
        if d.code == "HL510"
    }
    expected = {
        f"{template}-{variant}"
        for template in ("customer-support", "research")
        for variant in (
            "anthropic-chromadb",
            "ollama-chromadb",
            "ollama-in-memory-nomcp",
            "openai-chromadb",
            "openai-in-memory",
            "openai-pinecone",
            "openai-postgres",
            "openai-qdrant",
        )
    }
    assert set(warned) == expected
    assert warned["customer-support-openai-in-memory"] == (
        "`holodeck test` refuses to start (exit 2) when the model of a standard metric "
        "(groundedness, bleu) has no `endpoint`; give that model both `endpoint` and "
        "`api_key` to run the file there (evaluations.model)"
    )

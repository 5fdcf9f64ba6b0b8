"""Request parity over the real corpus: for every agent that starts offline, the first
request `run` sends carries the same semantics as the one `holodeck test` sent, recorded
in `tests/data/request-parity/holodeck/`, once the differences named in
`request_parity.NAMED` (each with its reason) are set aside. The fast suite compares one
agent per path HoloDeck takes, the slow one every agent (a few seconds), and records a few
again with HoloDeck's own runner to check the records are still what it sends."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from holodeck_lsp.check.checker import CheckOptions, check_paths
from holodeck_lsp.validation.validate import ValidationContext
from tests.differential.runner.request_parity import (
    ADAPTATIONS,
    CORPUS,
    DATA,
    NAMED,
    SKIPS,
    Outcome,
    compare_corpus,
    corpus_agents,
    read_record,
    record_holodeck,
    record_path,
)

# Agents compared (not skipped): a drop means agents stopped starting.
COMPARED = 58


# One agent per path HoloDeck takes: Responses with structured output and a search tool,
# Azure with reasoning effort and documents, Claude Code for Anthropic (function tools and
# documents), and for Ollama with structured output.
PATHS = (
    "holodeck-samples/ticket-routing/openai/agent.yaml",
    "holodeck-samples/financial-assistant/openai/agent.yaml",
    "holodeck-samples/financial-assistant/claude/agent.yaml",
    "holodeck-samples/content-moderation/ollama/agent.yaml",
)


def entries(names: tuple[str, ...]) -> list[dict[str, object]]:
    found = [e for e in corpus_agents() if e["file"] in names]
    assert len(found) == len(names)
    return found


def test_one_agent_per_path_sends_the_same_request(tmp_path: Path) -> None:
    outcomes = compare_corpus(entries(PATHS), tmp_path)
    assert {o.agent: o.differences for o in outcomes if o.differences or o.skipped} == {}
    assert {o.agent: o.provider for o in outcomes} == {
        PATHS[0]: "openai", PATHS[1]: "azure_openai", PATHS[2]: "anthropic", PATHS[3]: "ollama"
    }  # fmt: skip


@pytest.fixture(scope="module")
def outcomes(tmp_path_factory: pytest.TempPathFactory) -> list[Outcome]:
    return compare_corpus(corpus_agents(), tmp_path_factory.mktemp("parity"))


def summary(outcomes: list[Outcome]) -> str:
    compared = [o for o in outcomes if o.skipped is None]
    named = Counter(n for o in compared for n in o.named)
    lines = [f"{len(compared)} of {len(outcomes)} corpus agents compared"]
    lines += [f"  named {n}: {count} agent(s)" for n, count in sorted(named.items())]
    lines += [f"  skipped {o.agent}: {o.skipped}" for o in outcomes if o.skipped is not None]
    return "\n".join(lines)


def test_every_corpus_agent_has_a_record_and_every_record_an_agent() -> None:
    agents = corpus_agents()
    assert [e["file"] for e in agents if not record_path(e).is_file()] == []
    recorded = {p.relative_to(DATA).as_posix() for p in DATA.rglob("*.json")}
    assert recorded == {f"{e['file']}.json" for e in agents}


@pytest.mark.slow
def test_every_agent_that_starts_sends_the_same_request(outcomes: list[Outcome]) -> None:
    print(summary(outcomes))
    different = {o.agent: o.differences for o in outcomes if o.differences}
    assert different == {}
    assert sum(o.skipped is None for o in outcomes) == COMPARED, summary(outcomes)


@pytest.mark.slow
def test_every_skip_has_a_named_reason(outcomes: list[Outcome]) -> None:
    unnamed = [
        f"{o.agent}: {o.skipped}"
        for o in outcomes
        if o.skipped is not None and not any(s in o.skipped for s in SKIPS.values())
    ]
    assert unnamed == []
    skipped = Counter(
        next(name for name, s in SKIPS.items() if s in o.skipped)
        for o in outcomes
        if o.skipped is not None
    )
    assert set(skipped) == set(SKIPS)


# Named for agents the corpus lacks among those that start: none left.
UNUSED: set[str] = set()


@pytest.mark.slow
def test_every_named_difference_and_adaptation_is_needed(outcomes: list[Outcome]) -> None:
    compared = [o for o in outcomes if o.skipped is None]
    assert set(NAMED) - UNUSED == {n for o in compared for n in o.named}
    assert set(ADAPTATIONS) == {a for o in compared for a in o.adaptations}


@pytest.mark.slow
def test_check_warns_on_every_agent_holodecks_backend_refused() -> None:
    """HL512 is where `holodeck test` was seen refusing the agent at start, and only there."""
    refused = {
        e["file"]
        for e in corpus_agents()
        if "BackendInitError" in str(read_record(e).get("skipped", ""))
    }
    result = check_paths([CORPUS], CheckOptions(ValidationContext(user_config_dir=None)))
    warned = {
        Path(f.file).relative_to(CORPUS).as_posix()
        for f in result.files
        for d in f.diagnostics
        if d.code == "HL512"
    }
    assert warned == refused
    assert len(refused) == 6


@pytest.mark.slow
def test_the_records_are_what_holodeck_sends(holodeck_cli: Path, tmp_path: Path) -> None:
    """Recorded again with HoloDeck's own `holodeck test`: the records have not rotted."""
    chosen = entries(PATHS)
    assert record_holodeck(holodeck_cli, chosen, tmp_path) == [read_record(e) for e in chosen]

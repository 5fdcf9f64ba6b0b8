"""`run` with a hierarchical_document tool: markdown sections searched by keyword,
semantically, or both fused, with HoloDeck's result text."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.runner.fake_model import Action, FakeModelServer, Reply, last_user_text, tool_results
from tests.runner.helpers import run_suite, write

HANDBOOK = """\
Welcome to the handbook.

# Leave

## Annual leave
Staff get 25 days of annual leave a year.

## Sick leave
Tell your manager on the first morning of sick leave.

# Equipment
Laptops are replaced every four years.
"""


def script(path: str, body: dict[str, Any]) -> Action:
    if not tool_results(body):
        return Reply(tool_calls=[("handbook_search", {"query": last_user_text(body)})])
    return Reply(tool_results(body)[0])


def suite(url: str, settings: str) -> dict[str, str]:
    agent = f"""
name: handbook
model: {{provider: openai, name: m, endpoint: "{url}"}}
instructions: {{inline: Answer from the handbook.}}
tools:
  - name: handbook
    type: hierarchical_document
    description: The staff handbook
    source: handbook.md
    contextual_embeddings: false
{settings}
test_cases:
  - input: How many days of annual leave?
"""
    return {"agent.yaml": agent, "handbook.md": HANDBOOK}


ANNUAL = (
    "Location: Leave\nSection: leave.annual_leave\n\n"
    "## Annual leave\nStaff get 25 days of annual leave a year."
)


@pytest.mark.parametrize(
    ("settings", "expected"),
    [
        # Keyword scores are divided by the best one: the best scores 1.
        (
            "    search_mode: keyword\n    top_k: 1\n",
            f"Score: 1.000 | Source: handbook.md\n{ANNUAL}",
        ),
        # Fused ranks: first in both rankings is the best possible score.
        ("    top_k: 1\n", f"Score: 1.000 | Source: handbook.md\n{ANNUAL}"),
        ("    search_mode: keyword\n    min_score: 0.9\n    top_k: 3\n", None),
    ],
    ids=["keyword", "hybrid", "keyword-floor"],
)
def test_sections_are_found_with_their_place_in_the_document(
    settings: str, expected: str | None, tmp_path: Path
) -> None:
    with FakeModelServer(script) as server:
        code, report, err = run_suite(write(tmp_path, suite(server.url, settings)))
    assert (code, err) == (0, "")
    [call] = report["results"][0]["tool_invocations"]
    if expected is not None:
        assert call["result"] == expected
    else:
        assert call["result"].startswith(f"Score: 1.000 | Source: handbook.md\n{ANNUAL}")
        assert "\n---\n" not in call["result"]  # the other sections score below 0.9


def test_semantic_search_ranks_by_embedding_similarity(tmp_path: Path) -> None:
    with FakeModelServer(script) as server:
        settings = "    search_mode: semantic\n    top_k: 2\n"
        code, report, _ = run_suite(write(tmp_path, suite(server.url, settings)))
    [call] = report["results"][0]["tool_invocations"]
    blocks = call["result"].split("\n---\n")
    assert len(blocks) == 2
    assert blocks[0].endswith("Staff get 25 days of annual leave a year.")
    assert code == 0


def test_an_opensearch_keyword_index_is_refused(tmp_path: Path) -> None:
    with FakeModelServer(script) as server:
        settings = (
            "    keyword_index: {provider: opensearch, endpoint: 'http://127.0.0.1:9', "
            "index_name: docs}\n"
        )
        code, _, err = run_suite(write(tmp_path, suite(server.url, settings)))
    assert code == 2
    assert "tool 'handbook' did not start: keyword_index provider 'opensearch'" in err

"""Every field of the agent file is accounted for: what `holodeck test` does with it and
what `run` does (docs/runner.md, "Every field of the agent file"); a field `run` does not
apply is warned about when a run starts."""

from __future__ import annotations

import os
import re
from pathlib import Path

from pydantic import BaseModel

from holodeck_lsp.models.agent import Agent
from holodeck_lsp.runner.collect.field_table import PLACES, ROWS, Status, render
from holodeck_lsp.validation.model_tree import models_within
from tests.runner.fake_model import FakeModelServer, Reply
from tests.runner.helpers import run_suite, write

DOCS = Path(__file__).resolve().parents[2] / "docs" / "runner.md"


def _models_of_the_agent_file() -> dict[str, type[BaseModel]]:
    found: dict[str, type[BaseModel]] = {}
    todo: list[type[BaseModel]] = [Agent]
    while todo:
        model = todo.pop()
        if model.__name__ in found:
            continue
        found[model.__name__] = model
        for field in model.model_fields.values():
            todo.extend(models_within(field.annotation))
    return found


def test_every_field_of_every_model_has_exactly_one_row() -> None:
    models = _models_of_the_agent_file()
    fields = {(name, f) for name, model in models.items() for f in model.model_fields}
    covered = [(row.model, f) for row in ROWS for f in row.fields]
    missing = sorted(fields - set(covered))
    unknown = sorted(set(covered) - fields)
    twice = sorted({key for key in covered if covered.count(key) > 1})
    assert (missing, unknown, twice) == ([], [], [])
    assert sorted(PLACES) == sorted(models)


def test_a_section_row_is_a_field_holding_models_and_only_not_applied_rows_warn() -> None:
    models = _models_of_the_agent_file()
    for row in ROWS:
        for name in row.fields:
            holds_models = bool(models_within(models[row.model].model_fields[name].annotation))
            assert row.status is not Status.NESTED or holds_models, (row.model, name)
        if row.status is not Status.NOT_APPLIED:
            assert (row.providers, row.acts) == (None, None), row


def test_the_docs_table_is_the_modules() -> None:
    text = DOCS.read_text(encoding="utf-8")
    found = re.search(r"<!-- field-table:start -->\n(.*)<!-- field-table:end -->", text, re.S)
    assert found is not None
    if os.environ.get("HOLODECK_UPDATE_FIXTURES"):
        text = text[: found.start(1)] + render() + text[found.end(1) :]
        DOCS.write_text(text, encoding="utf-8")
        return
    assert found.group(1) == render(), (
        "regenerate: HOLODECK_UPDATE_FIXTURES=1 pytest tests/runner/test_field_table.py"
    )


def _agent(tmp_path: Path, url: str, extra: str) -> Path:
    return write(
        tmp_path,
        {
            "agent.yaml": f"""
            name: traced
            model:
              provider: openai
              name: gpt-test
              endpoint: {url}
            instructions:
              inline: Answer.
            {extra}
            test_cases:
              - input: hello
                ground_truth: hi
              - input: again
            """,
        },
    )


def _warnings(stderr: str) -> list[str]:
    return [line for line in stderr.splitlines() if line.startswith("warning:")]


def test_a_run_of_an_agent_with_observability_warns_once(tmp_path: Path) -> None:
    extra = """observability:
              enabled: true
              service_name: traced-agent
              traces:
                sample_rate: 0.5
              exporters:
                otlp:
                  endpoint: http://127.0.0.1:4317
            claude:
              web_search: true
            """
    with FakeModelServer(lambda _path, _body: Reply("hi")) as server:
        code, report, err = run_suite(_agent(tmp_path, server.url, extra))
    assert code == 0 and report["summary"]["passed"] == 2
    # `claude:` is read by HoloDeck's Claude backend only: no word about it here.
    assert _warnings(err) == [
        "warning: observability is not applied: run exports no telemetry (traces, metrics, "
        "logs); the reports and verdicts are the same without it"
    ]


def test_fields_left_at_what_holodeck_does_anyway_give_no_warning(tmp_path: Path) -> None:
    extra = """observability:
              enabled: false
              traces:
                sample_rate: 0.5
            openai:
              max_turns: 5
              max_budget_usd: null
            execution:
              llm_timeout: 30
              cache_enabled: true
            """
    with FakeModelServer(lambda _path, _body: Reply("hi")) as server:
        code, _report, err = run_suite(_agent(tmp_path, server.url, extra))
    assert (code, _warnings(err)) == (0, [])


def test_each_field_not_applied_is_named_once_with_where_it_stands(tmp_path: Path) -> None:
    extra = """openai:
              fallback_model: gpt-backup
              disallowed_tools: [lookup]
              permissions:
                disallowed_tools: [lookup]
            execution:
              file_timeout: 180
            """
    # HoloDeck takes each execution field the agent leaves unset from config.yaml.
    (tmp_path / "config.yaml").write_text("execution:\n  download_timeout: 10\n")
    with FakeModelServer(lambda _path, _body: Reply("hi")) as server:
        code, _report, err = run_suite(_agent(tmp_path, server.url, extra))
    assert code == 0
    assert _warnings(err) == [
        "warning: execution.file_timeout is not applied: run bounds no file reading: it "
        "converts no file, and reads sources without a time limit",
        "warning: execution.download_timeout is not applied: run downloads no file",
        "warning: openai.permissions.disallowed_tools is not applied: run offers every tool "
        "of `tools:`",
        "warning: openai.fallback_model is not applied: run retries the same model only",
        "warning: openai.disallowed_tools is not applied: run offers every tool of `tools:`",
    ]

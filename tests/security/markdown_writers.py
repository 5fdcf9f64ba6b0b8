"""Every command that writes Markdown holding what a report says, as a user runs it:
`WRITERS` is the one list `test_markdown_payload.py` holds each of them to. A new Markdown
writer (a command, a `--format`) joins it: a function from the two reports to the Markdown
texts it writes of them, raising `Refused` when the command refuses a report.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from holodeck_lsp.runner.report.formats import write_reports
from holodeck_lsp.runner.report.report_reading import CASE_INDEXES, ReportError, read_report
from holodeck_lsp.runner.score.read_back import read_records
from holodeck_lsp.server.run_results import from_events
from tests.runner.helpers import ECHO, invoke, write


@dataclass(frozen=True)
class Reports:
    """Two reports of one suite, the same text in every string field: in ``passing`` every
    boolean is True (passed, interrupted, flaky, ...), in ``failing`` every one is False;
    ``folder`` is scratch space."""

    passing: Path
    failing: Path
    folder: Path

    @property
    def both(self) -> tuple[Path, Path]:
        return self.passing, self.failing


class Refused(Exception):
    """The command refused a report (exit 2); the message is its stderr."""


def _cli(*args: str | Path) -> str:
    """`holodeck-lsp ARGS`: its stdout; `Refused` when it exits 2."""
    code, out, err = invoke(*args)
    if code == 2:
        raise Refused(err)
    assert code in (0, 1), err
    return out


def run_report(reports: Reports) -> list[str]:
    """`run -o report.md`: the run's report writer, given the report."""
    texts = []
    for source in reports.both:
        target = reports.folder / f"{source.stem}.md"
        try:
            report = read_report(source)
        except ReportError as exc:
            raise Refused(str(exc)) from None
        assert write_reports(report, read_records(report), [target]) == []
        texts.append(target.read_text(encoding="utf-8"))
    return texts


def merge(reports: Reports) -> list[str]:
    """`merge SHARD... -o merged.md`: each report split into the two shards of a run."""
    texts = []
    for source in reports.both:
        data = json.loads(source.read_text(encoding="utf-8"))
        shards = []
        for index in (1, 2):
            data["environment"].update({"shard": f"{index}/2", CASE_INDEXES: str(index - 1)})
            shard = reports.folder / f"{source.stem}-shard-{index}.json"
            shard.write_text(json.dumps(data), encoding="utf-8")
            shards.append(shard)
        target = reports.folder / f"{source.stem}-merged.md"
        _cli("merge", *shards, "-o", target)
        texts.append(target.read_text(encoding="utf-8"))
    return texts


def compare(reports: Reports) -> list[str]:
    """`compare BASE HEAD --format markdown`, both ways: every turn changes."""
    return [
        _cli("compare", base, head, "--format", "markdown")
        for base, head in (reports.both, reports.both[::-1])
    ]


BASELINE_AGENT = """\
name: baseline-run
model: {{provider: openai, name: unused}}
instructions: {{inline: unused}}
evaluations:
  metrics:
    - {{type: standard, metric: equality}}
test_cases:
  - name: {name}
    input: hello
    ground_truth: hello
"""


def _suite_of(report: Path, folder: Path) -> Path:
    """An agent file with one case, named as the report's."""
    name = json.loads(report.read_text(encoding="utf-8"))["results"][0]["test_name"]
    files = {"agent.yaml": BASELINE_AGENT.format(name=json.dumps(name)), "echo.py": ECHO}
    return write(folder / f"suite-{report.stem}", files)


def run_baseline(reports: Reports) -> list[str]:
    """`run --baseline REPORT -o report.md`: a run of a case named as the report's, so the
    two are compared, against each report."""
    texts = []
    for baseline in reports.both:
        agent = _suite_of(baseline, reports.folder)
        target = agent.parent / "report.md"
        _cli("run", agent, "--agent", "echo:factory", "--no-user-config", "-q",
             "--baseline", baseline, "-o", target)  # fmt: skip
        texts.append(target.read_text(encoding="utf-8"))
    return texts


def show_report(reports: Reports) -> list[str]:
    """The editor's hover after `holodeck.showReport` (`run --from-report REPORT --events`,
    placed on the agent file): the last run of each case and turn."""
    texts = []
    for report in reports.both:
        agent = _suite_of(report, reports.folder)
        events = agent.parent / "events.jsonl"
        _cli("run", agent, "--from-report", report, "--events", events, "--no-user-config")
        lines = events.read_text(encoding="utf-8").splitlines()
        runs = from_events([json.loads(line) for line in lines], agent.read_text(), "utf-16")
        texts += [verdict.markdown for verdict in runs.verdicts]
    return texts


def history(reports: Reports) -> list[str]:
    """`history FOLDER --format markdown`: each report kept as a run (an EvalRun around it,
    whose metadata holds the report's text too: prompt version, model, commit, ...), in a
    folder of its own. A run `history` leaves out (one sentence on stderr) is refused."""
    texts = []
    for source in reports.both:
        report = json.loads(source.read_text(encoding="utf-8"))
        text = report["agent_name"]  # the payload, as this field holds it
        metadata = {
            "agent_config": {"name": text, "model": {"name": text}},
            "prompt_version": {"version": text, "author": text, "description": text,
                               "tags": [text], "source": "file", "file_path": text,
                               "body_hash": "0" * 64, "extra": {text: text}},
            "holodeck_version": text,
            "cli_args": [text],
            "git_commit": text,
        }  # fmt: skip
        folder = reports.folder / f"history-{source.stem}"
        folder.mkdir()
        (folder / "run.json").write_text(json.dumps({"report": report, "metadata": metadata}))
        code, out, err = invoke("history", folder, "--format", "markdown")
        if code != 0 or err:  # left out, in one sentence naming the file and the field
            raise Refused(err)
        texts.append(out)
    return texts


Writer = Callable[[Reports], list[str]]
WRITERS: dict[str, Writer] = {
    "run": run_report,
    "merge": merge,
    "compare": compare,
    "run --baseline": run_baseline,
    "hover": show_report,
    "history": history,
}

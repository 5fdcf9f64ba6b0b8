"""Capture what the product prints and writes, to prove a refactor changed none of it.

    python -m tests.support.capture_outputs capture OUT [--work DIR]
    python -m tests.support.capture_outputs compare BEFORE AFTER

`capture` writes into OUT (one file per output, normalised):
- `check/`: `check --format json --no-user-config` of every file under tests/fixtures,
  examples and tests/data/corpus, and of each of those folders whole, plus both schemas
  and the `--help` of every command;
- `run/`: `run` of every suite that runs offline, each with every report format (JSON,
  Markdown, JUnit, HTML), `--events` and `--record` where it applies, and its exit code,
  stdout and stderr: the examples (`--replay` of the committed recording), the suites of
  tests/fixtures/run, the runner differential's generated and themed suites against the
  loopback model service (tests/runner/fake_model.py), and variants that reach the other
  paths (repeat, selection, shards and `merge`, focus, replay, resume, `--from-report`,
  Anthropic, a Python agent, retrieval tools, an MCP server, faults and masked secrets).

`compare` compares two captures byte for byte and prints every file that differs.

Normalised, and nothing else: timestamps, durations (`*_ms` fields, `N ms`, `N s`, JUnit
`time=`), the HTML report's slowest turns (ranked by duration), the loopback service's
port, and the work and repository folders. Every process runs with PYTHONHASHSEED=0, so
no set order differs between two captures. Runs are sequential (`-p 1`), so the order of
events and progress lines is fixed; the runs at the default parallelism (`parallel/`)
compare their line-oriented outputs as sorted lines, with `seq` numbers dropped, since
which case finishes first is up to the scheduler.

Run it on the commit you start from, then after every step of the refactor; the two
captures must be equal. To capture another checkout with this venv, copy this file into
its tests/support/ and run it there with PYTHONPATH set to that checkout. It takes a few
minutes (the timeout suite waits on purpose).
"""

from __future__ import annotations

import argparse
import filecmp
import json
import os
import re
import shutil
import subprocess
import sys
import textwrap
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from holodeck_lsp.cli import app
from tests.differential.runner import suites as differential
from tests.differential.runner.harness import Suite
from tests.runner import faults
from tests.runner.fake_model import (
    Action,
    EchoHeaders,
    FakeModelServer,
    Reply,
    Script,
    Status,
    last_user_text,
    tool_results,
)
from tests.support.cli_runner import CliRunner

REPO = Path(__file__).resolve().parents[2]
CHECKED = ["tests/fixtures", "examples", "tests/data/corpus"]
CLI = [str(Path(sys.executable).parent / "holodeck-lsp")]
SECRET = "sk-capture-0123456789abcdef"  # the service key; masked in every artefact

_TIME = re.compile(
    r"\d{4}-\d\d-\d\d[T ]\d\d[:-]\d\d[:-]\d\d(?:\.\d+)?(?:Z|[+-]\d\d[:-]\d\d)?"
)  # ISO times, a kept run's file name (`-` for `:`) and a history's "since" time
_MS_FIELD = re.compile(r'"(\w*_ms|duration\w*|time)": -?\d+(?:\.\d+)?')
_DURATION = re.compile(r"\b\d[\d,]*(?:\.\d+)? ?(ms|s)\b")
_JUNIT_TIME = re.compile(r'time="[\d.]+"')
_PORT = re.compile(r"(127\.0\.0\.1|localhost):\d+")
_SEQ = re.compile(r'"seq": \d+')
_SLOWEST = re.compile(
    r'(<div class="tile slow-tile"><h2>[^<]*</h2>(?:<div class="dim">.*?</div>)?)'
    r"(?:<table.*?</table>)?"
)


def normalise(text: str, work: Path) -> str:
    text = text.replace(str(work), "<WORK>").replace(str(REPO), "<REPO>")
    text = _TIME.sub("<TIME>", text)
    text = _MS_FIELD.sub(lambda m: f'"{m.group(1)}": <MS>', text)
    text = _JUNIT_TIME.sub('time="<S>"', text)
    text = _DURATION.sub(lambda m: f"<N> {m.group(1)}", text)
    text = _SLOWEST.sub(r"\1<SLOWEST>", text)
    return _PORT.sub(r"\1:<PORT>", text)


def console(code: int, stdout: str, stderr: str) -> str:
    return f"exit {code}\n--- stdout\n{stdout}--- stderr\n{stderr}"


def unordered(text: str) -> str:
    """Line-oriented output of a parallel run: the lines as a sorted multiset."""
    return "\n".join(sorted(_SEQ.sub('"seq": <N>', line) for line in text.splitlines())) + "\n"


# ---------------------------------------------------------------------------------- check


def tracked(folder: str) -> list[str]:
    """The files git tracks under ``folder`` (no caches, no scratch files)."""
    listed = subprocess.run(
        ["git", "ls-files", "-z", folder], cwd=REPO, capture_output=True, check=True
    ).stdout.decode()
    return sorted(name for name in listed.split("\0") if name)


def capture_check(out: Path) -> int:
    runner = CliRunner()
    targets = list(CHECKED)
    for folder in CHECKED:
        targets += tracked(folder)
    count = 0
    previous = Path.cwd()
    os.chdir(REPO)
    try:
        for target in targets:
            result = runner.invoke(app, ["check", "--format", "json", "--no-user-config", target])
            name = target.replace("/", "__") + ".txt"
            text = console(result.exit_code, result.stdout, result.stderr)
            (out / "check" / name).write_text(normalise(text, REPO), encoding="utf-8")
            count += 1
        for command in ("check", "run", "merge", "schema", "serve"):
            result = runner.invoke(app, [command, "--help"], prog_name="holodeck-lsp")
            (out / "check" / f"help-{command}.txt").write_text(result.stdout, encoding="utf-8")
            count += 1
        for kind in ("agent", "test-cases"):
            result = runner.invoke(app, ["schema", "--kind", kind])
            (out / "check" / f"schema-{kind}.json").write_text(result.stdout, encoding="utf-8")
            count += 1
    finally:
        os.chdir(previous)
    return count


# ------------------------------------------------------------------------------------ run


@dataclass
class Run:
    """One `run` (or `merge`) of a suite folder: its arguments and what it leaves."""

    name: str
    args: list[str]
    cwd: Path
    reports: bool = True  # add -o of every format and --events
    record: bool = False
    ordered: bool = True
    env: dict[str, str] = field(default_factory=dict)


def _environment(url: str, extra: dict[str, str]) -> dict[str, str]:
    # PYTHONPATH: a capture of another checkout runs its code with this venv.
    kept = ("PATH", "LANG", "LC_ALL", "TMPDIR", "PYTHONPATH")
    env = {k: os.environ[k] for k in kept if k in os.environ}
    env.update(
        {
            "HOME": "/nonexistent-home",
            "OPENAI_BASE_URL": url,
            "OPENAI_API_KEY": SECRET,
            "ANTHROPIC_API_KEY": SECRET,
            "NO_PROXY": "127.0.0.1,localhost",
            "PYTHONHASHSEED": "0",
            "PYTHONDONTWRITEBYTECODE": "1",
        }
    )
    env.update(extra)
    return env


def execute(run: Run, out: Path, work: Path, url: str) -> list[Path]:
    """Run it; copy every output (normalised) into ``out/run/NAME``."""
    target = out / "run" / run.name
    target.mkdir(parents=True)
    scratch = work / "outputs" / run.name
    shutil.rmtree(scratch, ignore_errors=True)
    scratch.mkdir(parents=True)
    args = list(run.args)
    if run.reports:
        for ext in ("json", "md", "xml", "html"):
            args += ["-o", str(scratch / f"report.{ext}")]
        args += ["--events", str(scratch / "events.jsonl")]
    if run.record:
        args += ["--record", str(scratch / "recording.jsonl")]
    if run.cwd == REPO and args[0] == "run":  # kept beside an example, it dirties the clone
        kept = work / "history" / run.name
        shutil.rmtree(kept, ignore_errors=True)
        args += ["--history-dir", str(kept)]
    done = subprocess.run(
        [*CLI, *args],
        cwd=run.cwd,
        env=_environment(url, run.env),
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    text = console(done.returncode, done.stdout, done.stderr)
    (scratch / "console.txt").write_text(text, encoding="utf-8")
    written = []
    for file in sorted(scratch.iterdir()):
        text = normalise(file.read_text(encoding="utf-8"), work)
        if not run.ordered and file.suffix in (".jsonl", ".txt"):
            text = unordered(text)
        (target / file.name).write_text(text, encoding="utf-8")
        written.append(scratch / file.name)
    return written


@contextmanager
def service(script: Script) -> Iterator[FakeModelServer]:
    with FakeModelServer(script) as server:
        yield server


def _suite_folder(work: Path, suite: Suite) -> Path:
    folder = work / "suites" / suite.name
    shutil.rmtree(folder, ignore_errors=True)
    suite.write(folder)
    return folder


def differential_suites() -> list[Suite]:
    return [
        *(differential.generated_suite(seed, 10) for seed in range(6)),
        differential.deviations_suite(),
        differential.flag_conflict_suite(),
        differential.rag_suite(),
        differential.structured_output_suite(),
        differential.timeout_suite(),
    ]


def capture_differential(out: Path, work: Path) -> int:
    count = 0
    for suite in differential_suites():
        folder = _suite_folder(work, suite)
        with service(suite.service_script()) as server:
            run = Run(suite.name, ["run", "agent.yaml", "-p", "1"], folder, record=True)
            count += len(execute(run, out, work, server.url))
    return count + capture_variants(out, work)


def capture_variants(out: Path, work: Path) -> int:
    """The other paths of `run`, on generated suite 1 (multi-turn, tools, graders)."""
    suite = differential.generated_suite(1, 10)
    folder = _suite_folder(work, suite)
    recorded = work / "outputs" / suite.name / "recording.jsonl"
    report = work / "outputs" / suite.name / "report.json"
    count = 0
    half = work / "suites" / "gen1-half.jsonl"
    lines = recorded.read_text(encoding="utf-8").splitlines(keepends=True)
    half.write_text("".join(lines[: len(lines) // 2]), encoding="utf-8")
    base = ["run", "agent.yaml", "-p", "1"]
    names = suite.case_names
    variants = [
        Run("gen1-repeat", [*base, "--repeat", "3", "--pass-rule", "0.5"], folder),
        Run("gen1-select", [*base, "-k", names[2], "-k", names[5]], folder),
        Run("gen1-limit", [*base, "--limit", "2", "-q"], folder),
        Run("gen1-shard1", [*base, "--shard", "1/2"], folder),
        Run("gen1-shard2", [*base, "--shard", "2/2"], folder),
        Run("gen1-focus", [*base, "--case", "3", "--up-to-turn", "0"], folder),
        Run("gen1-replay", [*base, "--replay", str(recorded)], folder),
        Run("gen1-resume", [*base, "--resume", str(half)], folder, record=False),
        Run("gen1-from-report", ["run", "agent.yaml", "--from-report", str(report)], folder),
        Run("gen1-parallel", ["run", "agent.yaml"], folder, ordered=False),
    ]
    with service(suite.service_script()) as server:
        for variant in variants:
            count += len(execute(variant, out, work, server.url))
    shards = [str(work / "outputs" / f"gen1-shard{i}" / "report.json") for i in (1, 2)]
    merged = Run("gen1-merge", ["merge", *shards], folder, reports=False)
    merged.args += [f"-o{work / 'outputs' / 'gen1-merge' / f'merged.{e}'}" for e in ("json", "md")]
    count += len(execute(merged, out, work, ""))
    return count


def capture_examples(out: Path, work: Path) -> int:
    count = 0
    convfinqa = ["run", "examples/convfinqa/agent.yaml", "--no-user-config"]
    replay = ["--replay", "examples/convfinqa/replay.jsonl"]
    quickstart = ["run", "examples/quickstart/agent.yaml"]
    runs = [
        Run("example-convfinqa", [*convfinqa, *replay, "-p", "1"], REPO),
        Run("example-convfinqa-parallel", [*convfinqa, *replay], REPO, ordered=False),
        Run("example-quickstart", [*quickstart, "--no-user-config"], REPO),
    ]
    for folder in sorted((REPO / "tests/fixtures/run").iterdir()):
        agent = str((folder / "agent.yaml").relative_to(REPO))
        runs.append(Run(f"fixture-{folder.name}", ["run", agent, "--no-user-config"], REPO))
    for run in runs:
        count += len(execute(run, out, work, "http://127.0.0.1:9/v1"))
    return count


# -------------------------------------------------------------------- hand-written suites

KB_DOCS = {
    "docs/canteen.md": "# Canteen\n\nLunch is served from noon until two.\n",
    "docs/parking.md": "# Parking\n\nPermits are renewed every January.\n",
    "docs/sub/vault.md": "# Vault\n\nThe vault access code is 7319, changed every quarter.\n",
    "handbook.md": (
        "Welcome.\n\n# Leave\n\n## Annual leave\nStaff get 25 days a year.\n\n"
        "## Sick leave\nTell your manager on the first morning.\n\n# Equipment\n"
        "Laptops are replaced every four years.\n"
    ),
}


def retrieval_script(path: str, body: dict[str, Any]) -> Action:
    if body.get("model") == "judge-model":
        verdicts = [{"claim": "the code", "verdict": "yes"}]
        return Reply(json.dumps({"claims": verdicts, "reason": "supported"}), usage=(100, 20))
    results = tool_results(body)
    question = last_user_text(body)
    if not results:
        tool = "handbook_search" if "leave" in question else "kb_search"
        return Reply(tool_calls=[(tool, {"query": question})])
    found = re.findall(r"[^.\n]*\d[^.\n]*\.", results[0])
    return Reply(found[-1].strip() if found else "I do not know.")


def retrieval_suite(url: str) -> str:
    return textwrap.dedent(f"""
        name: retrieval
        model: {{provider: openai, name: agent-model, endpoint: "{url}"}}
        instructions: {{inline: Answer from the knowledge base.}}
        tools:
          - name: kb
            type: vectorstore
            description: Office notes
            source: docs
            top_k: 2
          - name: handbook
            type: hierarchical_document
            description: The staff handbook
            source: handbook.md
            contextual_embeddings: false
        test_cases:
          - name: vault
            input: What is the vault access code?
            ground_truth: "7319"
            expected_tools: [{{name: kb_search, args: {{query: {{fuzzy: vault}}}}}}]
            evaluations:
              - type: rag
                metric_type: faithfulness
                threshold: 0.5
                model: {{provider: openai, name: judge-model, endpoint: "{url}"}}
          - name: leave
            input: How many days of annual leave?
            expected_tools: [handbook_search]
        """)


PYTHON_AGENT = """
def factory():
    class Echo:
        def send(self, message):
            if "boom" in message:
                raise ValueError("the agent broke")
            return {"text": message.upper(),
                    "tool_calls": [{"name": "lookup", "args": {"q": message}, "result": 1}],
                    "usage": {"prompt_tokens": 3, "completion_tokens": 2, "total_tokens": 5}}
    return Echo()
"""

PYTHON_SUITE = """
name: echo
model: {provider: openai, name: unused}
instructions: {inline: Echo.}
test_cases:
  - name: echoes
    turns:
      - input: hello
        ground_truth: HELLO
        expected_tools: [{name: lookup, args: {q: {regex: "^h.*o$"}}}]
        evaluations: [{metric: equality}, {metric: bleu, threshold: 0.1}]
      - input: boom
        ground_truth: BOOM
  - name: single
    input: abc
    ground_truth: ABD
    evaluations: [{metric: equality}]
"""

MCP_SERVER = REPO / "tests" / "runner" / "mcp"


def mcp_suite(url: str) -> str:
    env = json.dumps({"MCP_PYTHON": sys.executable})
    launch = json.dumps(str(MCP_SERVER / "launch.js"))
    return textwrap.dedent(f"""
        name: mcp-agent
        model: {{provider: openai, name: gpt-test, endpoint: "{url}"}}
        instructions: {{inline: Use your tools.}}
        tools:
          - name: sdk
            type: mcp
            description: The test server.
            command: node
            args: [{launch}, stdio]
            env: {env}
            request_timeout: 1
        test_cases:
          - name: everything
            input: Go.
            expected_tools: [{{name: echo, args: {{text: hello}}}}, refuse]
        """)


def mcp_script(path: str, body: dict[str, Any]) -> Action:
    plan = [("echo", {"text": "hello"}), ("refuse", {"reason": "not today"}), ("count", {})]
    results = tool_results(body)
    if len(results) < len(plan):
        return Reply(tool_calls=[plan[len(results)]])
    return Reply(" | ".join(results))


def faulty(path: str, body: dict[str, Any]) -> Action:
    """Right answers, except: a 429 then the answer, a 500 that never ends, a gateway that
    echoes the request's headers (the key among them), a reply quoting the key."""
    text = last_user_text(body)
    if text == "Q1.1":
        return Status(500)
    if text == "Q2.0":
        return EchoHeaders()
    if text == "Q3.2":
        return Reply(f"A3.2 (my key is {faults.KEY})")
    return faults.answer(path, body)


def capture_hand_written(out: Path, work: Path) -> int:
    count = 0

    def folder_of(name: str, files: dict[str, str]) -> Path:
        folder = work / "suites" / name
        shutil.rmtree(folder, ignore_errors=True)
        for file, text in files.items():
            (folder / file).parent.mkdir(parents=True, exist_ok=True)
            (folder / file).write_text(textwrap.dedent(text).lstrip("\n"), encoding="utf-8")
        return folder

    base = ["run", "agent.yaml", "-p", "1", "--no-user-config"]
    with service(retrieval_script) as server:
        folder = folder_of("retrieval", {"agent.yaml": retrieval_suite(server.url), **KB_DOCS})
        count += len(execute(Run("retrieval", base, folder, record=True), out, work, server.url))
    folder = folder_of("python-agent", {"agent.yaml": PYTHON_SUITE, "my_agent.py": PYTHON_AGENT})
    agent = [*base, "--agent", "my_agent:factory"]
    count += len(execute(Run("python-agent", agent, folder), out, work, ""))
    repeat = [*agent, "--repeat", "2"]
    count += len(execute(Run("python-agent-repeat", repeat, folder), out, work, ""))
    if shutil.which("node"):
        with service(mcp_script) as server:
            folder = folder_of("mcp", {"agent.yaml": mcp_suite(server.url)})
            count += len(execute(Run("mcp", base, folder), out, work, server.url))
    for provider in ("openai", "anthropic"):
        with service(faulty) as server:
            folder = work / "suites" / f"faults-{provider}"
            shutil.rmtree(folder, ignore_errors=True)
            url = server.url if provider == "openai" else server.root
            faults.suite(folder, url, provider=provider)
            count += len(execute(Run(f"faults-{provider}", base, folder), out, work, server.url))
    return count


# -------------------------------------------------------------------------------- compare


def capture(out: Path, work: Path) -> None:
    if out.exists():
        shutil.rmtree(out)
    (out / "check").mkdir(parents=True)
    (out / "run").mkdir()
    work.mkdir(parents=True, exist_ok=True)
    steps: list[tuple[str, Callable[[], int]]] = [
        ("check", lambda: capture_check(out)),
        ("examples and fixtures", lambda: capture_examples(out, work)),
        ("differential suites and variants", lambda: capture_differential(out, work)),
        ("hand-written suites", lambda: capture_hand_written(out, work)),
    ]
    total = 0
    for label, step in steps:
        count = step()
        total += count
        print(f"{label}: {count} output(s)", flush=True)
    print(f"{total} output(s) captured in {out}")


def compare(before: Path, after: Path) -> int:
    def files(root: Path) -> set[str]:
        return {str(p.relative_to(root)) for p in root.rglob("*") if p.is_file()}

    left, right = files(before), files(after)
    differ = sorted(n for n in left & right if not filecmp.cmp(before / n, after / n, False))
    for name in sorted(left - right):
        print(f"only before: {name}")
    for name in sorted(right - left):
        print(f"only after: {name}")
    for name in differ:
        print(f"differs: {name}")
    same = len(left & right) - len(differ)
    print(f"{same} of {len(left | right)} file(s) byte-identical")
    return 0 if same == len(left | right) else 1


def main() -> int:
    if os.environ.get("PYTHONHASHSEED") != "0":
        # One hash seed for every capture: set order must not pass for a difference.
        os.environ.update(PYTHONHASHSEED="0", PYTHONDONTWRITEBYTECODE="1")
        module = ["-m", "tests.support.capture_outputs"]
        os.execv(sys.executable, [sys.executable, *module, *sys.argv[1:]])
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    take = sub.add_parser("capture")
    take.add_argument("out", type=Path)
    take.add_argument("--work", type=Path, default=Path("/tmp/capture-outputs-work"))
    both = sub.add_parser("compare")
    both.add_argument("before", type=Path)
    both.add_argument("after", type=Path)
    args = parser.parse_args()
    if args.command == "capture":
        capture(args.out.resolve(), args.work.resolve())
        return 0
    return compare(args.before, args.after)


if __name__ == "__main__":
    sys.exit(main())

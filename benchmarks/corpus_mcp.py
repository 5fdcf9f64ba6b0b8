"""Preflight of every MCP tool of the real corpus, and what starting MCP servers costs a run.

    tests/runner/mcp/setup.sh        # once: the npm servers the corpus names, locally
    python -m benchmarks.corpus_mcp [--repeat N]

For each agent of `tests/data/corpus/real` with `type: mcp` tools: its folder is copied to
a temporary one, its `${VAR}`s get placeholder values, a missing folder named by a `./`
argument is created empty, and its MCP servers are started as `run` starts them
(concurrently; connect, initialise, list tools) from that folder, where `node_modules`
links to tests/runner/mcp's, so `npx -y` finds the local install, never the network. The
corpus holds YAML files only; a project's `.env`, which the Brave search server reads from
its working directory (the agents pass it no key), is stood in by one with a placeholder.

Prints one line per agent, how many start every MCP tool they declare (with the reason
for each that does not), the wall time of each agent's MCP preflight and of stopping its
servers, then the start-up cost of each server alone (median of N starts).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

from holodeck_lsp.models.tools import MCPTool
from holodeck_lsp.runner.collect.loading import ConfigError, load_suite
from holodeck_lsp.runner.tools.mcp_servers import McpServerKind
from holodeck_lsp.runner.tools.tool_kind import ToolContext, ToolKind
from holodeck_lsp.runner.tools.toolbox import PreflightError, ToolBox

REPO = Path(__file__).resolve().parents[1]
CORPUS = REPO / "tests" / "data" / "corpus" / "real"
SERVERS = REPO / "tests" / "runner" / "mcp"


def placeholders(names: list[str]) -> dict[str, str]:
    env = dict(os.environ)
    for name in names:
        env[name] = "http://127.0.0.1:9" if name.endswith(("_URL", "_ENDPOINT")) else "x"
    return env


def stand_in_project(tools: list[MCPTool], folder: Path) -> None:
    """What the project around the agent file would hold: node_modules, .env, folders."""
    if not (folder / "node_modules").exists():
        (folder / "node_modules").symlink_to(SERVERS / "node_modules")
    if not (folder / ".env").exists():
        (folder / ".env").write_text("BRAVE_API_KEY=placeholder\n")
    for tool in tools:
        for arg in tool.args or []:
            if arg.startswith(("./", "../")) and not (folder / arg).exists():
                (folder / arg).mkdir(parents=True)


async def preflight(kinds: list[ToolKind], folder: Path) -> tuple[str | None, float, float]:
    """(failure or None, seconds to start, seconds to stop)."""
    box = ToolBox(kinds)
    start = time.perf_counter()
    try:
        await box.start(ToolContext(folder))
    except PreflightError as exc:
        reasons = "; ".join(
            f"{f.tool}: {f.message}" + (f" (stderr: {f.stderr_tail!r})" if f.stderr_tail else "")
            for f in exc.failures
        )
        return reasons, time.perf_counter() - start, 0.0
    started = time.perf_counter() - start
    await box.close()
    return None, started, time.perf_counter() - start - started


def mcp_agents() -> list[tuple[str, list[str]]]:
    index = json.loads((CORPUS / "index.json").read_text(encoding="utf-8"))
    found = []
    for entry in index:
        if entry["kind"] != "agent":
            continue
        text = (CORPUS / entry["file"]).read_text(encoding="utf-8")
        if "type: mcp" in text:
            found.append((entry["file"], entry.get("env_vars", [])))
    return found


async def corpus(work: Path) -> dict[str, float]:
    """Preflight of each agent; returns the start-up time of each server command."""
    ok, failed, starts, stops = 0, [], [], []
    firsts: dict[str, float] = {}
    for number, (file, variables) in enumerate(mcp_agents()):
        source = CORPUS / file
        folder = work / f"agent{number}"
        shutil.copytree(source.parent, folder)
        try:
            suite = load_suite(folder / source.name, placeholders(variables), user_config=False)
        except ConfigError as exc:
            failed.append((file, "does not load: " + " ".join(exc.lines)[:200]))
            continue
        tools = [t for t in suite.agent.tools or [] if isinstance(t, MCPTool)]
        stand_in_project(tools, folder)
        kinds: list[ToolKind] = [McpServerKind(t, folder) for t in tools]
        os.chdir(folder)
        problem, started, stopped = await preflight(kinds, folder)
        names = ", ".join(t.name for t in tools)
        if problem is None:
            ok += 1
            starts.append(started)
            stops.append(stopped)
            print(f"ok    {file} ({names}): started in {started:.2f} s, stopped in {stopped:.2f} s")
        else:
            failed.append((file, problem))
            print(f"FAIL  {file} ({names}): {problem}")
        for tool in tools:
            firsts.setdefault(" ".join(tool.args or []), 0.0)
    print(f"\n{ok} of {ok + len(failed)} agents with MCP tools start every MCP tool they declare")
    for file, reason in failed:
        print(f"  not started: {file}: {reason}")
    if starts:
        print(
            f"MCP preflight per run (servers started concurrently): median "
            f"{statistics.median(starts):.2f} s (min {min(starts):.2f}, max {max(starts):.2f}); "
            f"stopping them: median {statistics.median(stops):.2f} s"
        )
    return firsts


async def each_server(commands: list[str], repeat: int, work: Path) -> None:
    print(f"\nstart-up of one server (connect, initialise, list tools), median of {repeat}:")
    for args in sorted(commands):
        tool = MCPTool.model_validate(
            {
                "name": "server",
                "description": "d",
                "type": "mcp",
                "command": "npx",
                "args": args.split(),
                "env": {"MEMORY_FILE_PATH": str(work / "memory.jsonl")},
            }
        )
        stand_in_project([tool], work)
        times, stops = [], []
        for _ in range(repeat):
            problem, started, stopped = await preflight([McpServerKind(tool, work)], work)
            if problem is not None:
                print(f"  npx {args}: {problem}")
                break
            times.append(started)
            stops.append(stopped)
        if times:
            print(
                f"  npx {args}: start {statistics.median(times):.2f} s, "
                f"stop {statistics.median(stops):.2f} s"
            )


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=5)
    options = parser.parse_args()
    if not (SERVERS / "node_modules" / "@modelcontextprotocol").is_dir():
        sys.exit(f"the npm servers are not installed: run {SERVERS / 'setup.sh'}")
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        commands = asyncio.run(corpus(work))
        os.chdir(work)
        asyncio.run(each_server(list(commands), options.repeat, work))
        os.chdir(REPO)


if __name__ == "__main__":
    main()

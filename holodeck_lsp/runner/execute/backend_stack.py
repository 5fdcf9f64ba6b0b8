"""The backend a run talks to, and its judges: the chosen backend bounded per turn, then
recording, replaying or resuming; the judge models of the selected metrics beside it."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TextIO

from holodeck_lsp.models.llm import ProviderEnum
from holodeck_lsp.runner.backends.backend import Backend
from holodeck_lsp.runner.backends.backend_choice import build_backend, identity
from holodeck_lsp.runner.collect.loading import LoadedSuite
from holodeck_lsp.runner.collect.plan import PlannedCase
from holodeck_lsp.runner.execute.metric_preflight import build_panel, check_libraries, enabled
from holodeck_lsp.runner.execute.recording import Recorder, RecordingBackend, ReplayBackend, Table
from holodeck_lsp.runner.execute.resume import ResumeBackend, complete_cases
from holodeck_lsp.runner.execute.turn_time_limit import TimedBackend
from holodeck_lsp.runner.score.metrics.judge_panel import JudgePanel
from holodeck_lsp.runner.services.http_client import RetryPolicy
from holodeck_lsp.runner.tools.toolbox import ToolBox


@dataclass(frozen=True)
class BackendStack:
    """The backend a run talks to, the recorder of its exchanges, the tools it starts."""

    backend: Backend
    recorder: Recorder | None = None  # --record, or --resume: what the run adds
    tools: ToolBox | None = None  # None: a replay (its replies hold the tool calls)


def run_backend(
    suite: LoadedSuite,
    *,
    python_agent: str | None,
    replay: Path | None,
    record: Path | None,
    retry: RetryPolicy | None,
    turn_limit: tuple[float, str],
    parallelism: int,
    err: TextIO,
    env: Mapping[str, str],
    cases: list[PlannedCase],
    resumed: Table | None,
) -> BackendStack:
    """The backend (timed, recording or replaying) and the tools the run must start."""
    agent = suite.agent
    who = identity(agent, suite.folder, python_agent)
    if replay is not None:
        return BackendStack(ReplayBackend(replay, who))  # replies hold the tool calls
    plan = build_backend(agent, suite.folder, python_agent, parallelism, env, retry)
    for warning in plan.warnings:
        err.write(f"warning: {warning}\n")
    timeout, setting = turn_limit
    backend: Backend = TimedBackend(plan.backend, timeout, setting)
    if resumed is not None:
        recorder = Recorder(who)
        table = resumed
        turns = {case.label: len(case.turns) for case in cases}
        restorable = python_agent is None  # the runner holds the conversation
        complete = complete_cases(table, turns)
        resuming = ResumeBackend(backend, table, who, recorder, restorable, complete)
        return BackendStack(resuming, recorder, plan.tools)
    if record is None:
        return BackendStack(backend, None, plan.tools)
    recorder = Recorder(who)
    return BackendStack(RecordingBackend(backend, recorder), recorder, plan.tools)


def run_judges(
    suite: LoadedSuite,
    *,
    cases: list[PlannedCase],
    stack: BackendStack,
    retry: RetryPolicy | None,
    timeout: float,
    parallelism: int,
    env: Mapping[str, str],
    resumed: Table | None,
) -> JudgePanel | None:
    """Judge models of the selected cases' metrics; their libraries are checked too."""
    metrics = enabled(m for case in cases for turn in case.turns for m in turn.metrics)
    check_libraries(metrics)
    return build_panel(
        suite.agent,
        metrics,
        replay=stack.backend if isinstance(stack.backend, ReplayBackend) else None,
        recorder=stack.recorder,
        env=env,
        policy=retry,
        parallelism=parallelism,
        timeout=timeout,
        resume=resumed,
    )


def run_label(suite: LoadedSuite, python_agent: str | None) -> str:
    """How `holodeck test` names a failed agent run of a single-turn case: its OpenAI path
    (openai, azure_openai, ollama) says "OpenAI Agents run failed: "."""
    if python_agent is not None or suite.agent.model.provider is ProviderEnum.ANTHROPIC:
        return ""
    return "OpenAI Agents run failed: "

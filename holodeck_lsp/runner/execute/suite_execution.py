"""A run's execution: its tools started (preflight), its test cases run until they finish,
a signal stops them or one of them stops the run; everything closed, bounded in time."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable
from dataclasses import dataclass, field
from typing import Protocol, TextIO

from holodeck_lsp.exit_codes import EXIT_EXECUTION
from holodeck_lsp.runner.backends.backend import Backend
from holodeck_lsp.runner.collect.plan import PlannedCase
from holodeck_lsp.runner.execute.case_runs import CaseRunSettings, SuiteState, run_suite
from holodeck_lsp.runner.execute.interrupts import Interrupts
from holodeck_lsp.runner.execute.recording import ReplayMiss
from holodeck_lsp.runner.score.rollup import CaseOutcome
from holodeck_lsp.runner.tools.tool_kind import ToolContext
from holodeck_lsp.runner.tools.toolbox import ToolBox

STOP_GRACE = 0.5  # seconds the cases get to settle once a run is stopped
# Seconds the tools get to stop: an MCP server is asked to exit, then terminated, then
# killed (the SDK gives each step 2 s); cutting that short would leave it running.
TOOLS_GRACE = 20.0


class Progress(Protocol):
    """Told as the run goes: a display, and the event stream beside it."""

    def start(self, total: int) -> None: ...

    def case_started(self, case: PlannedCase) -> None: ...

    def case_done(self, outcome: CaseOutcome) -> None: ...

    def stop(self) -> None: ...


@dataclass
class Execution:
    """What a run did: every outcome, and when it stopped early, why and what did not run."""

    outcomes: list[CaseOutcome]
    not_run: list[PlannedCase] = field(default_factory=list)
    stop_reason: str | None = None
    exit_code: int | None = None  # set when the run stopped early


@dataclass
class SuiteRun:
    backend: Backend
    cases: list[PlannedCase]
    settings: CaseRunSettings
    tools: ToolBox | None
    tool_context: ToolContext
    progress: Progress


async def _bounded(closing: Awaitable[None], grace: float = STOP_GRACE) -> None:
    """Closing a backend must not hold a stopped run: bounded, and its errors ignored."""
    with contextlib.suppress(Exception, asyncio.TimeoutError):
        await asyncio.wait_for(closing, grace)


async def execute(run: SuiteRun, err: TextIO, interrupts: Interrupts) -> Execution:
    """Preflight (tools started; `PreflightError` before any model call), then the cases."""
    settings = run.settings
    progress = run.progress
    try:
        if run.tools:
            await run.tools.start(run.tool_context)
        progress.start(len(run.cases))
        try:
            return await _cases(run, progress, err, interrupts)
        finally:
            progress.stop()
    finally:
        if run.tools is not None:
            await _bounded(run.tools.close(), TOOLS_GRACE)
        await _bounded(run.backend.close())
        await _bounded(settings.regexes.close())
        if settings.judges is not None:
            await _bounded(settings.judges.close())


async def _cases(
    run: SuiteRun, progress: Progress, err: TextIO, interrupts: Interrupts
) -> Execution:
    """The cases until they finish, a signal stops them or one of them stops the run."""
    state = SuiteState(run.cases)
    cases = asyncio.ensure_future(
        run_suite(
            run.cases, run.backend, run.settings, progress.case_started, progress.case_done, state
        )
    )
    stop = asyncio.ensure_future(interrupts.attach().wait())
    try:
        await asyncio.wait({cases, stop}, return_when=asyncio.FIRST_COMPLETED)
        if not cases.done():
            err.write(f"{interrupts.reason}: stopping (press Ctrl-C again to quit at once)\n")
            cases.cancel()
            await asyncio.wait({cases}, timeout=STOP_GRACE)
            return _stopped(state, interrupts.reason or "interrupted", interrupts.exit_code)
        # Why the run stopped is said once, by the last line (`verdict`), not here too.
        try:
            return Execution(cases.result())
        except ReplayMiss as exc:
            return _stopped(state, f"replay: {exc}", EXIT_EXECUTION)
        except Exception as exc:  # a bug, not a verdict on the agent: say so, exit 3
            return _stopped(state, f"{type(exc).__name__}: {exc}", EXIT_EXECUTION)
    finally:
        stop.cancel()
        interrupts.detach()


def _stopped(state: SuiteState, reason: str, code: int) -> Execution:
    outcomes, not_run = state.partial()
    return Execution(outcomes, not_run, reason, code)

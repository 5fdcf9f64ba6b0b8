"""The settings a run resolves from the command line, the agent file and the environment,
as HoloDeck resolves them: test cases at once, and seconds per turn."""

from __future__ import annotations

from collections.abc import Mapping

from holodeck_lsp.run_defaults import DEFAULT_LLM_TIMEOUT
from holodeck_lsp.runner.collect.loading import LoadedSuite

PARALLEL_ENV = "HOLODECK_PARALLEL_TEST_CASES"
LLM_TIMEOUT_ENV = "HOLODECK_LLM_TIMEOUT"  # read by HoloDeck below the config files


class UsageError(Exception):
    """A bad combination of options or a bad value: exit 2."""


def resolve_parallelism(cli: int | None, yaml: int | None, env: Mapping[str, str]) -> int:
    """Command line > agent file > HOLODECK_PARALLEL_TEST_CASES > 1."""
    if cli is not None:
        if cli < 1:
            raise UsageError("--parallel must be >= 1")
        return cli
    if yaml is not None:
        return yaml
    raw = env.get(PARALLEL_ENV)
    if raw is not None and raw.strip():
        try:
            value = int(raw)
        except ValueError:
            value = 0
        if value < 1:
            raise UsageError(f"{PARALLEL_ENV} must be an integer >= 1, got {raw!r}")
        return value
    return 1


def turn_limit(
    suite: LoadedSuite, cli: float | None, env: Mapping[str, str]
) -> tuple[float, str]:
    """Seconds per turn, and the setting that chose them (named when a turn times out):
    as HoloDeck resolves it, the command line, the agent and its config files, then
    HOLODECK_LLM_TIMEOUT, then 60 s."""
    if cli is not None:
        return cli, "--llm-timeout"
    if suite.execution.llm_timeout:
        return float(suite.execution.llm_timeout), "execution.llm_timeout"
    raw = env.get(LLM_TIMEOUT_ENV, "").strip()
    if raw.isdigit() and int(raw) > 0:
        return float(raw), LLM_TIMEOUT_ENV
    return DEFAULT_LLM_TIMEOUT, "the default llm_timeout"

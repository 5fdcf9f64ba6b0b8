"""Shared test helpers: where fixtures and the vendored real-world corpus live, the
Hypothesis profiles, and the bytecode every child interpreter of the suite reads."""

from __future__ import annotations

import gc
import os
from collections.abc import AsyncIterator, Callable, Iterator
from pathlib import Path
from typing import Any

import hypothesis
import pytest
import pytest_asyncio

from holodeck_lsp import gc_policy

REPO = Path(__file__).resolve().parents[1]
FIXTURES = REPO / "tests" / "fixtures"
# Upstream files vendored verbatim with their licences (tests/data/README.md): the suite
# reads nothing outside the repository.
VENDORED = REPO / "tests" / "data"
CORPUS = VENDORED / "corpus" / "real"
HOLODECK_SCHEMA = VENDORED / "reference" / "holodeck-agent.schema.json"
# YAML that is not HoloDeck's, in the shapes real projects keep beside agents (README there).
FOREIGN_YAML = VENDORED / "foreign-yaml"

# Property tests: a few dozen examples in the fast suite, hundreds in the slow one (a run
# whose `-m` selects `slow` also runs every Hypothesis test, with "thorough").
# HOLODECK_HYPOTHESIS_PROFILE (or Hypothesis's own --hypothesis-profile) picks one by name.
# A test sets max_examples itself only to run fewer (each example a costly run).
# No deadline: a machine busy with the other workers is no property's failure.
PROFILE_VARIABLE = "HOLODECK_HYPOTHESIS_PROFILE"
hypothesis.settings.register_profile("fast", max_examples=30, deadline=None)
hypothesis.settings.register_profile("thorough", max_examples=300, deadline=None)


def selects_slow(markexpr: str) -> bool:
    """Whether a `-m` expression selects the slow tests (`slow`, `slow or x`, not `not slow`)."""
    words = markexpr.replace("(", " ").replace(")", " ").split()
    return any(word == "slow" and (i == 0 or words[i - 1] != "not") for i, word in
               enumerate(words))


def pytest_configure(config: pytest.Config) -> None:
    slow_run = selects_slow(config.getoption("markexpr") or "")
    chosen = config.getoption("--hypothesis-profile") or os.environ.get(PROFILE_VARIABLE)
    hypothesis.settings.load_profile(chosen or ("thorough" if slow_run else "fast"))
    if not hasattr(config, "workerinput"):  # once, in the process that starts the workers
        from tests.support import suite_bytecode

        suite_bytecode.write(config, REPO / "holodeck_lsp", REPO / "tests")


def pytest_xdist_auto_num_workers(config: pytest.Config) -> int:
    """`-n auto`: in the fast suite one worker more than cores, as a fifth of its time is
    spent waiting (on timeouts, servers, child processes) that another worker can use
    (2 cores: 64 s with 3 workers, 68 s with 2, 75 s with 4); the slow suite keeps the
    cores busy itself (HoloDeck's runs), one worker per core."""
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    return (cores or 1) + (0 if selects_slow(config.getoption("markexpr") or "") else 1)


def pytest_collection_finish(session: pytest.Session) -> None:
    """The cyclic collector of a test process: what collection built (every test module,
    the libraries they import, the items) is moved out of its sight, as it lives as long as
    the process, and it runs after 100,000 new objects rather than 700: the in-process
    tests build large trees (a suite, its report), which each pass would rescan (they spent
    a third of their CPU on it). It stays on for what the tests build."""
    gc.collect()
    gc_policy.settle()  # the one home of the collector's toggles
    gc.set_threshold(100_000, 10, 10)


@pytest.hookimpl(tryfirst=True)  # before `-m` deselects
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if selects_slow(config.getoption("markexpr") or ""):
        for item in items:
            if hypothesis.is_hypothesis_test(getattr(item, "obj", None)):
                item.add_marker(pytest.mark.slow)


@pytest.fixture(autouse=True)
def _no_user_config(
    tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Tests never read the developer's own ~/.holodeck/config.yaml."""
    monkeypatch.setenv("HOME", str(tmp_path_factory.mktemp("home")))


def _kept_beside_examples() -> list[Path]:
    from holodeck_lsp.history.results_folder import RESULTS

    return sorted(REPO.glob(f"examples/*/{RESULTS}/**/*"))


@pytest.fixture(scope="session", autouse=True)
def _examples_left_as_committed() -> Iterator[None]:
    """No test keeps a run beside a committed example (`run` keeps every run in
    `results/<slug>/` beside its agent): a test runs a copy, or passes --history-dir."""
    before = _kept_beside_examples()
    yield
    added = sorted(set(_kept_beside_examples()) - set(before))
    assert not added, f"tests kept runs beside the committed examples: {added}"


@pytest_asyncio.fixture(scope="session", loop_scope="session")
async def _shared_servers(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[Any]:
    """The language servers the session's tests share (tests/server/shared_servers.py)."""
    from tests.server.shared_servers import SharedServers  # the protocol's libraries

    servers = SharedServers(tmp_path_factory.mktemp("shared"))
    yield servers
    await servers.stop()


@pytest.fixture
def lend_push(request: pytest.FixtureRequest, _shared_servers: Any) -> Callable[..., Any]:
    """`async with lend_push(folder, settings) as client:` the session's push server (the
    `push` fixture's), on ``folder`` with the `holodeck` settings ``settings``: for a test
    whose workspace is not the fixture workspace or that needs settings (its module:
    `pytestmark = SHARES_SERVERS`)."""
    from tests.server.lsp_client import push_capabilities

    def lend(folder: Path, settings: dict[str, Any] | None = None) -> Any:
        return _shared_servers.lend(push_capabilities, request.node, folder, settings)

    return lend

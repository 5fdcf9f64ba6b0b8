"""Ask HoloDeck 0.7.1 itself whether it accepts YAML files.  Runs INSIDE the oracle venv.

    python oracle_verdict.py [--timeout S] [--jobs N] FILE...

prints one JSON line per FILE, in argument order::

    {"file": FILE, "accepted": true|false, "error": str|null, "warnings": [str, ...]}

Each file is judged the way ``holodeck test`` loads an agent
(``holodeck.config.loader.load_agent_with_config``), in its own forked child of a process that
imported HoloDeck once, so nothing (imported grader modules, ``sys.path`` entries, context
variables, environment) leaks from one file to the next:

* ``HOME`` is a fresh empty directory (no user ``~/.holodeck/config.yaml``), the environment is
  emptied, and every ``${NAME}`` the load will read is set to a dummy value shaped like the
  field (see ``dummy_env_value``);
* the working directory is the file's directory (``holodeck test`` is run from the project);
* an agent file is loaded in place, so its project ``config.yaml`` is merged and its
  ``test_cases_file`` resolved exactly as HoloDeck does;
* a test-case payload (a top-level list, or a mapping whose only key is ``test_cases``) is
  loaded through a throwaway minimal agent whose ``test_cases_file`` points at it; the payload's
  directory is put on ``sys.path`` as if the agent sat next to it (code graders);
* a ``config.yaml`` / ``config.yml`` is loaded as the project config of an otherwise empty
  directory (HoloDeck refuses every agent next to a config it cannot load).

A file counts as rejected when the load raises anything at all (HoloDeck's CLI reports any
exception from the loader as a failure), including a grader module that exits at import.
"""

from __future__ import annotations

import os
import sys

# Run as a script, this file's folder is sys.path[0]; a grader module must not resolve there.
if sys.path and os.path.abspath(sys.path[0] or ".") == os.path.dirname(os.path.abspath(__file__)):
    del sys.path[0]

import argparse
import json
import logging
import re
import select
import shutil
import signal
import tempfile
import time
import warnings
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

# Environment HoloDeck reads while importing (log file, log level) or loading (HOLODECK_*
# execution defaults) must not come from whoever runs the oracle.
for _name in [n for n in os.environ if n.startswith("HOLODECK_")]:
    del os.environ[_name]

import importlib.util  # noqa: E402

import yaml  # noqa: E402
from holodeck.config.loader import (  # type: ignore[import-not-found]  # noqa: E402
    ConfigLoader,
    load_agent_with_config,
)


def _skip_evaluators_package_init() -> None:
    """Make ``holodeck.lib.evaluators`` importable without running its ``__init__``.

    The loader imports one stdlib-only submodule of that package (``response_path``, to check a
    metric's ``response_path``), but the package initializer imports the LLM-judge runtime
    (deepeval and its ~70 dependencies) which never takes part in deciding whether a file
    loads. Registering the package without executing it keeps every submodule real HoloDeck
    code while the oracle stays small.
    """
    name = "holodeck.lib.evaluators"
    spec = importlib.util.find_spec(name)
    if spec is None or name in sys.modules:
        return
    package = importlib.util.module_from_spec(spec)
    sys.modules[name] = package
    vars(sys.modules["holodeck.lib"])["evaluators"] = package


_skip_evaluators_package_init()

_ENV_REF = re.compile(r"\$\{([A-Za-z_][A-Za-z0-9_]*)\}")
_KEY_BEFORE_REF = re.compile(r"([A-Za-z_][\w-]*)\s*:\s*[\"']?[^\"'\n]*?\$\{([A-Za-z_]\w*)\}")
_TEST_CASES_FILE = re.compile(r"^\s*test_cases_file\s*:\s*(.+?)\s*$", re.MULTILINE)
CONFIG_NAMES = ("config.yml", "config.yaml")
_FAST_LOADER: Any = getattr(yaml, "CSafeLoader", yaml.SafeLoader)

WRAPPER_AGENT = """\
name: holodeck-oracle-wrapper
model:
  provider: openai
  name: gpt-4o
instructions:
  inline: Answer the user's question.
test_cases_file: {payload}
"""


# --------------------------------------------------------------------------- env values

_COUNT_WORDS = frozenset(
    [
        "TIMEOUT",
        "TOKENS",
        "COUNT",
        "SIZE",
        "LIMIT",
        "MAX",
        "MIN",
        "NUM",
        "RETRIES",
        "DIMENSIONS",
        "WORKERS",
        "SECONDS",
        "MS",
        "TTL",
        "PAGES",
        "K",
    ]
)


def dummy_env_value(hints: set[str]) -> str:
    """A value that fits what the variable is used for, judged from its name and its key."""
    words: set[str] = set()
    for hint in hints:
        words.update(w for w in re.split(r"[^A-Z0-9]+", hint.upper()) if w)
    if words & {"CONNECTION", "DSN"}:
        return "postgresql://user:password@localhost:5432/holodeck"
    if words & {"URL", "URI", "ENDPOINT", "BASE", "SERVER", "WEBHOOK"}:
        return "https://example.com"
    if words & {"HOST", "HOSTNAME"}:
        return "localhost"
    if "PORT" in words:
        return "8080"
    if words & {"ID", "UUID", "GUID"}:  # cloud account / tenant / client ids are UUIDs
        return "00000000-0000-4000-8000-000000000000"
    if words & {"TEMPERATURE", "TOP", "THRESHOLD", "RATE", "RATIO", "TOLERANCE"}:
        return "0.5"
    if words & _COUNT_WORDS:
        return "30"
    if words & {"ENABLED", "ENABLE", "DEBUG", "VERBOSE", "INSECURE", "ACTIVE"}:
        return "true"
    if words & {"VERSION"}:
        return "2024-10-21"
    if words & {"KEY", "TOKEN", "SECRET", "PASSWORD", "PASSWD", "CREDENTIAL", "CREDENTIALS"}:
        return "dummy-secret-value"
    return "dummy-value"


def env_hints(text: str) -> dict[str, set[str]]:
    """Every ``${NAME}`` in ``text`` with the hints (its name, the key it sits under)."""
    hints: dict[str, set[str]] = {name: {name} for name in _ENV_REF.findall(text)}
    for key, name in _KEY_BEFORE_REF.findall(text):
        hints.setdefault(name, {name}).add(key)
    return hints


def _read_text(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return ""


def referenced_payloads(agent_text: str, base: Path) -> list[Path]:
    """Files named by ``test_cases_file:`` lines (read loosely: only to find env references)."""
    found = []
    for raw in _TEST_CASES_FILE.findall(agent_text):
        try:
            value = yaml.safe_load(raw)
        except yaml.YAMLError:
            continue
        if isinstance(value, str) and value.strip():
            ref = Path(value)
            found.append(ref if ref.is_absolute() else base / ref)
    return found


def dummy_environment(files: list[Path]) -> dict[str, str]:
    """Dummy values for every env reference in the files the load will read."""
    hints: dict[str, set[str]] = {}
    for path in files:
        for name, found in env_hints(_read_text(path)).items():
            hints.setdefault(name, set()).update(found)
    return {name: dummy_env_value(found) for name, found in sorted(hints.items())}


# --------------------------------------------------------------------------- the judgement


@dataclass
class Job:
    """One file to judge, with everything the child needs to load it."""

    file: str  # as given, echoed back in the verdict
    path: Path  # absolute: the child changes directory before loading
    kind: str  # "agent" | "payload" | "config"
    workdir: Path
    env_files: list[Path] = field(default_factory=list)


def classify(path: Path) -> str:
    """Which way HoloDeck would read this file: agent, test-case payload, or config."""
    if path.name in CONFIG_NAMES:
        return "config"
    text = _read_text(path)
    try:  # only the top-level shape matters here, so the fast C parser is good enough
        data = yaml.load(text, Loader=_FAST_LOADER)
    except yaml.YAMLError:
        try:  # ...unless it refuses what HoloDeck's own (pure-Python) parser reads
            data = yaml.safe_load(text)
        except yaml.YAMLError:
            return "agent"
    if isinstance(data, list) or (isinstance(data, dict) and set(data) == {"test_cases"}):
        return "payload"
    return "agent"


def plan(file: str) -> Job:
    path = Path(file).resolve()
    kind = classify(path)
    env_files = [path]
    if kind == "agent":
        text = _read_text(path)
        env_files += [path.parent / name for name in CONFIG_NAMES if (path.parent / name).exists()]
        env_files += referenced_payloads(text, path.parent)
    return Job(file=file, path=path, kind=kind, workdir=path.parent, env_files=env_files)


def _load(job: Job, scratch: Path) -> None:
    """Load ``job`` exactly as HoloDeck would; raises whatever HoloDeck raises."""
    path = job.path
    if job.kind == "agent":
        load_agent_with_config(str(path))
    elif job.kind == "payload":
        wrapper = scratch / "agent.yaml"
        wrapper.write_text(WRAPPER_AGENT.format(payload=json.dumps(str(path))), encoding="utf-8")
        sys.path.insert(0, str(path.parent))  # graders resolve as if the agent sat here
        load_agent_with_config(str(wrapper))
    else:
        project = scratch / "project"
        project.mkdir()
        shutil.copyfile(path, project / path.name)
        ConfigLoader().load_project_config(str(project))


def _describe(exc: BaseException) -> str:
    text = str(exc).strip()
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


class _Collect(logging.Handler):
    def __init__(self) -> None:
        super().__init__(level=logging.WARNING)
        self.messages: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.messages.append(record.getMessage())


def judge_here(job: Job) -> dict[str, Any]:
    """Judge one file in the current process (meant to be a throwaway child)."""
    scratch = Path(tempfile.mkdtemp(prefix="holodeck-oracle-"))
    home = scratch / "home"
    home.mkdir()
    os.environ.clear()
    os.environ.update({"PATH": os.defpath, "HOME": str(home), "LANG": "C.UTF-8"})
    os.environ.update(dummy_environment(job.env_files))
    os.chdir(job.workdir)
    collector = _Collect()
    root = logging.getLogger()
    root.handlers[:] = [collector]
    root.setLevel(logging.WARNING)
    verdict: dict[str, Any] = {"file": job.file, "accepted": True, "error": None}
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            _load(job, scratch)
        except BaseException as exc:
            verdict.update(accepted=False, error=_describe(exc))
    verdict["warnings"] = collector.messages + [str(w.message) for w in caught]
    shutil.rmtree(scratch, ignore_errors=True)
    return verdict


# --------------------------------------------------------------------------- process fan-out


@dataclass
class _Child:
    index: int
    pid: int
    fd: int
    started: float
    chunks: list[bytes] = field(default_factory=list)


def _spawn(index: int, job: Job) -> _Child:
    read_fd, write_fd = os.pipe()
    pid = os.fork()
    if pid == 0:  # child: stdout goes to stderr so a chatty grader cannot corrupt the JSON
        os.close(read_fd)
        os.dup2(2, 1)
        try:
            payload = json.dumps(judge_here(job)).encode()
        except BaseException as exc:
            payload = json.dumps(
                {"file": job.file, "accepted": False, "error": f"oracle: {_describe(exc)}"}
            ).encode()
        with os.fdopen(write_fd, "wb") as out:
            out.write(payload)
        os._exit(0)
    os.close(write_fd)
    return _Child(index=index, pid=pid, fd=read_fd, started=time.monotonic())


def _finish(child: _Child, job: Job, timed_out: bool, timeout: float) -> dict[str, Any]:
    if timed_out:
        os.kill(child.pid, signal.SIGKILL)
    os.close(child.fd)
    os.waitpid(child.pid, 0)
    if timed_out:
        message = f"oracle: timed out after {timeout:g}s"
        return {"file": job.file, "accepted": False, "error": message, "warnings": []}
    try:
        result: dict[str, Any] = json.loads(b"".join(child.chunks))
    except ValueError:
        message = "oracle: the loader process died without a verdict"
        return {"file": job.file, "accepted": False, "error": message, "warnings": []}
    return result


def _size(path: Path) -> int:
    try:
        return path.stat().st_size
    except OSError:
        return 0


def judge_all(jobs: list[Job], *, jobs_at_once: int, timeout: float) -> list[dict[str, Any]]:
    """Judge every job in its own forked child, a few at a time; results in input order."""
    results: list[dict[str, Any] | None] = [None] * len(jobs)
    # Largest files first: the slow pure-Python YAML parse of a big payload then overlaps
    # with many small files instead of finishing last.
    pending = sorted(enumerate(jobs), key=lambda item: -_size(item[1].path))
    running: dict[int, _Child] = {}
    while pending or running:
        while pending and len(running) < jobs_at_once:
            index, job = pending.pop(0)
            child = _spawn(index, job)
            running[child.fd] = child
        ready, _, _ = select.select(list(running), [], [], 0.2)
        for fd in ready:
            child = running[fd]
            chunk = os.read(fd, 65536)
            if chunk:
                child.chunks.append(chunk)
                continue
            del running[fd]
            results[child.index] = _finish(child, jobs[child.index], False, timeout)
        now = time.monotonic()
        for fd, child in list(running.items()):
            if now - child.started > timeout:
                del running[fd]
                results[child.index] = _finish(child, jobs[child.index], True, timeout)
    return [r for r in results if r is not None]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="HoloDeck 0.7.1 acceptance verdicts")
    parser.add_argument("files", nargs="*", help="agent, test-case or config YAML files")
    parser.add_argument("--files-from", help="read more file paths from this file, one a line")
    parser.add_argument("--timeout", type=float, default=30.0, help="seconds per file")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 2, help="parallel loads")
    args = parser.parse_args(argv)
    files: list[str] = list(args.files)
    if args.files_from:
        lines = Path(args.files_from).read_text(encoding="utf-8").splitlines()
        files += [line for line in lines if line.strip()]
    logging.disable(logging.NOTSET)
    results = judge_all(
        [plan(f) for f in files], jobs_at_once=max(1, args.jobs), timeout=args.timeout
    )
    for result in results:
        print(json.dumps(result))  # ASCII: a message may quote a lone surrogate
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

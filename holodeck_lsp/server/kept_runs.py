"""Each test case's and turn's record over the last runs kept beside its agent (`run` and
`holodeck test` keep them in `results/<slug>/`), for the hover ("passed 17 of the last 20
runs; flaky") and the Testing view's items (flaky ones marked).

Read on a worker of its own, never on the event loop nor in the queries' line: a long
history not yet indexed takes a while, and completion must not wait for it. The index is
only read (the server writes nothing into a workspace), and what a folder gave is kept
until a file of it changes. A request waits a moment for it, then answers without it; the
next one finds it ready.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import threading
from pathlib import Path
from typing import TYPE_CHECKING

from holodeck_lsp.editing.outline import Symbol, suite_items
from holodeck_lsp.history.case_keys import CaseKey, case_keys
from holodeck_lsp.history.outcome_index import stamp
from holodeck_lsp.history.results_folder import RESULTS, results_folder, run_files
from holodeck_lsp.hygiene.controls import visible
from holodeck_lsp.hygiene.markdown import code_span
from holodeck_lsp.named_files import NotReadable, read_text
from holodeck_lsp.server.jobs import MAX_BYTES
from holodeck_lsp.server.worker import Worker

if TYPE_CHECKING:
    from holodeck_lsp.history.turn_standings import Standing, Standings

log = logging.getLogger(__name__)

WAIT_S = 1.0  # what a request waits for a history being read


def _signature(folder: Path) -> tuple[tuple[str, str], ...] | None:
    """What says the folder is as it was read: its run files and their stamps."""
    try:
        names = run_files(folder)
    except OSError:
        return None
    found = []
    for path in names:
        with contextlib.suppress(OSError):
            found.append((path.name, stamp(os.stat(path))))
    return tuple(found)


class KeptRuns:
    """The records of each results folder read, kept while its files are unchanged."""

    def __init__(self) -> None:
        self._worker: Worker | None = None
        self._cache: dict[Path, tuple[tuple[tuple[str, str], ...], Standings | None]] = {}
        self._names: dict[Path, tuple[int, str | None]] = {}  # an agent's text's hash, name
        self._lock = threading.Lock()

    def stop(self) -> None:
        if self._worker is not None:
            self._worker.stop()

    def _standings(self, folder: Path) -> Standings | None:
        """On the worker: the folder's records, read again only when a file changed."""
        signature = _signature(folder)
        if not signature:
            return None
        with self._lock:
            cached = self._cache.get(folder)
        if cached is not None and cached[0] == signature:
            return cached[1]
        from holodeck_lsp.history.turn_standings import standings  # see _for_agent

        found = standings(folder)
        with self._lock:
            self._cache[folder] = (signature, found)
        return found

    def _for_agent(self, agent: Path, text: str | None) -> Standings | None:
        """On the worker: the records of the agent file (read from disk without ``text``)."""
        if not (agent.parent / RESULTS).is_dir():  # no run kept: its name is not parsed
            return None
        # Here, not at the top: the history's reader loads the report models (a tenth of a
        # second), which the server's way to its first diagnostics does not need.
        from holodeck_lsp.history.run_history import agent_name_in

        if text is None:
            try:
                text = read_text(agent, MAX_BYTES)
            except NotReadable:
                return None
        known = self._names.get(agent)
        if known is not None and known[0] == hash(text):
            name = known[1]
        else:
            name = agent_name_in(text)
            self._names[agent] = (hash(text), name)
        if name is None:
            return None
        try:
            folder = results_folder(agent.parent, name)
        except ValueError:
            return None
        return self._standings(folder)

    async def for_agent(self, agent: Path, text: str | None = None) -> Standings | None:
        """The records of the agent file ``agent`` (its open text, else its file's); None
        when it keeps no runs, or while they are still being read."""
        if self._worker is None:
            self._worker = Worker("holodeck-history")
        job = self._worker.submit(self._for_agent, agent, text)
        try:
            return await asyncio.wait_for(asyncio.shield(asyncio.wrap_future(job)), WAIT_S)
        except asyncio.TimeoutError:  # still reading: ready for the next request
            return None
        except Exception:  # a history it cannot tell is no reason to fail a request
            log.exception("reading the run history of %s", agent)
            return None


def located(text: str, line: int, standalone: bool) -> tuple[CaseKey, int | None] | None:
    """The test case (its key) and turn (None: the case outside its turns) at ``line``
    (run on the query worker: it parses the document)."""
    cases = suite_items(text, standalone)
    if not cases:
        return None
    keys = document_keys(cases)
    for key, case in zip(keys, cases, strict=True):
        if case.range.start.line <= line <= case.range.end.line:
            for turn in case.children:
                if turn.range.start.line <= line <= turn.range.end.line:
                    return key, turn.index
            return key, None
    return None


def document_keys(cases: list[Symbol]) -> list[CaseKey]:
    """The keys of a document's test cases, as the kept runs key them."""
    indexes = [case.index if case.index is not None else i for i, case in enumerate(cases)]
    names: list[str | None] = [
        None if case.name == f"test_cases[{index}]" else case.name
        for case, index in zip(cases, indexes, strict=True)
    ]
    return case_keys(names, indexes)


def hover_text(standing: Standing, turn: int | None, markdown: bool) -> str:
    """The hover's line about the record: `History (turn 1): passed 17 of the last 20 runs;
    flaky`."""
    subject = f" (turn {turn})" if turn is not None else ""
    sentence = standing.sentence()
    if standing.failing_since is not None and markdown:
        head, _, when = sentence.rpartition("failing since ")
        sentence = f"{head}failing since {code_span(when)}"
    elif not markdown:
        sentence = visible(sentence)
    return f"**History{subject}:** {sentence}" if markdown else f"History{subject}: {sentence}"

"""Ctrl-C (SIGINT) and SIGTERM during `run`: the first stops the run, which still writes
what finished; a second one exits at once.

Before the run starts (loading, checks) a signal interrupts as usual; while writing the
artefacts, the first one is noted and the writing goes on (it takes milliseconds).
"""

from __future__ import annotations

import asyncio
import os
import signal
import threading
from types import FrameType
from typing import Any

from holodeck_lsp.exit_codes import EXIT_INTERRUPTED, EXIT_SIGNAL

_NAMES = {signal.SIGINT: "Ctrl-C (SIGINT)", signal.SIGTERM: "SIGTERM"}


class Interrupts:
    def __init__(self) -> None:
        self.reason: str | None = None
        self.exit_code = EXIT_INTERRUPTED
        self.phase = "setup"  # then "running", then "writing"
        self._loop: asyncio.AbstractEventLoop | None = None
        self._stop: asyncio.Event | None = None
        self._previous: dict[int, Any] = {}

    def __enter__(self) -> Interrupts:
        if threading.current_thread() is threading.main_thread():
            for number in _NAMES:
                self._previous[number] = signal.signal(number, self._handle)
        return self

    def __exit__(self, *exc: object) -> None:
        for number, previous in self._previous.items():
            signal.signal(number, previous)
        self._previous.clear()

    def attach(self) -> asyncio.Event:
        """While the run runs: a signal sets the returned event."""
        self._loop = asyncio.get_running_loop()
        self._stop = asyncio.Event()
        self.phase = "running"
        return self._stop

    def detach(self) -> None:
        self.phase = "writing"
        self._loop = self._stop = None

    def _handle(self, number: int, frame: FrameType | None) -> None:
        if self.reason is not None:
            # No buffered stream here: the handler may have interrupted a write to it.
            os.write(2, b"interrupted again: exiting at once, nothing more is written\n")
            os._exit(EXIT_SIGNAL + number)
        self.reason = f"interrupted by {_NAMES.get(signal.Signals(number), str(number))}"
        self.exit_code = EXIT_SIGNAL + number
        if self.phase == "setup":
            raise KeyboardInterrupt
        if self._loop is not None and self._stop is not None:
            self._loop.call_soon_threadsafe(self._stop.set)
        # While writing: noted; the artefacts are finished first.

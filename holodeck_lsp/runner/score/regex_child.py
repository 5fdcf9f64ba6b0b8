"""The process `regex_limit` matches in: Python's own `re`, so every verdict is HoloDeck's.

Run by path as `python -I -S regex_child.py PARENT_PID`: the standard library only, nothing from the
working directory. One request a line, `[pattern, text]` as ASCII JSON; one reply a line:
`1` (the whole text matches), `0` (it does not) or `!` and a JSON string (what went wrong).
The parent kills this process when a match overruns its limit. Ctrl-C in a terminal is the
parent's to handle, and a parent that is gone ends this process within half a second: `re`
checks for signals while it backtracks, so the watchdog's alarm runs even mid-match.
"""

from __future__ import annotations

import json
import os
import re
import signal
import sys
from types import FrameType

WATCH_EVERY = 0.5  # seconds between checks that the parent is still there


def _watch_parent(parent: int) -> None:
    """Exit once ``parent`` is no longer this process's parent (it may be gone already)."""

    def check(_number: int, _frame: FrameType | None) -> None:
        if os.getppid() != parent:
            os._exit(1)

    if hasattr(signal, "setitimer"):  # POSIX; elsewhere the parent's kill is the only end
        signal.signal(signal.SIGALRM, check)
        signal.setitimer(signal.ITIMER_REAL, WATCH_EVERY, WATCH_EVERY)
        check(signal.SIGALRM, None)


def _reply(line: bytes) -> bytes:
    try:
        pattern, text = json.loads(line)
        return b"1\n" if re.fullmatch(pattern, text) is not None else b"0\n"
    except Exception as exc:  # a bad request or MemoryError: told, and the next one served
        return b"!" + json.dumps(f"{type(exc).__name__}: {exc}"[:300]).encode() + b"\n"


def main() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _watch_parent(int(sys.argv[1]))
    for line in sys.stdin.buffer:
        sys.stdout.buffer.write(_reply(line))
        sys.stdout.buffer.flush()


if __name__ == "__main__":
    main()

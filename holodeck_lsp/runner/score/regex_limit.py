"""Full matches of `{regex: ...}` matchers under a time limit, off the event loop.

`re` cannot be stopped from outside, and it holds the GIL while it backtracks: a pattern
like `(a+)+b` against 34 `a` and `!` runs for hours and, on the event loop, would leave
Ctrl-C unheard. So matching happens in a child process (`regex_child.py`) running Python's
own `re` (the `regex` package differs from it on `\\w`, `\\s` and `[[:alpha:]]`): started on
the first match a run needs, killed when a regex overruns its ``REGEX_LIMIT`` or the run
is stopped, started again for the next match.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import sys
from collections.abc import Iterable, Mapping
from pathlib import Path

REGEX_LIMIT = 1.0  # seconds of matching one regex gets per turn, over all its texts
CHILD = Path(__file__).with_name("regex_child.py")

# What became of one (pattern, text): True or False, or why there is no verdict.
Verdict = bool | str
Verdicts = Mapping[tuple[str, str], Verdict]


def over_limit(limit: float) -> str:
    return f"timed out (a regex gets {limit:g} s of matching per turn)"


class RegexJudge:
    """One run's matches: a child process at a time, one match at a time."""

    def __init__(self, limit: float = REGEX_LIMIT) -> None:
        self.limit = limit
        self._process: asyncio.subprocess.Process | None = None
        self._killed: list[asyncio.subprocess.Process] = []  # reaped by close()
        self._lock = asyncio.Lock()

    async def judge(self, pairs: Iterable[tuple[str, str]]) -> dict[tuple[str, str], Verdict]:
        """The verdict on every (pattern, text) of one turn. Each pattern gets ``limit``
        seconds of matching over all its texts: a model that calls a tool a thousand times
        cannot make a turn take a thousand limits."""
        verdicts: dict[tuple[str, str], Verdict] = {}
        left: dict[str, float] = {}
        for pair in pairs:
            pattern = pair[0]
            if pair in verdicts:
                continue
            budget = left.get(pattern, self.limit)
            if budget <= 0:
                verdicts[pair] = over_limit(self.limit)
                continue
            verdicts[pair], spent = await self._one(*pair, budget)
            left[pattern] = budget - spent
        return verdicts

    async def _one(self, pattern: str, text: str, budget: float) -> tuple[Verdict, float]:
        """The verdict within ``budget`` seconds, and the seconds the match took."""
        request = json.dumps([pattern, text]).encode() + b"\n"  # ASCII: no locale involved
        loop = asyncio.get_running_loop()
        async with self._lock:
            process = self._process or await self._start()
            start = loop.time()
            try:
                reply = await asyncio.wait_for(_ask(process, request), budget)
            except asyncio.TimeoutError:
                self._kill()
                return over_limit(self.limit), budget
            except OSError:  # the child is gone (killed from outside, out of memory)
                reply = b""
            except BaseException:  # cancelled (Ctrl-C) or the pipe broke: it may be mid-match
                self._kill()
                raise
            spent = loop.time() - start
        if reply in (b"1\n", b"0\n"):
            return reply == b"1\n", spent
        self._kill()  # nothing else is ever written but a failure
        detail = json.loads(reply[1:]) if reply.startswith(b"!") else "the matcher process ended"
        return f"could not be matched: {detail}", spent

    async def _start(self) -> asyncio.subprocess.Process:
        self._process = await asyncio.create_subprocess_exec(
            sys.executable,
            "-I",
            "-S",
            str(CHILD),
            str(os.getpid()),
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.DEVNULL,
        )
        return self._process

    def _kill(self) -> None:
        process, self._process = self._process, None
        if process is not None:
            with contextlib.suppress(ProcessLookupError):
                process.kill()
            self._killed.append(process)

    async def close(self) -> None:
        """The child ended and reaped; the next match would start another."""
        self._kill()
        killed, self._killed = self._killed, []
        for process in killed:
            if process.stdin is not None:
                process.stdin.close()
            await process.wait()


async def _ask(process: asyncio.subprocess.Process, request: bytes) -> bytes:
    assert process.stdin is not None and process.stdout is not None
    process.stdin.write(request)
    await process.stdin.drain()
    return await process.stdout.readline()

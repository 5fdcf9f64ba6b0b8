"""Headless Chromium driven over the DevTools protocol on a pipe (`--remote-debugging-pipe`:
commands on fd 3, replies and events on fd 4, each message ended by a NUL byte): no
network port, no websocket library. Opens a local file, collects console errors and
uncaught exceptions, evaluates expressions, takes screenshots.

Debian's `chromium` package (`.ci/run` installs it); `CHROMIUM` names another binary.
"""

from __future__ import annotations

import base64
import fcntl
import json
import os
import select
import shutil
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Any

FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--remote-debugging-pipe",
)
PROBLEMS = ("Runtime.exceptionThrown", "Runtime.consoleAPICalled", "Log.entryAdded")


def find_chromium() -> str | None:
    return (
        os.environ.get("CHROMIUM") or shutil.which("chromium") or shutil.which("chromium-browser")
    )


class ChromiumError(Exception):
    pass


class Chromium:
    """One browser with a fresh profile and one page; use as a context manager."""

    def __init__(self, binary: str, timeout: float = 30.0) -> None:
        self.binary = binary
        self.timeout = timeout
        self.problems: list[str] = []  # console errors and uncaught exceptions of the page
        self._next = 0
        self._buffer = b""
        self._session: str | None = None

    def __enter__(self) -> Chromium:
        self._profile = tempfile.TemporaryDirectory(prefix="chromium-profile-")
        to_browser_r, to_browser_w = os.pipe()
        from_browser_r, from_browser_w = os.pipe()
        # Above the low numbers, so the child's dup2 onto 3 and 4 never clobbers one of them.
        high_r = fcntl.fcntl(to_browser_r, fcntl.F_DUPFD_CLOEXEC, 10)
        high_w = fcntl.fcntl(from_browser_w, fcntl.F_DUPFD_CLOEXEC, 10)

        def pipes_on_3_and_4() -> None:
            os.dup2(high_r, 3)
            os.dup2(high_w, 4)

        self.process = subprocess.Popen(
            [self.binary, *FLAGS, f"--user-data-dir={self._profile.name}", "about:blank"],
            preexec_fn=pipes_on_3_and_4,
            close_fds=False,  # our other descriptors are close-on-exec anyway
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        for fd in (to_browser_r, from_browser_w, high_r, high_w):
            os.close(fd)
        self._out = os.fdopen(to_browser_w, "wb", buffering=0)
        self._in = from_browser_r
        target = self.call("Target.createTarget", {"url": "about:blank"}, browser=True)
        attached = self.call(
            "Target.attachToTarget", {"targetId": target["targetId"], "flatten": True}, browser=True
        )
        self._session = attached["sessionId"]
        for domain in ("Page", "Runtime", "Log"):
            self.call(f"{domain}.enable")
        return self

    def __exit__(self, *exc: object) -> None:
        try:
            self.call("Browser.close", browser=True)
            self.process.wait(timeout=10)
        except (ChromiumError, OSError, subprocess.TimeoutExpired):
            self.process.kill()
            self.process.wait()
        finally:
            self._out.close()
            os.close(self._in)
            self._profile.cleanup()

    def _send(self, method: str, params: dict[str, Any] | None, browser: bool) -> int:
        self._next += 1
        message: dict[str, Any] = {"id": self._next, "method": method, "params": params or {}}
        if not browser and self._session is not None:
            message["sessionId"] = self._session
        self._out.write(json.dumps(message).encode() + b"\0")
        return self._next

    def _receive(self, deadline: float) -> dict[str, Any]:
        while b"\0" not in self._buffer:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([self._in], [], [], left)[0]:
                raise ChromiumError("no answer from Chromium in time")
            chunk = os.read(self._in, 1 << 16)
            if not chunk:
                raise ChromiumError("Chromium closed the pipe")
            self._buffer += chunk
        raw, self._buffer = self._buffer.split(b"\0", 1)
        message: dict[str, Any] = json.loads(raw)
        self._note(message)
        return message

    def _note(self, message: dict[str, Any]) -> None:
        method, params = message.get("method"), message.get("params", {})
        if method == "Runtime.exceptionThrown":
            details = params["exceptionDetails"]
            self.problems.append(f"exception: {details.get('exception', {}).get('description')}")
        elif method == "Runtime.consoleAPICalled" and params.get("type") in ("error", "assert"):
            texts = [str(a.get("value", a.get("description"))) for a in params.get("args", [])]
            self.problems.append(f"console.{params['type']}: {' '.join(texts)}")
        elif method == "Log.entryAdded" and params["entry"].get("level") == "error":
            self.problems.append(f"log: {params['entry'].get('text')}")

    def call(
        self, method: str, params: dict[str, Any] | None = None, browser: bool = False
    ) -> dict[str, Any]:
        ident = self._send(method, params, browser)
        deadline = time.monotonic() + self.timeout
        while True:
            message = self._receive(deadline)
            if message.get("id") == ident:
                if "error" in message:
                    raise ChromiumError(f"{method}: {message['error']}")
                result: dict[str, Any] = message.get("result", {})
                return result

    def open(self, path: Path, width: int = 1200, height: int = 900) -> float:
        """Navigate to a local file; seconds until its load event."""
        self.call(
            "Emulation.setDeviceMetricsOverride",
            {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False},
        )
        start = time.monotonic()
        self._send("Page.navigate", {"url": path.resolve().as_uri()}, browser=False)
        deadline = start + self.timeout
        while self._receive(deadline).get("method") != "Page.loadEventFired":
            pass
        return time.monotonic() - start

    def evaluate(self, expression: str) -> Any:
        result = self.call("Runtime.evaluate", {"expression": expression, "returnByValue": True})
        if "exceptionDetails" in result:
            raise ChromiumError(f"{expression}: {result['exceptionDetails']}")
        return result["result"].get("value")

    def screenshot(self, target: Path, full_page: bool = False) -> None:
        """The viewport, or the whole page (``full_page``), as a PNG file."""
        params: dict[str, Any] = {"format": "png"}
        if full_page:
            params["captureBeyondViewport"] = True
            size = self.call("Page.getLayoutMetrics")["cssContentSize"]
            params["clip"] = {
                "x": 0, "y": 0, "width": size["width"], "height": size["height"], "scale": 1,
            }  # fmt: skip
        shot = self.call("Page.captureScreenshot", params)
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(base64.b64decode(shot["data"]))

    def press(self, key: str) -> None:
        """A key pressed and released on the page, as a person types it (one character)."""
        for kind in ("keyDown", "keyUp"):
            event: dict[str, Any] = {"type": kind, "key": key, "code": f"Key{key.upper()}"}
            if kind == "keyDown":
                event["text"] = key
            self.call("Input.dispatchKeyEvent", event)

    def emulate_print(self, on: bool = True) -> None:
        """Styles as for printing (`@media print`), or back to the screen's."""
        self.call("Emulation.setEmulatedMedia", {"media": "print" if on else ""})

"""Scripted judge replies for the loopback model service: each request takes the next
action of the first rule whose marker is in the judge's prompt; the last action repeats."""

from __future__ import annotations

import json
import threading
from typing import Any

from tests.runner.fake_model import Action, Hang, Reply, last_user_text


def valid(payload: dict[str, Any], usage: tuple[int, int] = (100, 20)) -> Reply:
    """A judge reply carrying this JSON object."""
    return Reply(json.dumps(payload), usage=usage)


MALFORMED = Reply("I would rate this a four out of five.", usage=(100, 9))
SLOW = Hang()  # never answers: the judge call times out


class JudgeScript:
    def __init__(self, rules: dict[str, list[Action]]) -> None:
        self.rules = {marker: list(actions) for marker, actions in rules.items()}
        self.lock = threading.Lock()

    def __call__(self, path: str, body: dict[str, Any]) -> Action:
        prompt = last_user_text(body)
        with self.lock:
            for marker, queue in self.rules.items():
                if marker in prompt:
                    return queue.pop(0) if len(queue) > 1 else queue[0]
        return Reply(f"no judge script for {prompt[:60]!r}")

"""A model service on 127.0.0.1 that speaks the OpenAI Chat Completions, OpenAI Responses and
Anthropic Messages protocols, answering from one script: replies, tool calls, usage, delays,
429s, 5xxs, hangs; and OpenAI's `/embeddings`, with deterministic vectors (`fake_embeddings`).

Standard library only, so the tests need nothing but the runner's own dependencies.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from tests.runner.fake_embeddings import embeddings_payload


@dataclass
class Reply:
    text: str = ""
    tool_calls: list[tuple[str, dict[str, Any]]] = field(default_factory=list)
    usage: tuple[int, int] = (10, 5)
    delay: float = 0.0  # seconds before answering (server latency)


@dataclass
class Status:
    code: int
    retry_after: str | None = "0"
    body: str = '{"error": {"message": "scripted failure"}}'
    headers: dict[str, str] = field(default_factory=dict)  # rate-limit headers, say


@dataclass
class Hang:
    """Never answer (until the server stops)."""


@dataclass
class Drop:
    """Close the connection without answering: no status line."""


@dataclass
class Truncate:
    """Announce a body, send part of it, close the connection."""


@dataclass
class Raw:
    """Answer with this exact body (malformed JSON, a payload without choices, ...)."""

    body: str
    code: int = 200


@dataclass
class EchoHeaders:
    """A gateway that echoes the request's headers in its error body."""

    code: int = 401


Action = Reply | Status | Hang | Drop | Truncate | Raw | EchoHeaders
Script = Callable[[str, dict[str, Any]], Action]


def _part_text(content: Any) -> str | None:
    """The text of a message's content: a string, or typed parts with text (Responses API)."""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        texts = [p.get("text") for p in content if isinstance(p, dict)]
        if texts and all(isinstance(t, str) for t in texts):
            return "".join(t for t in texts if isinstance(t, str))
    return None


def _items(body: dict[str, Any]) -> list[dict[str, Any]]:
    """The conversation of a request, whichever protocol: `messages` or Responses `input`."""
    if "input" in body:
        raw = body["input"]
        if isinstance(raw, str):
            return [{"role": "user", "content": raw}]
        return [item for item in raw if isinstance(item, dict)]
    return [m for m in body.get("messages", []) if isinstance(m, dict)]


def _is_user_text(item: dict[str, Any]) -> bool:
    if item.get("role") != "user" or item.get("type", "message") != "message":
        return False
    content = item.get("content")
    if isinstance(content, list) and any(
        isinstance(b, dict) and b.get("type") == "tool_result" for b in content
    ):
        return False  # Anthropic tool results travel as user messages
    return _part_text(content) is not None


def last_user_text(body: dict[str, Any]) -> str:
    """The newest user message with text (tool results are skipped)."""
    for item in reversed(_items(body)):
        if _is_user_text(item):
            return _part_text(item["content"]) or ""
    return ""


def tool_results(body: dict[str, Any]) -> list[str]:
    """Tool results sent back since the newest user text."""
    out: list[str] = []
    for item in reversed(_items(body)):
        if _is_user_text(item):
            break
        if item.get("role") == "tool":
            out.append(item["content"])
        elif item.get("type") == "function_call_output":
            out.append(str(item.get("output", "")))
        elif item.get("role") == "user" and isinstance(item.get("content"), list):
            out.extend(b["content"] for b in item["content"] if b.get("type") == "tool_result")
    return list(reversed(out))


class Conversation:
    """A script keyed by the user's message: each request for that message takes the next
    action of its queue; the last action repeats."""

    def __init__(self, rules: dict[str, list[Action]] | None = None) -> None:
        self.rules = {k: list(v) for k, v in (rules or {}).items()}
        self.lock = threading.Lock()

    def __call__(self, path: str, body: dict[str, Any]) -> Action:
        text = last_user_text(body)
        with self.lock:
            queue = self.rules.get(text)
            if not queue:
                return Reply(f"no script for {text!r}")
            return queue.pop(0) if len(queue) > 1 else queue[0]


class Turns:
    """A stateless script keyed by the user's message: the action answering a request is
    chosen by how many tool results came back since that message (the first action answers
    the message, the next one the results of its tool calls, ...; the last one repeats).

    Stateless, so two clients (or one client retrying) get the same answers in any order.
    """

    def __init__(self, rules: dict[str, list[Action]], fallback: Action | None = None) -> None:
        self.rules = {k: list(v) for k, v in rules.items()}
        self.fallback = fallback

    def __call__(self, path: str, body: dict[str, Any]) -> Action:
        text = last_user_text(body)
        actions = self.rules.get(text)
        if not actions:
            return self.fallback or Reply(f"no script for {text!r}")
        answered = len(tool_results(body))
        for action in actions[:-1]:
            calls = len(action.tool_calls) if isinstance(action, Reply) else 0
            if answered < calls or calls == 0:
                return action
            answered -= calls
        return actions[-1]


def _chat_payload(reply: Reply, request_id: int) -> dict[str, Any]:
    calls = [
        {
            "id": f"call_{request_id}_{i}",
            "type": "function",
            "function": {"name": name, "arguments": json.dumps(args)},
        }
        for i, (name, args) in enumerate(reply.tool_calls)
    ]
    message: dict[str, Any] = {"role": "assistant", "content": reply.text or None}
    if calls:
        message["tool_calls"] = calls
    prompt, completion = reply.usage
    return {
        "id": f"chatcmpl-{request_id}",
        "object": "chat.completion",
        "choices": [
            {"index": 0, "message": message, "finish_reason": "tool_calls" if calls else "stop"}
        ],
        "usage": {
            "prompt_tokens": prompt,
            "completion_tokens": completion,
            "total_tokens": prompt + completion,
        },
    }


def _responses_payload(reply: Reply, request_id: int) -> dict[str, Any]:
    output: list[dict[str, Any]] = []
    if reply.text:
        output.append(
            {
                "type": "message",
                "id": f"msg_{request_id}",
                "role": "assistant",
                "status": "completed",
                "content": [{"type": "output_text", "text": reply.text, "annotations": []}],
            }
        )
    for i, (name, args) in enumerate(reply.tool_calls):
        output.append(
            {
                "type": "function_call",
                "id": f"fc_{request_id}_{i}",
                "call_id": f"call_{request_id}_{i}",
                "name": name,
                "arguments": json.dumps(args),
                "status": "completed",
            }
        )
    prompt, completion = reply.usage
    return {
        "id": f"resp_{request_id}",
        "object": "response",
        "created_at": 0,
        "model": "scripted",
        "status": "completed",
        "output": output,
        "parallel_tool_calls": True,
        "tool_choice": "auto",
        "tools": [],
        "usage": {
            "input_tokens": prompt,
            "output_tokens": completion,
            "total_tokens": prompt + completion,
            "input_tokens_details": {"cached_tokens": 0},
            "output_tokens_details": {"reasoning_tokens": 0},
        },
    }


def _messages_payload(reply: Reply, request_id: int) -> dict[str, Any]:
    content: list[dict[str, Any]] = []
    if reply.text:
        content.append({"type": "text", "text": reply.text})
    for i, (name, args) in enumerate(reply.tool_calls):
        content.append(
            {"type": "tool_use", "id": f"toolu_{request_id}_{i}", "name": name, "input": args}
        )
    prompt, completion = reply.usage
    return {
        "id": f"msg_{request_id}",
        "type": "message",
        "role": "assistant",
        "content": content,
        "stop_reason": "tool_use" if reply.tool_calls else "end_turn",
        "usage": {"input_tokens": prompt, "output_tokens": completion},
    }


_RENDERERS = {"messages": _messages_payload, "responses": _responses_payload}


class FakeModelServer:
    """Start with `with FakeModelServer(script) as server:`; `server.url` is the base URL."""

    def __init__(self, script: Script) -> None:
        self.script = script
        self.requests: list[tuple[str, dict[str, str], dict[str, Any]]] = []
        self.released = threading.Event()
        self._count = 0
        self._lock = threading.Lock()
        self._arrived = threading.Condition(self._lock)
        handler = self._handler_class()
        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), handler)
        self.httpd.daemon_threads = True
        self.thread = threading.Thread(
            target=self.httpd.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True
        )

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.httpd.server_address[1]}/v1"

    @property
    def root(self) -> str:
        return f"http://127.0.0.1:{self.httpd.server_address[1]}"

    def wait_for_requests(self, count: int, timeout: float = 30.0) -> None:
        """Until the server has seen ``count`` requests (an event, not a sleep)."""
        with self._arrived:
            if not self._arrived.wait_for(lambda: self._count >= count, timeout):
                raise TimeoutError(f"{self._count} request(s) seen, not {count}")

    def bodies(self) -> list[dict[str, Any]]:
        with self._lock:
            return [body for _, _, body in self.requests]

    def __enter__(self) -> FakeModelServer:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.released.set()
        self.httpd.shutdown()
        self.httpd.server_close()
        self.thread.join(timeout=5)

    def _handler_class(self) -> type[BaseHTTPRequestHandler]:
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"
            # Headers and body go out in separate writes: without this, Nagle's algorithm
            # and delayed ACKs add ~40 ms to every reply on loopback.
            disable_nagle_algorithm = True

            def log_message(self, format: str, *args: Any) -> None:
                return None

            def do_POST(self) -> None:
                length = int(self.headers.get("content-length", "0"))
                body = json.loads(self.rfile.read(length) or b"{}")
                with server._lock:
                    server._count += 1
                    request_id = server._count
                    server.requests.append((self.path, dict(self.headers.items()), body))
                    server._arrived.notify_all()
                if self.path.split("?")[0].endswith("/embeddings"):
                    self._send(200, json.dumps(embeddings_payload(body)).encode(), {})
                    return
                action = server.script(self.path, body)
                if isinstance(action, Drop):
                    self.close_connection = True
                    return
                if isinstance(action, Truncate):
                    self.send_response(200)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", "1000")
                    self.end_headers()
                    self.wfile.write(b'{"choices": [')
                    self.close_connection = True
                    return
                if isinstance(action, Raw):
                    self._send(action.code, action.body.encode(), {})
                    return
                if isinstance(action, EchoHeaders):
                    echoed = "; ".join(f"{k}: {v}" for k, v in self.headers.items())
                    payload = json.dumps({"error": {"message": f"refused; you sent {echoed}"}})
                    self._send(action.code, payload.encode(), {})
                    return
                if isinstance(action, Hang):
                    server.released.wait(timeout=30)
                    self._send(503, b"{}", {})
                    return
                if isinstance(action, Status):
                    headers = {"Retry-After": action.retry_after} if action.retry_after else {}
                    headers.update(action.headers)
                    self._send(action.code, action.body.encode(), headers)
                    return
                if action.delay:
                    time.sleep(action.delay)  # the server's own latency, not a test wait
                render = _RENDERERS.get(self.path.rstrip("/").rsplit("/", 1)[-1], _chat_payload)
                self._send(200, json.dumps(render(action, request_id)).encode(), {})

            def _send(self, code: int, payload: bytes, headers: dict[str, str]) -> None:
                try:
                    self.send_response(code)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(payload)))
                    for key, value in headers.items():
                        self.send_header(key, value)
                    self.end_headers()
                    self.wfile.write(payload)
                except OSError:
                    pass  # the client gave up (a timed-out turn)

        return Handler

"""A loopback stand-in for a Qdrant server, for tests and the corpus preflight.

No Qdrant server can be installed here (it is on none of the registries the project
installs from), so this test double answers the few REST calls the Qdrant store makes
(collection exists / create / delete, upsert, query) and hands each to qdrant-client's
own local in-memory engine: search results keep Qdrant's semantics, only the HTTP
layer is ours. It listens on 127.0.0.1 on an ephemeral port, in a thread of the caller.
"""

from __future__ import annotations

import json
import re
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from qdrant_client import QdrantClient, models

Route = Callable[[QdrantClient, str, dict[str, Any]], Any]


def _exists(engine: QdrantClient, name: str, body: dict[str, Any]) -> Any:
    return {"exists": engine.collection_exists(name)}


def _create(engine: QdrantClient, name: str, body: dict[str, Any]) -> Any:
    request = models.CreateCollection.model_validate(body)
    return engine.create_collection(name, vectors_config=request.vectors)


def _delete(engine: QdrantClient, name: str, body: dict[str, Any]) -> Any:
    return engine.delete_collection(name)


def _upsert(engine: QdrantClient, name: str, body: dict[str, Any]) -> Any:
    request = models.PointsList.model_validate(body)
    return engine.upsert(name, points=request.points).model_dump(mode="json")


def _query(engine: QdrantClient, name: str, body: dict[str, Any]) -> Any:
    request = models.QueryRequest.model_validate(body)
    query = request.query
    if isinstance(query, models.NearestQuery):
        query = query.nearest  # type: ignore[assignment]
    found = engine.query_points(
        name,
        query=query,
        limit=request.limit or 10,
        with_payload=request.with_payload if request.with_payload is not None else True,
    )
    return found.model_dump(mode="json")


ROUTES: dict[tuple[str, str], Route] = {
    ("GET", "/exists"): _exists,
    ("PUT", ""): _create,
    ("DELETE", ""): _delete,
    ("PUT", "/points"): _upsert,
    ("POST", "/points/query"): _query,
}
PATH = re.compile(r"^/collections/([^/?]+)(/[^?]*)?(?:\?.*)?$")


class _Handler(BaseHTTPRequestHandler):
    engine: QdrantClient
    lock: threading.Lock

    def _answer(self, method: str) -> None:
        started = time.perf_counter()
        match = PATH.match(self.path)
        route = ROUTES.get((method, match.group(2) or "")) if match else None
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length) if length else b""
        if match is None or route is None:
            self._send(404, {"status": {"error": f"not served here: {method} {self.path}"}})
            return
        try:
            with self.lock:
                result = route(self.engine, match.group(1), json.loads(raw) if raw else {})
        except Exception as exc:  # the client sees Qdrant's error shape, the server lives on
            self._send(400, {"status": {"error": f"{type(exc).__name__}: {exc}"}})
            return
        self._send(200, {"result": result, "status": "ok", "time": time.perf_counter() - started})

    def _send(self, code: int, body: dict[str, Any]) -> None:
        data = json.dumps(body).encode()
        self.send_response(code)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def do_GET(self) -> None:
        self._answer("GET")

    def do_PUT(self) -> None:
        self._answer("PUT")

    def do_POST(self) -> None:
        self._answer("POST")

    def do_DELETE(self) -> None:
        self._answer("DELETE")

    def log_message(self, format: str, *args: Any) -> None:
        pass  # quiet: tests compare output whole


@contextmanager
def qdrant_standin() -> Iterator[str]:
    """Serves until the block ends; yields the base URL (http://127.0.0.1:PORT)."""
    engine = QdrantClient(":memory:")
    handler = type("Handler", (_Handler,), {"engine": engine, "lock": threading.Lock()})
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)  # bound now: no wait needed
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()
        thread.join()
        engine.close()

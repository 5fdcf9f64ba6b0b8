"""Build the server: one routing table, every handler guarded; serve on stdio or TCP."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import sys
from collections.abc import Callable
from typing import Any, BinaryIO, cast

from lsprotocol import types
from pygls.exceptions import JsonRpcException
from pygls.lsp.server import LanguageServer

from holodeck_lsp import __version__
from holodeck_lsp.server import startup, timing
from holodeck_lsp.server.features import (
    code_actions,
    completion,
    definition,
    hover,
    lifecycle,
    runs,
    symbols,
    sync,
    test_items,
)
from holodeck_lsp.server.features import (
    pulled_diagnostics as diagnostics,
)
from holodeck_lsp.server.first_messages import FirstMessages
from holodeck_lsp.server.framing import GuardedReader
from holodeck_lsp.server.initialization import SERVER_NAME
from holodeck_lsp.server.protocol import Protocol, is_parse_error
from holodeck_lsp.server.routes import Route
from holodeck_lsp.server.session import Session
from holodeck_lsp.server.validation_scheduler import Validator

log = logging.getLogger("holodeck_lsp.server")

ROUTES: list[Route] = [
    *lifecycle.ROUTES,
    *sync.ROUTES,
    *diagnostics.ROUTES,
    *completion.ROUTES,
    *hover.ROUTES,
    *symbols.ROUTES,
    *definition.ROUTES,
    *code_actions.ROUTES,
    *runs.ROUTES,
    *test_items.ROUTES,
]


class HoloDeckServer(LanguageServer):
    def report_server_error(self, error: Exception, source: Any) -> None:
        if source is JsonRpcException and is_parse_error(error):  # the body is not JSON
            assert isinstance(self.protocol, Protocol)
            self.protocol.unparsable(error)
        # pygls would pop a message up in the editor; a log line is enough.
        log.warning("protocol error (%s): %s", getattr(source, "__name__", source), error)

    def shutdown(self) -> None:
        # Never wait for the stdin reader thread: it may be blocked on a read forever.
        if self._stop_event is not None:
            self._stop_event.set()
        if self._thread_pool is not None:
            self._thread_pool.shutdown(wait=False, cancel_futures=True)
        if self._server is not None:
            self._server.close()


def _guard(session: Session, route: Route) -> Callable[[Any], Any]:
    """The handler, with any internal error logged and answered by an empty result."""

    def failed(exc: BaseException) -> Any:
        log.error("%s failed", route.method, exc_info=exc)
        with contextlib.suppress(Exception):
            session.log(
                f"internal error in {route.method}: {type(exc).__name__}: {exc}",
                types.MessageType.Error,
            )
        return route.empty()

    if asyncio.iscoroutinefunction(route.handler):

        async def run_async(params: Any) -> Any:
            try:
                return await route.handler(session, params)
            except (asyncio.CancelledError, JsonRpcException):  # cancelled, ContentModified
                raise
            except Exception as exc:
                return failed(exc)

        return run_async

    def run(params: Any) -> Any:
        try:
            return route.handler(session, params)
        except Exception as exc:
            return failed(exc)

    return run


def _register(server: LanguageServer, session: Session, route: Route) -> None:
    server.feature(route.method, route.options)(_guard(session, route))


def create_server(validator: Validator | None = None,
                  first: FirstMessages | None = None) -> HoloDeckServer:
    """The server; ``first``: what read the client's first messages (start.serve)."""
    server = HoloDeckServer(SERVER_NAME, __version__, protocol_cls=Protocol)
    assert isinstance(server.protocol, Protocol)
    server.protocol.first = first
    session = Session(server, validator, adopt=first.adopt if first is not None else None)
    conditional = [r for r in ROUTES if r.when is not None]

    def initialize(session: Session, params: types.InitializeParams) -> None:
        lifecycle.initialize(session, params)
        for route in conditional:  # pygls computes capabilities after this returns
            if route.when is not None and route.when(session.features):
                _register(server, session, route)

    for route in ROUTES:
        if route.method == types.INITIALIZE:
            route = Route(route.method, initialize)
        if route.when is None:
            _register(server, session, route)
    runs.register(server, session)
    server.session = session  # type: ignore[attr-defined]
    return server


def _configure_logging() -> None:
    level = os.environ.get("HOLODECK_LSP_LOG", "warning").upper()
    logging.basicConfig(
        stream=sys.stderr,
        level=getattr(logging, level, logging.WARNING),
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
    )


def serve(pipes: tuple[BinaryIO, BinaryIO], validator: Validator,
          host: str | None = None, port: int | None = None,
          first: FirstMessages | None = None) -> None:
    """Run the language server on the client's ``pipes``, or on TCP when a port is given.
    `start.serve` calls this, once it has taken the pipes, started the worker and begun
    reading the client's first messages (``first``, on stdio)."""
    _configure_logging()
    reader, writer = pipes
    server = create_server(validator, first)
    startup.settle_soon()  # the collector, the late imports: see startup.settle
    timing.mark("server built")
    if port is not None:
        reader.close()
        writer.close()
        server.start_tcp(host or "127.0.0.1", port)
    else:
        if first is not None:
            first.hand_over()
            reader = first.reader
        # pygls calls only `readline` and `read` of its stdin: a guard of the framing.
        server.start_io(cast(BinaryIO, GuardedReader(reader)), writer)


__all__ = ["ROUTES", "create_server", "serve"]

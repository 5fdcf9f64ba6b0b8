"""pygls' protocol, made to answer every request and to keep only our copy of documents.

pygls logs and drops a message it cannot read: a request with params of the wrong
shape, a body that is not JSON, an `id` without a method. An editor waiting on such
a request would wait forever, so each gets its JSON-RPC error here: -32602 (invalid
params), -32700 (parse error, id null), -32600 (invalid request). A notification that
cannot be read is logged and dropped, as JSON-RPC wants (nothing to answer).

The `initialize` params are kept as JSON (`initialize_params`: the session reads them,
`initialization.py`). An `initialize` answered before pygls loaded (`first_messages.py`)
is answered once: pygls's own answer is dropped (a warning if it differs), and params
it cannot read give it a client without capabilities instead of an error.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Generator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from lsprotocol import types
from pygls.protocol import LanguageServerProtocol
from pygls.protocol.language_server import lsp_method

if TYPE_CHECKING:
    from holodeck_lsp.server.first_messages import FirstMessages

log = logging.getLogger(__name__)

PARSE_ERROR = -32700
INVALID_REQUEST = -32600
INVALID_PARAMS = -32602


@dataclass(frozen=True)
class Unreadable:
    """A message that could not be read, with the error to answer (when it is a request)."""

    id: int | str | None
    code: int
    message: str
    answer: bool


def _request_id(data: dict[str, Any]) -> int | str | None:
    value = data.get("id")
    return value if isinstance(value, (int, str)) and not isinstance(value, bool) else None


def _shape_problem(data: dict[str, Any]) -> Unreadable | None:
    """What makes ``data`` no JSON-RPC message pygls can read, if anything."""
    method = data.get("method")
    has_id = "id" in data
    if data.get("jsonrpc") != "2.0":
        return Unreadable(_request_id(data), INVALID_REQUEST,
                          'Invalid Request: "jsonrpc" must be "2.0"', has_id)
    if "method" in data:
        if not isinstance(method, str):
            return Unreadable(_request_id(data), INVALID_REQUEST,
                              "Invalid Request: the method must be a string", has_id)
        if has_id and _request_id(data) is None:
            return Unreadable(None, INVALID_REQUEST,
                              "Invalid Request: the id must be a number or a string", True)
        return None
    if has_id and "result" not in data and "error" not in data:
        return Unreadable(_request_id(data), INVALID_REQUEST,
                          "Invalid Request: no method, and not a response", True)
    return None


class Protocol(LanguageServerProtocol):
    """pygls' protocol with an answer for every unreadable request, and without its own
    copy of open documents (the session keeps them).

    The built-in document handlers would apply every edit to a second store with
    per-line Python loops; these pass the notifications straight to our handlers.
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.initialize_params: Any = None  # as the client sent them (JSON)
        self.first: FirstMessages | None = None  # what read the client's first messages
        self._answer_dropped = False

    def _answered_early(self, msg_id: Any) -> dict[str, Any] | None:
        """The result already sent for request ``msg_id``, if it is the early `initialize`."""
        answered = self.first.answered if self.first is not None else None
        if (answered is None or self._answer_dropped or type(msg_id) is not type(answered.id)
                or msg_id != answered.id):
            return None
        return answered.result

    def structure_message(self, data: dict[str, Any]) -> Any:
        # Called for every JSON object of a body, innermost first; only messages matter.
        if "jsonrpc" not in data or not ("method" in data or "id" in data):
            return data
        problem = _shape_problem(data)
        if problem is not None:
            return problem
        if data.get("method") == types.INITIALIZE:
            self.initialize_params = data.get("params")
        try:
            return super().structure_message(data)
        except Exception as exc:  # pygls raises its own errors, wrapping cattrs' reasons
            method = data.get("method")
            if method == types.INITIALIZE and self._answered_early(data.get("id")) is not None:
                log.warning("cannot read the initialize params (%s); the session reads what "
                            "it can of them", exc.__cause__ or exc)
                bare: dict[str, Any] = {"processId": None, "rootUri": None, "capabilities": {}}
                return super().structure_message({**data, "params": bare})
            log.warning("cannot read the params of %s: %s", method, exc.__cause__ or exc)
            return Unreadable(_request_id(data), INVALID_PARAMS,
                              f"Invalid params for {method}", "id" in data and "method" in data)

    def handle_message(self, message: Any) -> None:
        if isinstance(message, Unreadable):
            self.reject(message)
        elif isinstance(message, dict):  # JSON, but no JSON-RPC message (no "jsonrpc")
            self.reject(Unreadable(_request_id(message), INVALID_REQUEST,
                                   "Invalid Request: not a JSON-RPC 2.0 message", True))
        elif not hasattr(message, "jsonrpc"):  # a batch, a number, a string
            self.reject(Unreadable(None, INVALID_REQUEST,
                                   "Invalid Request: not a JSON-RPC 2.0 message", True))
        elif (self._shutdown and getattr(message, "method", types.EXIT) != types.EXIT
              and getattr(message, "id", None) is not None):
            self.reject(Unreadable(message.id, INVALID_REQUEST,
                                   "Invalid Request: the server is shutting down", True))
        else:
            super().handle_message(message)

    def _send_response(self, msg_id: Any, result: Any = None, error: Any = None) -> None:
        sent = self._answered_early(msg_id)
        if sent is None:
            super()._send_response(msg_id, result, error)
            return
        self._answer_dropped = True
        computed = self._converter.unstructure(result) if error is None else error
        if computed != sent:
            log.warning("initialize was answered early with %s; pygls computes %s", sent,
                        computed)

    def reject(self, problem: Unreadable) -> None:
        if not problem.answer:
            log.warning("dropped an unreadable notification: %s", problem.message)
            return
        # A plain dict: pygls' own response type drops an id of null, which JSON-RPC wants.
        self._send_data({"jsonrpc": "2.0", "id": problem.id,
                         "error": {"code": problem.code, "message": problem.message}})

    def unparsable(self, error: Exception) -> None:
        """A body that is not JSON (or not UTF-8, or nested too deep for the JSON parser):
        answered with a parse error."""
        reason = ("lists and mappings nested too deep for the JSON parser"
                  if isinstance(error, RecursionError) else error)
        self.reject(Unreadable(None, PARSE_ERROR, f"Parse error: {reason}", True))

    def _user(self, method: str, params: Any) -> Generator[Any, Any, None]:
        handler = self.fm.features.get(method)
        if handler is not None:
            yield handler, (params,), None

    @lsp_method(types.TEXT_DOCUMENT_DID_OPEN)
    def lsp_text_document__did_open(
        self, params: types.DidOpenTextDocumentParams
    ) -> Generator[Any, Any, None]:
        yield from self._user(types.TEXT_DOCUMENT_DID_OPEN, params)

    @lsp_method(types.TEXT_DOCUMENT_DID_CHANGE)
    def lsp_text_document__did_change(
        self, params: types.DidChangeTextDocumentParams
    ) -> Generator[Any, Any, None]:
        yield from self._user(types.TEXT_DOCUMENT_DID_CHANGE, params)

    @lsp_method(types.TEXT_DOCUMENT_DID_CLOSE)
    def lsp_text_document__did_close(
        self, params: types.DidCloseTextDocumentParams
    ) -> Generator[Any, Any, None]:
        yield from self._user(types.TEXT_DOCUMENT_DID_CLOSE, params)


def is_parse_error(error: Exception) -> bool:
    """Whether the message loop failed on the body itself (JSON, UTF-8, or nesting: the
    JSON parser recurses once per level)."""
    return isinstance(error, (json.JSONDecodeError, UnicodeDecodeError, RecursionError))

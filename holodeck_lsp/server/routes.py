"""How a feature module declares the LSP methods it answers."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from pygls.exceptions import JsonRpcException

from holodeck_lsp.server.capabilities import ClientFeatures

if TYPE_CHECKING:
    from holodeck_lsp.server.session import Session

REQUEST_FAILED = -32803  # LSP's RequestFailed: the request was valid but could not be done


class Refused(JsonRpcException):
    """Raised by a handler: the request is answered with RequestFailed and the message
    (any other exception is an internal error, logged and answered empty)."""

    CODE = REQUEST_FAILED


@dataclass(frozen=True)
class Route:
    """One LSP method, its handler and what to answer if the handler fails."""

    method: str
    handler: Callable[[Session, Any], Any]  # plain function or coroutine function
    options: Any = None
    # Registered only for clients that have the feature (decided at `initialize`).
    when: Callable[[ClientFeatures], bool] | None = None
    empty: Callable[[], Any] = lambda: None

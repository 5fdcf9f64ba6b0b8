"""MCP servers (`type: mcp`) over stdio, streamable HTTP or SSE, through the `mcp` SDK.

The SDK is imported only when a server starts, so nothing else pays for it. Each server
lives in a task of its own, which enters and leaves the SDK's transport and session
(they must be left by the task that entered them); calls from any test case go through
the session it opened.
"""

from __future__ import annotations

import asyncio
import json
import tempfile
from collections.abc import Mapping
from contextlib import AsyncExitStack
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

from holodeck_lsp.install_hints import install_extra
from holodeck_lsp.models.tools import MCPTool, TransportType
from holodeck_lsp.runner.tools.mcp_environment import McpSetupError, ServerEnvironment
from holodeck_lsp.runner.tools.tool_kind import (
    FunctionSpec,
    ToolContext,
    ToolKind,
    ToolOutput,
    ToolStartError,
)

if TYPE_CHECKING:
    from mcp.client.session import ClientSession

EXTRA_HINT = f"the MCP client is not installed: {install_extra('mcp')}"
START_TIMEOUT = 60.0  # seconds to connect and list tools, unless `timeout:` says otherwise
STDERR_TAIL_LINES = 20
CLOSE_TIMEOUT = 15.0


def resolve_args(args: list[str], folder: Path) -> list[str]:
    """`./x` and `../x` arguments become absolute paths from the agent's folder."""
    return [str((folder / a).resolve()) if a.startswith(("./", "../")) else a for a in args]


def allowed_tools(tool: MCPTool) -> set[str] | None:
    allowed = (tool.config or {}).get("allowed_tools")
    return {str(name) for name in allowed} if isinstance(allowed, list) and allowed else None


def _tail(log: IO[str] | None) -> str | None:
    if log is None:
        return None
    try:
        log.flush()
        log.seek(0)
        lines = log.read().splitlines()
    except (OSError, ValueError):
        return None
    return "\n".join(lines[-STDERR_TAIL_LINES:]) or None


def _describe(exc: BaseException) -> str:
    """The innermost useful message; the SDK wraps failures in exception groups."""
    while getattr(exc, "exceptions", None):
        exc = exc.exceptions[0]  # type: ignore[attr-defined]
    text = str(exc) or type(exc).__name__
    return text if isinstance(exc, OSError) else f"{type(exc).__name__}: {text}"


def _content_text(item: Any) -> str:
    kind = getattr(item, "type", None)
    if kind == "text":
        return str(item.text)
    if kind == "image" or kind == "audio":
        return f"[{kind}: {getattr(item, 'mime_type', '')}]"
    dump = item.model_dump(mode="json", by_alias=True, exclude_none=True)
    return json.dumps(dump, ensure_ascii=False)


class McpServerKind:
    """One `type: mcp` entry: a server connection, its tools offered by their own names."""

    def __init__(self, tool: MCPTool, folder: Path) -> None:
        self.tool = tool
        self.folder = folder
        self.tool_name = tool.name
        self.is_retrieval = tool.is_retrieval
        self._session: ClientSession | None = None
        self._task: asyncio.Task[None] | None = None
        self._stop = asyncio.Event()
        self._stderr: IO[str] | None = None
        # Set once a stdio server's process is launched: its environment, for the note of a
        # server that then fails to start; and the shell it was launched from.
        self._environment: ServerEnvironment | None = None
        self._shell: Mapping[str, str] = {}

    def fresh(self) -> ToolKind:
        return McpServerKind(self.tool, self.folder)

    def per_case(self, ctx: ToolContext) -> bool:
        return ctx.isolate_mcp

    async def start(self, ctx: ToolContext) -> list[FunctionSpec]:
        try:
            import mcp  # noqa: F401
        except ImportError:
            raise ToolStartError(self.tool_name, EXTRA_HINT) from None
        self._shell = ctx.env
        ready: asyncio.Future[list[FunctionSpec]] = asyncio.get_running_loop().create_future()
        self._task = asyncio.create_task(self._serve(ready))
        limit = self.tool.timeout or START_TIMEOUT
        try:
            specs = await asyncio.wait_for(asyncio.shield(ready), limit)
        except (asyncio.TimeoutError, TimeoutError):
            raise await self._failed(
                f"no answer within {limit:g}s (connect and list tools)"
            ) from None
        except McpSetupError as exc:
            raise await self._failed(str(exc)) from None
        except Exception as exc:
            raise await self._failed(_describe(exc)) from None
        return specs

    async def _failed(self, message: str) -> ToolStartError:
        """The error for a server that did not start, with its stderr and, for a process
        that was launched, the environment it had; closes it."""
        tail = _tail(self._stderr)
        environment = self._environment
        notes = environment.note(self._shell) if environment is not None else []
        await self.close()
        return ToolStartError(self.tool_name, message, tail, notes)

    async def _serve(self, ready: asyncio.Future[list[FunctionSpec]]) -> None:
        """Open the connection, list tools, then hold it open until `close`."""
        try:
            async with AsyncExitStack() as stack:
                read, write = await self._connect(stack)
                from mcp.client.session import ClientSession

                session = await stack.enter_async_context(ClientSession(read, write))
                await session.initialize()
                specs = await self._list(session)
                self._session = session
                ready.set_result(specs)
                await self._stop.wait()
        except BaseException as exc:
            if not ready.done():
                ready.set_exception(exc if isinstance(exc, Exception) else RuntimeError(exc))
            if not isinstance(exc, Exception):
                raise
        finally:
            self._session = None

    async def _connect(self, stack: AsyncExitStack) -> tuple[Any, Any]:
        tool = self.tool
        if tool.transport is TransportType.STDIO:
            from mcp.client.stdio import StdioServerParameters, stdio_client

            environment = ServerEnvironment(tool, self.folder, self._shell)
            params = StdioServerParameters(
                command=tool.command.value if tool.command else "npx",
                args=resolve_args(tool.args or [], self.folder),
                env=environment.added,
                encoding=tool.encoding or "utf-8",
            )
            # A real file: the server process writes its stderr there; its tail explains
            # a server that does not start.
            # Closed by `close`, after a failed start has read its tail.
            self._stderr = tempfile.TemporaryFile("w+", encoding="utf-8", errors="replace")  # noqa: SIM115
            try:
                self._environment = environment
                streams = await stack.enter_async_context(stdio_client(params, self._stderr))
            except OSError as exc:
                self._environment = None  # not launched: its environment is not the cause
                raise McpSetupError(
                    f"cannot run '{params.command}': {exc.strerror or exc}"
                ) from None
            return streams[0], streams[1]
        if tool.transport is TransportType.HTTP:
            import httpx2
            from mcp.client.streamable_http import streamable_http_client

            client = await stack.enter_async_context(httpx2.AsyncClient(**self._http_options()))
            streams = await stack.enter_async_context(
                streamable_http_client(
                    tool.url or "",
                    http_client=client,
                    terminate_on_close=tool.terminate_on_close is not False,
                )
            )
            return streams[0], streams[1]
        if tool.transport is TransportType.SSE:
            from mcp.client.sse import sse_client

            kwargs: dict[str, Any] = {"headers": tool.headers or None}
            if tool.timeout is not None:
                kwargs["timeout"] = tool.timeout
            if tool.sse_read_timeout is not None:
                kwargs["sse_read_timeout"] = tool.sse_read_timeout
            streams = await stack.enter_async_context(sse_client(tool.url or "", **kwargs))
            return streams[0], streams[1]
        raise McpSetupError(f"transport '{tool.transport.value}' is not supported")

    def _http_options(self) -> dict[str, Any]:
        import httpx2

        tool = self.tool
        connect = tool.timeout if tool.timeout is not None else 30.0
        read = tool.sse_read_timeout if tool.sse_read_timeout is not None else 300.0
        options: dict[str, Any] = {"timeout": httpx2.Timeout(connect, read=read)}
        if tool.headers:
            options["headers"] = dict(tool.headers)
        return options

    async def _list(self, session: ClientSession) -> list[FunctionSpec]:
        allowed = allowed_tools(self.tool)
        specs: list[FunctionSpec] = []
        cursor: str | None = None
        while True:
            from mcp.types import PaginatedRequestParams

            params = PaginatedRequestParams(cursor=cursor) if cursor else None
            page = await session.list_tools(params=params)
            for tool in page.tools:
                if allowed is None or tool.name in allowed:
                    schema = dict(tool.input_schema or {"type": "object", "properties": {}})
                    specs.append(FunctionSpec(tool.name, tool.description or "", schema))
            cursor = page.next_cursor
            if not cursor:
                return specs

    async def call(self, name: str, args: dict[str, Any]) -> ToolOutput:
        session = self._session
        if session is None:
            raise RuntimeError(f"MCP server '{self.tool_name}' is not connected")
        result = await session.call_tool(
            name, args, read_timeout_seconds=float(self.tool.request_timeout)
        )
        # The text parts, as the model gets them (HoloDeck hands over the text items too;
        # structured content is not used).
        parts = [_content_text(item) for item in getattr(result, "content", [])]
        text = "\n".join(parts)
        if getattr(result, "is_error", False):
            return ToolOutput(text, error=text or "the server reported an error")
        # One passage per call, as for the other retrieval tools.
        return ToolOutput(text, retrieval=[text] if self.is_retrieval and text else None)

    async def close(self) -> None:
        self._stop.set()
        task, self._task = self._task, None
        if task is not None:
            # The SDK stops a stdio server within ~6 s (stdin closed, then SIGTERM, then
            # SIGKILL); past that, the connection is cut.
            done, _ = await asyncio.wait({task}, timeout=CLOSE_TIMEOUT)
            if not done:
                task.cancel()
            await asyncio.gather(task, return_exceptions=True)
        if self._stderr is not None:
            self._stderr.close()
            self._stderr = None

"""An MCP server written with the `mcp` SDK, for the runner's tests.

    python sdk_server.py stdio          serve on stdin/stdout
    python sdk_server.py http|sse       serve on 127.0.0.1, an ephemeral port, printed as
                                        `PORT <n>` on stdout once it listens
    python sdk_server.py crash          write a complaint on stderr and exit 3
    python sdk_server.py needs NAME     as `stdio` when the variable NAME is set, else as
                                        a server needing a key: a complaint, exit 3

`MCP_SERVER_NAME` (default "sdk") prefixes the tool names, so two servers can differ.
"""

from __future__ import annotations

import asyncio
import os
import socket
import sys

from mcp.server.mcpserver import Context, MCPServer
from mcp.server.mcpserver.exceptions import ToolError

PREFIX = os.environ.get("MCP_SERVER_NAME", "")
server: MCPServer = MCPServer("holodeck-lsp test server", log_level="WARNING")
calls: list[str] = []


@server.tool(name=f"{PREFIX}echo", description="Says the text back.")
def echo(text: str) -> str:
    calls.append(text)
    return f"echo: {text}"


@server.tool(name=f"{PREFIX}count", description="How many echo calls this server answered.")
def count() -> str:
    return str(len(calls))


@server.tool(name=f"{PREFIX}env", description="An environment variable of the server.")
def env(name: str) -> str:
    return os.environ.get(name, "<unset>")


@server.tool(name=f"{PREFIX}header", description="An HTTP header of the call (none on stdio).")
def header(name: str, ctx: Context) -> str:
    headers = ctx.headers or {}
    return str(headers.get(name.lower(), "<none>"))


@server.tool(name=f"{PREFIX}refuse", description="Always fails.")
def refuse(reason: str) -> str:
    raise ToolError(f"refused: {reason}")


@server.tool(name=f"{PREFIX}sleep", description="Answers after some seconds.")
async def sleep(seconds: float) -> str:
    await asyncio.sleep(seconds)
    return "awake"


@server.tool(name=f"{PREFIX}passages", description="Two passages about a topic.")
def passages(topic: str) -> list[str]:
    return [f"{topic} passage one", f"{topic} passage two"]


@server.tool(name=f"{PREFIX}die", description="Ends the server process at once.")
def die() -> str:
    os._exit(7)


async def serve_http(transport: str) -> None:
    import uvicorn

    app = server.sse_app() if transport == "sse" else server.streamable_http_app()
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", 0))
    config = uvicorn.Config(app, log_level="warning", lifespan="on")
    web = uvicorn.Server(config)
    task = asyncio.create_task(web.serve(sockets=[sock]))
    while not web.started:
        if task.done():
            await task
            return
        await asyncio.sleep(0.01)
    print(f"PORT {sock.getsockname()[1]}", flush=True)
    await task


def main() -> None:
    mode = sys.argv[1] if len(sys.argv) > 1 else "stdio"
    if mode == "crash":
        sys.stderr.write("starting the test server\nfatal: the database is locked\n")
        sys.exit(3)
    if mode == "needs":
        if sys.argv[2] not in os.environ:
            sys.stderr.write(f"fatal: {sys.argv[2]} is not set\n")
            sys.exit(3)
        mode = "stdio"
    if mode == "stdio":
        server.run("stdio")
    else:
        asyncio.run(serve_http(mode))


if __name__ == "__main__":
    main()

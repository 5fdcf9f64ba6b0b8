"""A stdio MCP server in the standard library alone (it starts in milliseconds), for the
masking tests: one tool, named by its environment's FACTS_TOOL, that answers a topic with
a fact; asked for `credentials`, it answers with its SERVICE_TOKEN, as a careless server
would. JSON-RPC 2.0, one message a line, as the MCP stdio transport has it.
"""

from __future__ import annotations

import json
import os
import sys
from typing import Any

TOOL = os.environ.get("FACTS_TOOL", "lookup")


def _answer(method: str, params: dict[str, Any]) -> dict[str, Any]:
    if method == "initialize":
        return {
            "protocolVersion": params.get("protocolVersion", "2025-06-18"),
            "capabilities": {"tools": {}},
            "serverInfo": {"name": "facts", "version": "1.0"},
        }
    if method == "tools/list":
        schema = {"type": "object", "properties": {"topic": {"type": "string"}}}
        return {"tools": [{"name": TOOL, "description": "A fact.", "inputSchema": schema}]}
    if method == "tools/call":
        topic = params.get("arguments", {}).get("topic", "")
        fact = os.environ.get("SERVICE_TOKEN", "") if topic == "credentials" else "42"
        return {"content": [{"type": "text", "text": f"{TOOL} says: {fact}"}], "isError": False}
    return {}


def main() -> None:
    for line in sys.stdin:
        message = json.loads(line)
        if "id" not in message:
            continue  # a notification
        result = _answer(message.get("method", ""), message.get("params") or {})
        reply = {"jsonrpc": "2.0", "id": message["id"], "result": result}
        sys.stdout.write(json.dumps(reply) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()

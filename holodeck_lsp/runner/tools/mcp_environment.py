"""The environment a stdio MCP server starts with, and the note that says so when it does
not start.

As HoloDeck does (`holodeck/lib/backends/mcp_bridge.py`), a server gets the MCP SDK's
default environment (`HOME`, `PATH` and a few more) plus its tool's `env_file:` and
`env:`; nothing else of the shell reaches it, which is why a server needing a key that is
exported in the shell still fails. The note names variables only, never their values.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path

from holodeck_lsp.models.tools import MCPTool
from holodeck_lsp.runner.services.redaction import active
from holodeck_lsp.runner.services.secret_sources import SECRET_NAME, server_environment_secrets

# Credential-named variables of the shell a note lists, at most.
LISTED = 8


class McpSetupError(Exception):
    """The YAML entry cannot be turned into a server connection (before starting it)."""


def read_env_file(path: Path) -> dict[str, str]:
    """`KEY=VALUE` lines; blank lines and `#` comments skipped; values taken as written."""
    values: dict[str, str] = {}
    for raw in path.read_text(encoding="utf-8").splitlines():
        line = raw.strip()
        if not line or line.startswith("#") or "=" not in line:
            continue
        key, value = line.split("=", 1)
        values[key.strip()] = value.strip()
    return values


class ServerEnvironment:
    """What is added to the SDK's default environment, and where each name came from."""

    def __init__(self, tool: MCPTool, folder: Path, shell: Mapping[str, str]) -> None:
        self.added: dict[str, str] = {}
        self.origins: dict[str, str] = {}  # name -> "env_file", "env" or "config"
        if tool.env_file:
            path = folder / tool.env_file
            try:
                self._add(read_env_file(path), "env_file")
            except (OSError, UnicodeDecodeError) as exc:
                raise McpSetupError(f"cannot read env_file {path}: {exc}") from None
        self._add(tool.env or {}, "env")
        # Its secrets (by their names, or shaped like keys) are masked everywhere: a server
        # that fails to start may print its environment to the stderr we show. The rest
        # (a tool's name, a region) are settings, and reports keep them.
        active().add_all(server_environment_secrets(self.added, shell), agent_file=True)
        if tool.config:
            self._add({"MCP_CONFIG": json.dumps(tool.config)}, "config")

    def _add(self, values: Mapping[str, str], origin: str) -> None:
        self.added.update(values)
        self.origins.update(dict.fromkeys(values, origin))

    def note(self, shell: Mapping[str, str]) -> list[str]:
        """Lines for a server that did not start: the names that reached it, the shell's
        credential-named variables that did not, and how to pass them."""
        from mcp.client.stdio import get_default_environment

        defaults = sorted(set(get_default_environment()) - set(self.added))
        reached = [", ".join(defaults) + " (the MCP SDK's defaults)"] if defaults else []
        for origin in ("env_file", "env", "config"):
            names = sorted(n for n, o in self.origins.items() if o == origin)
            if names:
                reached.append(f"{', '.join(names)} (its {origin}:)")
        lines = ["its environment held only " + "; ".join(reached or ["nothing"])]
        passed = set(defaults) | set(self.added)
        left = sorted(n for n in shell if SECRET_NAME.search(n) and n not in passed)
        if left:
            more = f" and {len(left) - LISTED} more" if len(left) > LISTED else ""
            lines.append(f"not passed from this shell: {', '.join(left[:LISTED])}{more}")
        lines.append(
            "pass a variable under the tool's `env:` (NAME: ${NAME}) or in its `env_file:`"
        )
        return lines

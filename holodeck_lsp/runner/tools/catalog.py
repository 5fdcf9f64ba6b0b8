"""From the agent's `tools:` to a ToolBox: one ToolKind per entry of a kind this runner
runs; the others are warned about and not offered to the model."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from holodeck_lsp.models.agent import Agent
from holodeck_lsp.models.tools import FunctionTool, MCPTool, TransportType
from holodeck_lsp.runner.services.user_imports import ImportFailure, load_function
from holodeck_lsp.runner.tools.claude_adapter import uses_claude_adapter
from holodeck_lsp.runner.tools.function_tools import FunctionKind
from holodeck_lsp.runner.tools.mcp_servers import McpServerKind
from holodeck_lsp.runner.tools.retrieval.retrieval_kinds import RetrievalKinds
from holodeck_lsp.runner.tools.tool_kind import ToolKind
from holodeck_lsp.runner.tools.toolbox import ToolBox


@dataclass
class Catalog:
    box: ToolBox
    warnings: list[str] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)  # each stops the run (exit 2)


def build_toolbox(agent: Agent, folder: Path) -> Catalog:
    kinds: list[ToolKind] = []
    warnings: list[str] = []
    problems: list[str] = []
    retrieval = RetrievalKinds(agent)
    claude_code = uses_claude_adapter(agent)
    for tool in agent.tools or []:
        searcher = retrieval.make(tool)
        if searcher is not None:
            kinds.append(searcher)
            continue
        if isinstance(tool, FunctionTool):
            try:
                fn = load_function(folder / tool.file, tool.function, folder)
            except ImportFailure as exc:
                problems.append(f"tool '{tool.name}': {exc}")
                continue
            kinds.append(
                FunctionKind(tool.name, tool.description, fn, tool.parameters, claude_code)
            )
            continue
        if isinstance(tool, MCPTool):
            if tool.transport is TransportType.WEBSOCKET:
                warnings.append(
                    f"tool '{tool.name}' is not offered to the model: MCP over websocket is "
                    "not supported (as in HoloDeck)"
                )
            else:
                kinds.append(McpServerKind(tool, folder))
            continue
        warnings.append(
            f"tool '{tool.name}' (type {tool.type}) "
            "is not offered to the model: this runner does not run that kind of tool yet"
        )
    return Catalog(ToolBox(kinds), warnings, problems)

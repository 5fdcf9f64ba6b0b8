"""The tool kinds that search documents (vector stores, hierarchical documents), sharing
one embedder per agent."""

from __future__ import annotations

from holodeck_lsp.models.agent import Agent
from holodeck_lsp.models.tools import HierarchicalDocumentTool, VectorstoreTool
from holodeck_lsp.runner.tools.claude_adapter import uses_claude_adapter
from holodeck_lsp.runner.tools.retrieval.shared_embedder import SharedEmbedder
from holodeck_lsp.runner.tools.tool_kind import ToolKind


class RetrievalKinds:
    def __init__(self, agent: Agent) -> None:
        self._embeddings = SharedEmbedder(agent)
        self._claude_code = uses_claude_adapter(agent)

    def make(self, tool: object) -> ToolKind | None:
        """The kind for this YAML tool, or None when it is not a document search tool."""
        if isinstance(tool, VectorstoreTool):
            from holodeck_lsp.runner.tools.retrieval.vectorstore import VectorstoreKind

            return VectorstoreKind(tool, self._embeddings, self._claude_code)
        if isinstance(tool, HierarchicalDocumentTool):
            from holodeck_lsp.runner.tools.retrieval.hierarchical_documents import HierarchicalKind

            return HierarchicalKind(tool, self._embeddings, self._claude_code)
        return None

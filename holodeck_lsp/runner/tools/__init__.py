"""The agent's tools as the model sees them: every tool kind behind one interface
(`tool_kind.ToolKind`), started before the first test case and closed after the last by a
`toolbox.ToolBox`; the document search kinds in `retrieval/`."""

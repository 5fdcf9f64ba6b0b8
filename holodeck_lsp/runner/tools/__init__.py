"""The agent's tools as the model sees them: every tool kind behind one interface
(`base.ToolKind`), started before the first test case and closed after the last by a
`box.ToolBox`."""

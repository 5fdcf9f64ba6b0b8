"""The headless runner behind `holodeck-lsp run`: validated suites executed against a backend.

In stages, each a package that imports only those before it: `services` (HTTP, retries,
secrets, user code), `tools` (tool kinds and retrieval), `backends` (model APIs and Python
agents), `collect` (from an agent file to the cases to run), `score` (matchers, tool
assertions, metrics, roll-ups), `execute` (sessions, turns, record, replay and resume),
`report` (the report, its formats, events, progress); `command` wires them. CONTRIBUTING.md
names every module's stage. Nothing here imports the language server.
"""

"""The headless runner behind `holodeck-lsp run`: validated suites executed against a backend.

Layers, each in its own module: loading (env substitution, validation, real imports),
backends (one interface over HTTP model APIs and Python agents), recording (record and
replay of exchanges), the engine (sessions, turns, assertions, metrics, roll-ups) and
reports (JSON, Markdown, JUnit). Nothing here imports the language server.
"""

"""`holodeck-lsp history`: an agent's kept runs and its turns over them, as text, JSON,
Markdown or a self-contained HTML page."""

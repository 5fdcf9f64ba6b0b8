"""holodeck-lsp: editor, pre-commit and CI tooling for HoloDeck agent YAML."""

__version__ = "0.1.0"

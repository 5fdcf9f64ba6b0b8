"""holodeck-lsp: editor, pre-commit and CI tooling for HoloDeck agent YAML."""

# The version, in one place: the package metadata (pyproject.toml), `--version`, the server's
# `initialize` answer and every report read it from here.
__version__ = "0.1.0"

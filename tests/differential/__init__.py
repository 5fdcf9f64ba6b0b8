"""Differential tests: holodeck-lsp's error verdicts against HoloDeck 0.7.1's own loader."""

"""Validation core: text in, diagnostics out. No editor or CLI libraries here."""

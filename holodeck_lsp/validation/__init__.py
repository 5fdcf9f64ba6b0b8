"""The checker behind check, serve and run: text in, diagnostics out.

No editor or CLI libraries here."""

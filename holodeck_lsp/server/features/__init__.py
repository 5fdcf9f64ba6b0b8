"""One module per LSP feature; each exports ROUTES for the table in `server.main`."""

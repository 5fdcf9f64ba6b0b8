"""`holodeck-lsp compare BASE HEAD` and `run --baseline`: two runs matched case by case and
turn by turn, each turn classified, noise told apart from regressions."""

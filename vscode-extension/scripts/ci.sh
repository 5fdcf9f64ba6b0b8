#!/usr/bin/env bash
# The VS Code extension's CI: install, build, lint, test, package, then the end-to-end test in a
# real VS Code (code-server + Chromium). Each step prints its duration.
#
# Needs holodeck-lsp installed (the repository's .venv, $HOLODECK_PYTHON's environment, or PATH)
# and ../schema/*.schema.json generated. HOLODECK_SKIP_E2E=1 skips the last step (local use only).
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."

step() {
  local name="$1"
  shift
  echo "=== vscode-extension: $name"
  local start=$SECONDS
  "$@"
  echo "=== vscode-extension: $name: done in $((SECONDS - start))s"
}

step "npm ci" npm ci --no-audit --no-fund
step "build" npm run build
step "lint" npm run lint
step "test (unit + protocol against holodeck-lsp)" npm test
step "package (.vsix)" npm run package
# The linux-x64 package with the server bundled (wheels from PyPI, cached in .cache/wheels).
step "package the bundled linux-x64 .vsix" npm run package:bundled -- linux-x64
step "test the packaged .vsix files (contents; bundled server on a plain python3)" npm run test:package

if [[ "${HOLODECK_SKIP_E2E:-0}" == "1" ]]; then
  echo "=== vscode-extension: e2e: SKIPPED (HOLODECK_SKIP_E2E=1)"
  exit 0
fi
e2e_setup() { HOLODECK_E2E_CACHE="$(bash scripts/e2e-setup.sh | tail -n 1)"; export HOLODECK_E2E_CACHE; }
step "e2e setup (chromium, Node 24, code-server; cached)" e2e_setup
step "e2e: code-server + chromium: Problems panel shows HL401 (setting; bundled .vsix alone); Testing view replay runs" npm run test:e2e

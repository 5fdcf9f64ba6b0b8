#!/usr/bin/env bash
# Installs the npm MCP servers that the tests in this folder start over stdio, exactly as
# pinned by the committed package-lock.json (into ./node_modules).
set -euo pipefail
cd "$(dirname "$0")"
npm ci --no-audit --no-fund --loglevel=error

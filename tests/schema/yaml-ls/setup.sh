#!/usr/bin/env bash
# Installs the yaml-language-server that tests/schema/test_yaml_language_server.py drives,
# exactly as pinned by the committed package-lock.json.
set -euo pipefail
cd "$(dirname "$0")"
npm ci --no-audit --no-fund --loglevel=error

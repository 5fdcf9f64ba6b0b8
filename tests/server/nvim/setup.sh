#!/bin/sh
# Install Neovim (Debian's package: 0.7 on bookworm) for tests/server/test_neovim.py.
set -eu
if command -v nvim >/dev/null 2>&1; then
    nvim --version | head -n 1
    exit 0
fi
SUDO=""
if [ "$(id -u)" != "0" ] && command -v sudo >/dev/null 2>&1; then SUDO="sudo"; fi
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends neovim
nvim --version | head -n 1

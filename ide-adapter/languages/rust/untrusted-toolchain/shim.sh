#!/bin/sh
# Dialect's cargo and rustc for UNTRUSTED workspaces (see ide-adapter/lsp/untrusted.ts).
# rust-analyzer runs them as its sysroot's tools. Each runs the real tool from `/`, so cargo never
# reads the workspace's .cargo/config.toml (rustc-wrapper, rustc, [env], rustflags, credential
# providers...) and a rustup proxy never reads its rust-toolchain.toml. rust-analyzer passes
# absolute --manifest-path arguments, so nothing else depends on the directory. Nothing is written
# into the workspace: `cargo metadata` runs --locked (below).
# bin/cargo and bin/rustc run it with the tool's name first.
tool=${1:-}
[ $# -gt 0 ] && shift
case "$tool" in
  cargo) real=${DIALECT_UNTRUSTED_CARGO:-cargo} ;;
  rustc) real=${DIALECT_UNTRUSTED_RUSTC:-rustc} ;;
  *) echo "dialect: unknown toolchain shim $tool" >&2; exit 127 ;;
esac
# rust-analyzer points rustup at this folder (RUSTUP_TOOLCHAIN); the real tool must not come back here.
if [ "${RUSTUP_TOOLCHAIN:-}" = "${DIALECT_UNTRUSTED_SYSROOT:-}" ]; then unset RUSTUP_TOOLCHAIN; fi
cd / || exit 1
# `cargo metadata` would write a Cargo.lock into the workspace when it has none (or rewrite a stale
# one): --locked makes cargo fail instead, and rust-analyzer then loads the packages without their
# registry dependencies (Dialect's prepare has usually described the workspace already).
if [ "$tool" = cargo ]; then
  for arg in "$@"; do
    if [ "$arg" = metadata ]; then exec "$real" "$@" --locked; fi
  done
fi
exec "$real" "$@"

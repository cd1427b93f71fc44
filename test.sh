#!/usr/bin/env bash
# Runs every check of the project on a fresh machine, installing what is missing first.
# Usage: ./test.sh            (CI calls exactly this through .ci/run)
set -euo pipefail
cd "$(dirname "$0")"

step() { printf '\n==> %s\n' "$*"; }

step "toolchain components"
rustup component list --installed 2>/dev/null | grep -q '^rustfmt' || rustup component add rustfmt
rustup component list --installed 2>/dev/null | grep -q '^clippy' || rustup component add clippy

step "format"
cargo fmt --all -- --check

step "clippy"
cargo clippy --workspace --all-targets -- -D warnings

step "tests (workspace, release: the data-driven tests run real searches)"
cargo test --workspace --release

echo
echo "all checks passed"

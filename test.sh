#!/usr/bin/env bash
# Runs every check of the project on a fresh machine, installing what is missing first.
# Usage: ./test.sh            (CI calls exactly this through .ci/run)
set -euo pipefail
cd "$(dirname "$0")"

step() { printf '\n==> %s\n' "$*"; }

step "toolchain components"
rustup component list --installed 2>/dev/null | grep -q '^rustfmt' || rustup component add rustfmt
rustup component list --installed 2>/dev/null | grep -q '^clippy' || rustup component add clippy

step "browser and Node.js for the end-to-end tests"
# Headless Chromium from Debian (Playwright's own browser downloads are not used) and Node's
# built-in test runner; playwright-core comes from npm, pinned by e2e/package-lock.json.
as_root() { if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi; }
missing=()
[ -x /usr/bin/chromium ] || missing+=(chromium fonts-liberation)
command -v node >/dev/null || missing+=(nodejs)
command -v npm >/dev/null || missing+=(npm)
if [ ${#missing[@]} -gt 0 ]; then
  as_root apt-get update
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${missing[@]}"
fi
(cd e2e && npm ci --no-audit --no-fund)

step "format"
cargo fmt --all -- --check

step "clippy"
cargo clippy --workspace --all-targets -- -D warnings

step "docs (broken intra-doc links fail)"
RUSTDOCFLAGS="-D warnings" cargo doc --workspace --no-deps --quiet

step "tests (workspace, release: the data-driven tests run real searches)"
cargo test --workspace --release

step "end-to-end tests: the web demo in headless Chromium (screenshots in target/e2e-screenshots/)"
cargo build --release --bin portolan
(cd e2e && PORTOLAN_BIN="$PWD/../target/release/portolan" npm test)

echo
echo "all checks passed"

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

step "clippy (default features, then all: mint and glam too)"
cargo clippy --workspace --all-targets -- -D warnings
cargo clippy --workspace --all-targets --all-features -- -D warnings

step "docs, with every feature as docs.rs builds them (broken intra-doc links fail)"
RUSTDOCFLAGS="-D warnings" cargo doc --workspace --no-deps --all-features --quiet

step "tests (workspace, release: the data-driven tests run real searches)"
cargo test --workspace --release

step "optional features: Vec2 <-> mint and glam conversions"
cargo test --release -p portolan --features mint,glam --lib geom::interop
cargo test --release -p portolan --features mint,glam --doc geom::interop

step "examples: each prints what it shows and asserts it"
for example in quickstart grid_map agent; do
  cargo run --release --quiet -p portolan --example "$example"
done

step "package: the library builds from its crates.io tarball alone (no ../shared, no workspace)"
# Verifies by building the unpacked .crate in target/package/ (a dev build of the library and
# its dependencies: about a minute on two cores). --allow-dirty: CI may run on a checkout with
# generated files; what is packaged is listed by `include` in crates/portolan/Cargo.toml.
cargo package -p portolan --allow-dirty

step "the README's first command: \`cargo run --release\` has one binary to run (the tool's)"
# (Its help, not the server: the default members must leave `cargo run` one binary; two made it
# an error for days unnoticed.)
cargo run --release --quiet -- --help >/dev/null

step "end-to-end tests: the web demo in headless Chromium (screenshots in target/e2e-screenshots/)"
cargo build --release --bin portolan
(cd e2e && PORTOLAN_BIN="$PWD/../target/release/portolan" npm test)

echo
echo "all checks passed"

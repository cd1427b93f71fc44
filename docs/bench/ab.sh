#!/bin/bash
# A/B timing of the working tree against a base revision in one process (docs/bench/ab/main.rs):
#   docs/bench/ab.sh BASE MAP|MESH INDEX|- SCEN ROUNDS [exact|corner]
# INDEX may be OLD,NEW (split at the first comma, unless INDEX names an existing file): one index file per
# side, where the base's index format differs (each written
# by `portolan index` built at its revision).
# Where the two indexes come from two builds, each build's timed fit may choose another threshold (plain search
# first below it), which can move a map's time more than the change does. To force one choice on both sides,
# apply docs/bench/fixed-fit.patch to the base (on a scratch branch, committed, as BASE) and to the working tree,
# and write both indexes with PORTOLAN_FIT=BELOW,BUDGET set (BENCHMARKS.md, "Session 25").
# AB_EVICT_KIB=K writes K KiB between two queries, untimed, and times each query alone (its data
# out of the caches, as in a game frame; BENCHMARKS.md, session 32).
# BASE is any git revision (HEAD: the last commit, against uncommitted changes). The harness and
# both library builds live in WORK (default /tmp/portolan-ab); the base's tree is refreshed each
# run. Use it where two binaries alternated cannot resolve a change of a few per cent
# (BENCHMARKS.md, "How precise is an A/B timing?").
set -e
cd "$(dirname "$0")/../.."
REPO=$(pwd)
BASE=$1; shift
WORK=${WORK:-/tmp/portolan-ab}
mkdir -p "$WORK/src"
rm -rf "$WORK/old"
mkdir -p "$WORK/old"
git archive "$BASE" | tar -x -C "$WORK/old"
# Two packages may not share a name in one build: the base's library becomes `portolan_old`.
sed -i '0,/^name = "portolan"$/s//name = "portolan_old"/' "$WORK/old/crates/portolan/Cargo.toml"
cp docs/bench/ab/main.rs "$WORK/src/main.rs"
cat > "$WORK/Cargo.toml" <<TOML
[package]
name = "portolan-ab"
version = "0.0.0"
edition = "2021"
publish = false

[dependencies]
portolan = { path = "$REPO/crates/portolan" }
portolan_old = { path = "$WORK/old/crates/portolan" }

[profile.release]
debug = 1

# The base's tree stays its own workspace (path dependencies under a workspace's directory
# would join it).
[workspace]
exclude = ["old"]
TOML
cargo build --release -q --manifest-path "$WORK/Cargo.toml"
"$WORK/target/release/portolan-ab" "$@"

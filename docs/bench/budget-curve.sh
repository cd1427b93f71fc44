#!/bin/bash
# What the index buys per megabyte (BENCHMARKS.md, "What does the index buy per megabyte?"): per map
# and memory budget (`portolan index --budget-mib`), the index's build time, size and the parts it
# kept, then the corner search with it interleaved with the exact search (`scen --compare-exact`:
# its speed-up over the exact search, in the same process). Run from anywhere after
# `cargo build --release`; DATA overrides where ../shared/data is, PORTOLAN which binary runs,
# BUDGETS the budgets in MiB, OUT where the generated random map goes.
#   docs/bench/budget-curve.sh [MAP-NAME ...]      (default: every row below)
cd "$(dirname "$0")/../.."
P=${PORTOLAN:-target/release/portolan}; D=${DATA:-../shared/data}; OUT=${OUT:-/tmp/portolan-other-maps}
BUDGETS=${BUDGETS:-"0 0.25 0.5 1 2 4 8 16 32 48"}
mkdir -p "$OUT"
# The random 20% grid of `portolan-compare` (seed 15), with a scenario of 300 queries.
R="$OUT/random20-15.map"
[ -f "$R" ] || { $P gen-map random --size 512 --density 0.2 --seed 15 --output "$R" >/dev/null &&
  python3 docs/bench/other-maps.py scen "$R" 8; }
source docs/bench/maps.sh
rows=()
for m in scene_mp_2p_01 brc202d lak303d den011d AcrosstheCape; do
  r=$(map_row $m) || exit 1; rows+=("$r")
done
rows+=("random20|--map $R|$R.scen")
echo "# $(date -u) load: $(cut -d' ' -f1-3 /proc/loadavg)"
for r in "${rows[@]}"; do
  IFS='|' read -r name src scen <<< "$r"
  if [ $# -gt 0 ] && [[ ! " $* " =~ " $name " ]]; then continue; fi
  ix=$(mktemp /tmp/budget-curve-XXXXXX.idx)
  for mib in $BUDGETS; do
    b=$($P index $src --output "$ix" --budget-mib "$mib" 2>&1 | grep "corner graph" |
      sed -E 's/^corner graph: //; s/; [0-9]+ polygons; wrote .*$//')
    q=$($P scen $src --scen $scen --index "$ix" --compare-exact 2>&1 >/dev/null | grep -E "^time|optimal" | tr '\n' ' ')
    echo "$name | $mib MiB | $b"
    echo "   $q"
  done
  rm -f "$ix"
done
echo "# end $(date -u) load: $(cut -d' ' -f1-3 /proc/loadavg)"

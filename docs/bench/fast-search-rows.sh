#!/bin/bash
# The fast search rows of BENCHMARKS.md ("Fast search"): per map, the corner search interleaved with the exact
# search (--compare-exact), the same without the paths' channels (--no-channel, both searches), then each
# alone. Run from anywhere after `cargo build --release`; DATA overrides
# where ../shared/data is, PORTOLAN which binary runs (to compare two builds). INDEXES names a
# directory of index files kept between runs: a map's index is read from INDEXES/NAME.idx where it
# is there, else built and left there, so that runs (and two binaries of one index format) meet the
# same index, whose timed fit would otherwise differ per build (BENCHMARKS.md, "Session 28").
# RUNS (default 3) is how many times the interleaved comparison runs per map: one run's speed-up
# moves by up to 10% either way on this project's shared 2-core machines, so the row's figure is
# the median run's (each run's is printed too; BENCHMARKS.md, "Session 32"). The floor line is the time
# to locate both endpoints, which bounds any method's speed-up (BENCHMARKS.md, "Session 33").
cd "$(dirname "$0")/../.."
P=${PORTOLAN:-target/release/portolan}; D=${DATA:-../shared/data}; RUNS=${RUNS:-3}
[ -n "$INDEXES" ] && mkdir -p "$INDEXES"
source docs/bench/maps.sh
rows=()
for m in scene_mp_2p_01 brc202d lak303d den011d arena AcrosstheCape arena-merged; do
  r=$(map_row $m) || exit 1; rows+=("$r")
done
echo "# $(date -u) load: $(cut -d' ' -f1-3 /proc/loadavg)"
for r in "${rows[@]}"; do
  IFS='|' read -r name src scen <<< "$r"
  # One index per row for every corner run: two builds' timed fits can choose differently.
  if [ -n "$INDEXES" ]; then
    ix="$INDEXES/$name.idx"
    if [ -f "$ix" ]; then
      info="kept index $ix"
    else
      info=$($P index $src --output "$ix" 2>&1 | grep "corner graph")
    fi
  else
    ix=$(mktemp /tmp/fast-rows-XXXXXX.idx)
    info=$($P index $src --output $ix 2>&1 | grep "corner graph")
  fi
  runs=()
  for _ in $(seq "$RUNS"); do
    out=$($P scen $src --scen $scen --index $ix --compare-exact 2>&1 >/dev/null)
    g=$(grep -E "optimal" <<< "$out"); floor=$(grep -E "^floor" <<< "$out")
    runs+=("$(grep -oE '[0-9.]+×$' <<< "$g" | tr -d '×')")
  done
  median=$(printf '%s\n' "${runs[@]}" | sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}')
  nc=$($P scen $src --scen $scen --index $ix --compare-exact --no-channel 2>&1 >/dev/null | grep -E "optimal" )
  ce=$($P scen $src --scen $scen --index $ix 2>&1 >/dev/null | grep "time" )
  [ -n "$INDEXES" ] || rm -f "$ix"
  ex=$($P scen $src --scen $scen --search exact 2>&1 >/dev/null | grep "time" )
  echo "$name | $info"
  echo "   interleaved:  $g (the last of $RUNS runs: ${runs[*]}; median ${median}×)"
  echo "   $floor (the last run's)"
  echo "   no channel:   $nc"
  echo "   corner alone: $ce"
  echo "   exact alone:  $ex"
done
echo "# end $(date -u) load: $(cut -d' ' -f1-3 /proc/loadavg)"

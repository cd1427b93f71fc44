#!/bin/bash
# The fast search rows of BENCHMARKS.md ("Fast search"): per map, the corner search interleaved with the exact
# search (--compare-exact), the same without the paths' channels (--no-channel, both searches), then each
# alone. Run from anywhere after `cargo build --release`; DATA overrides
# where ../shared/data is, PORTOLAN which binary runs (to compare two builds).
cd "$(dirname "$0")/../.."
P=${PORTOLAN:-target/release/portolan}; D=${DATA:-../shared/data}
rows=(
 "scene_mp_2p_01|--mesh $D/polyanya/meshes/scene_mp_2p_01.mesh|$D/polyanya/meshes/scene_mp_2p_01.mesh.scen"
 "brc202d|--map $D/movingai/dao/brc202d.map|$D/movingai/dao/brc202d.map.scen"
 "lak303d|--map $D/movingai/dao/lak303d.map|$D/movingai/dao/lak303d.map.scen"
 "den011d|--map $D/movingai/dao/den011d.map|$D/movingai/dao/den011d.map.scen"
 "arena|--map $D/movingai/dao/arena.map|$D/movingai/dao/arena.map.scen"
 "AcrosstheCape|--map $D/gppc/AcrosstheCape.map|$D/gppc/AcrosstheCape.map.scen"
 "arena-merged|--mesh $D/polyanya/meshes/arena-merged.mesh|$D/polyanya/scenarios/arena.scen"
)
echo "# $(date -u) load: $(cut -d' ' -f1-3 /proc/loadavg)"
for r in "${rows[@]}"; do
  IFS='|' read -r name src scen <<< "$r"
  # One index per row for every corner run: two builds' timed fits can choose differently.
  ix=$(mktemp /tmp/fast-rows-XXXXXX.idx)
  info=$($P index $src --output $ix 2>&1 | grep "corner graph")
  g=$($P scen $src --scen $scen --index $ix --compare-exact 2>&1 >/dev/null | grep -E "optimal")
  nc=$($P scen $src --scen $scen --index $ix --compare-exact --no-channel 2>&1 >/dev/null | grep -E "optimal" )
  ce=$($P scen $src --scen $scen --index $ix 2>&1 >/dev/null | grep "time" )
  rm -f $ix
  ex=$($P scen $src --scen $scen --search exact 2>&1 >/dev/null | grep "time" )
  echo "$name | $info"
  echo "   interleaved:  $g"
  echo "   no channel:   $nc"
  echo "   corner alone: $ce"
  echo "   exact alone:  $ex"
done
echo "# end $(date -u) load: $(cut -d' ' -f1-3 /proc/loadavg)"

#!/bin/bash
# "How much does a query lose when other work runs between queries?" (BENCHMARKS.md): per map, the
# corner search and the exact search, each query timed alone after nothing (0 KiB), after the
# exact search on the same query (what `portolan scen --compare-exact` runs between two corner
# queries), and after writing 256 KiB, 1 MiB and 4 MiB of other memory. Run from anywhere; DATA
# overrides where ../shared/data is. Builds the example first.
cd "$(dirname "$0")/../.."
D=${DATA:-../shared/data}
cargo build --release -q -p portolan --example scen_rounds || exit 1
E=target/release/examples/scen_rounds
rows=(
 "$D/polyanya/meshes/scene_mp_2p_01.mesh|$D/polyanya/meshes/scene_mp_2p_01.mesh.scen|30|3"
 "$D/movingai/dao/brc202d.map|$D/movingai/dao/brc202d.map.scen|30|4"
 "$D/movingai/dao/lak303d.map|$D/movingai/dao/lak303d.map.scen|60|8"
 "$D/movingai/dao/den011d.map|$D/movingai/dao/den011d.map.scen|200|30"
 "$D/gppc/AcrosstheCape.map|$D/gppc/AcrosstheCape.map.scen|300|100"
 "$D/movingai/dao/arena.map|$D/movingai/dao/arena.map.scen|1000|1000"
)
echo "# $(date -u) load: $(cut -d' ' -f1-3 /proc/loadavg) at $(git rev-parse --short HEAD)"
for r in "${rows[@]}"; do
  IFS='|' read -r map scen cr er <<< "$r"
  echo "== $(basename "$map")"
  for b in 0 exact 256 1024 4096; do
    $E "$map" "$scen" corner "$cr" "$b"
    $E "$map" "$scen" exact "$er" "$b"
  done
done
echo "# end $(date -u) load: $(cut -d' ' -f1-3 /proc/loadavg)"

#!/bin/bash
# The index on maps of kinds shared/data lacks (BENCHMARKS.md, "Session 20"): per map, the index
# build's time, peak memory and size (`portolan index`), then the corner search with that index
# interleaved with the exact search (`--compare-exact`). Maps are generated into OUT (default
# /tmp/portolan-other-maps) by other-maps.py and `portolan gen-map`; PORTOLAN picks the binary.
cd "$(dirname "$0")/../.."
P=${PORTOLAN:-target/release/portolan}; OUT=${OUT:-/tmp/portolan-other-maps}
mkdir -p "$OUT"
maps=(rooms16:7 rooms64:7 random10:7 random40:7 blobs:7 small1500:9 mid800:9 streets:7 streets2k:11)
for m in "${maps[@]}"; do
  IFS=: read -r kind seed <<< "$m"
  [ -f "$OUT/$kind.map" ] || python3 docs/bench/other-maps.py "$kind" "$OUT/$kind.map" "$seed"
done
[ -f "$OUT/maze1.map" ] || { $P gen-map maze --size 512 --corridor 1 --wall 1 --seed 7 --output "$OUT/maze1.map" &&
  python3 docs/bench/other-maps.py scen "$OUT/maze1.map" 8; }
[ -f "$OUT/maze16.map" ] || { $P gen-map maze --size 1024 --corridor 16 --wall 2 --seed 7 --output "$OUT/maze16.map" &&
  python3 docs/bench/other-maps.py scen "$OUT/maze16.map" 8; }
[ -f "$OUT/city.map" ] || { $P gen-map city --size 1024 --street 3 --seed 7 --output "$OUT/city.map" &&
  python3 docs/bench/other-maps.py scen "$OUT/city.map" 8; }
[ -f "$OUT/scatter.map" ] || { $P gen-map scatter --size 1024 --count 400 --seed 7 --output "$OUT/scatter.map" &&
  python3 docs/bench/other-maps.py scen "$OUT/scatter.map" 8; }
echo "# $(date -u) load: $(cut -d' ' -f1-3 /proc/loadavg)"
for kind in rooms16 rooms64 random10 random40 blobs small1500 mid800 streets streets2k maze1 maze16 city scatter; do
  b=$( { /usr/bin/time -f "%e s, peak %M KB" $P index --map "$OUT/$kind.map" --output "$OUT/$kind.idx"; } 2>&1 | tr '\n' ' ')
  q=$($P scen --map "$OUT/$kind.map" --scen "$OUT/$kind.map.scen" --index "$OUT/$kind.idx" --compare-exact 2>&1 >/dev/null |
    grep -E "time|optimal" | tr '\n' ' ')
  echo "$kind | $b"
  echo "   $q"
done
echo "# end $(date -u) load: $(cut -d' ' -f1-3 /proc/loadavg)"

# The maps of the benchmark scripts, by name (sourced by fast-search-rows.sh and budget-curve.sh):
# `map_row NAME` prints `NAME|--mesh FILE or --map FILE|SCEN`, with D the shared data directory.
map_row() {
  case "$1" in
    scene_mp_2p_01) echo "$1|--mesh $D/polyanya/meshes/scene_mp_2p_01.mesh|$D/polyanya/meshes/scene_mp_2p_01.mesh.scen" ;;
    brc202d|lak303d|den011d|arena) echo "$1|--map $D/movingai/dao/$1.map|$D/movingai/dao/$1.map.scen" ;;
    AcrosstheCape) echo "$1|--map $D/gppc/AcrosstheCape.map|$D/gppc/AcrosstheCape.map.scen" ;;
    arena-merged) echo "$1|--mesh $D/polyanya/meshes/arena-merged.mesh|$D/polyanya/scenarios/arena.scen" ;;
    *) echo "map_row: no map $1" >&2; return 1 ;;
  esac
}

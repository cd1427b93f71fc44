// Times one-obstacle edits over the HTTP API in tiled mode against full rebuilds of the same
// scene, on one server in one run (BENCHMARKS.md, "Web demo: a tiled edit over HTTP"):
//   cargo build --release && (cd e2e && node tiles-timing.mjs ../../shared/data/gppc/AcrosstheCape.map 64)
// Prints the medians of the server's own figures (update_ms, rebuild_ms, publish_ms; build_ms)
// and of the wall time of each request as this client sees it (answer parsed).
import { startServer } from './harness.mjs';

const [map, size = '64', edits = '30', rebuilds = '5'] = process.argv.slice(2);
if (!map) throw new Error('usage: node tiles-timing.mjs MAP [TILE_SIZE] [EDITS] [REBUILDS]');
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const server = await startServer(['--map', map]);
try {
  const post = async (path, body) => {
    const t = performance.now();
    const res = await fetch(`${server.url}${path}`, { method: 'POST', body: JSON.stringify(body) });
    const data = await res.json();
    if (!res.ok) throw new Error(`${path}: ${data.error}`);
    return { data, ms: performance.now() - t };
  };
  const scene = await (await fetch(`${server.url}api/scene`)).json();
  await post('api/tiles', { tile_size: Number(size) });
  // A small square at the default start (open ground), moved back and forth by one unit.
  const [x, y] = scene.defaults.start;
  const h = 2;
  const square = [[x - h, y - h], [x + h, y - h], [x + h, y + h], [x - h, y + h]];
  const { data: added } = await post('api/tiles/add', { shape: square });
  const rows = [];
  for (let i = 0; i < Number(edits); i++) {
    const { data, ms } = await post('api/tiles/move', { id: added.obstacle, by: [i % 2 ? -1 : 1, 0] });
    rows.push({ ...data.update, wall: ms, polygons: data.scene.mesh.polygon_count });
  }
  const full = [];
  for (let i = 0; i < Number(rebuilds); i++) {
    const { data, ms } = await post('api/scene', { build: { decomposition: 'cdt-merged' } });
    full.push({ build: data.build_ms, wall: ms, polygons: data.mesh.polygon_count });
  }
  const m = (k, xs) => median(xs.map((r) => r[k]));
  console.log(JSON.stringify({
    map, tile_size: Number(size), polygons: rows[0].polygons,
    edit: { tiles: m('tiles', rows.map((r) => ({ tiles: r.tiles.length }))), update_ms: m('update_ms', rows), rebuild_ms: m('rebuild_ms', rows), publish_ms: m('publish_ms', rows), wall_ms: m('wall', rows) },
    full_rebuild: { polygons: full[0].polygons, build_ms: m('build', full), wall_ms: m('wall', full) },
  }, null, 1));
} finally {
  await server.stop();
}

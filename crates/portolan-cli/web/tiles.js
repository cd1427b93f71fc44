// Tiled mode of the demo page: the mesh as a dynamic tiled mesh (POST /api/tiles), whose
// obstacles are edited one at a time (POST /api/tiles/{add,move,reshape,remove,door}); each edit
// rebuilds only the tiles it touches, which flash, and the page shows the update time. A door is
// an obstacle that one click opens (walkable, drawn dashed) or closes (solid).
//
// Loaded after app.js, whose top-level declarations (state, ui, layers, api, el, sx, sy, ...)
// it shares: a classic script. app.js calls three hooks when they exist: tilesSendScene() at the
// start of its scene edit (tiled edits replace the whole-scene rebuild), tilesTakeObstacles(data)
// when it adopts a scene's obstacles, drawTiles() at the end of each frame.
//
// In tiled mode state.obstacles is the static obstacles (scene.obstacles[0..static_obstacles])
// then every dynamic obstacle, open doors included, in the server's order; obstacles added on
// the page and not yet on the server follow.
//
// Test hooks (stable): #map[data-tiled] is "true" in tiled mode; #layer-tiles[data-columns]
// [data-rows] holds one line.tile-line per inner tile border; rect.tile-flash[data-tile] are the
// tiles the last edit rebuilt (they fade out, and stay in the DOM until the next edit);
// #tiles-info[data-tiles] (JSON indices) and [data-ms] describe the last edit, as does
// #stats [data-stat="update"] (data-value: milliseconds); obstacle paths of dynamic obstacles
// carry data-id, and doors data-door="true" and data-open.
'use strict';

const tiles = {
  doorWishes: new Map(), // obstacle id → open, clicked and not yet sent
  last: null, // the last edit's `update`, with the time it arrived
  flashDrawn: null, // key of the flash rectangles drawn
};

const tilesUi = {};

function tilesInit() {
  const section = document.createElement('section');
  section.id = 'tiles-panel';
  section.setAttribute('aria-labelledby', 'h-tiles');
  section.innerHTML = `
    <h2 id="h-tiles">Tiles (dynamic obstacles)</h2>
    <label title="Build the mesh tile by tile; edits then rebuild only the tiles they touch"><input type="checkbox" id="toggle-tiles"> tiles <kbd>T</kbd></label>
    <label>tile size <select id="tile-size"></select></label>
    <div class="buttons">
      <button type="button" id="btn-add-door" disabled title="Add a door in free space; click it to open or close it">Add door</button>
    </div>
    <p id="tiles-info" class="help" aria-live="polite" data-tiles="[]" data-ms="">Tick “tiles”, then edit obstacles: only the tiles an edit touches are rebuilt. Click a door to open or close it.</p>`;
  $('#panel').insertBefore(section, $('#editor'));
  tilesUi.section = section;
  tilesUi.toggle = $('#toggle-tiles');
  tilesUi.size = $('#tile-size');
  tilesUi.addDoor = $('#btn-add-door');
  tilesUi.info = $('#tiles-info');
  const stat = document.createElement('span');
  stat.dataset.stat = 'update';
  stat.hidden = true;
  $('#stats').appendChild(stat);
  tilesUi.stat = stat;

  const style = document.createElement('style');
  style.textContent = `
    #layer-tiles line { stroke: #1a5fb4; stroke-width: 1; stroke-opacity: 0.45; stroke-dasharray: 3 3; pointer-events: none; }
    #layer-tile-flash rect { fill: #ffd43b; fill-opacity: 0; stroke: #e8590c; stroke-width: 2; stroke-opacity: 0; pointer-events: none;
      animation: tile-flash 1.4s ease-out; }
    @keyframes tile-flash { from { fill-opacity: 0.55; stroke-opacity: 1; } to { fill-opacity: 0; stroke-opacity: 0; } }
    path.obstacle.door { fill: #a0522d; stroke: #5c2e10; pointer-events: all; cursor: pointer; }
    path.obstacle.door.open { fill: rgba(160, 82, 45, 0.08); stroke: #a0522d; stroke-dasharray: 6 4; }
    .editing path.obstacle.door { cursor: move; }`;
  document.head.appendChild(style);

  const legend = (svg, text) => {
    const li = document.createElement('li');
    li.innerHTML = `<svg viewBox="0 0 28 16" aria-hidden="true">${svg}</svg> ${text}`;
    $('#legend').appendChild(li);
  };
  legend('<path d="M1 8H27M14 1V15" stroke="#1a5fb4" stroke-opacity="0.6" stroke-dasharray="3 3"/>', 'tile border (tiled mode)');
  legend('<rect x="1" y="1" width="26" height="14" fill="#ffd43b" fill-opacity="0.55" stroke="#e8590c" stroke-width="2"/>', 'tiles the last edit rebuilt (flash)');
  legend('<rect x="9" y="1" width="10" height="14" fill="#a0522d" stroke="#5c2e10"/>', 'door, closed: click to open');
  legend('<rect x="9" y="1" width="10" height="14" fill="none" stroke="#a0522d" stroke-dasharray="4 3"/>', 'door, open: click to close');
  const insertLayer = (id, before) => {
    const g = el('g', { id });
    ui.svg.insertBefore(g, before);
    return g;
  };
  layers.tiles = insertLayer('layer-tiles', layers.obstacles);
  layers.tileFlash = insertLayer('layer-tile-flash', layers.obstacles);

  tilesUi.toggle.addEventListener('change', () => {
    scheduleDraw();
    sceneQueue.request();
  });
  tilesUi.size.addEventListener('change', () => sceneQueue.request());
  tilesUi.addDoor.addEventListener('click', addDoor);
  // Static obstacles (with holes, or touching themselves) cannot be edited in tiled mode.
  // Outside edit mode, a press on a door opens or closes it (where it would move S or G).
  ui.svg.addEventListener('pointerdown', (evt) => {
    if (!state.scene || !state.scene.tiles || evt.button > 0) return;
    const hit = evt.target.closest && evt.target.closest('path.obstacle');
    if (ui.edit.checked && hit && Number(hit.dataset.index) < staticCount()) {
      evt.stopImmediatePropagation();
      state.editError = 'This obstacle is static in tiled mode (it has holes, or its outline touches itself): only simple polygons can be edited.';
      scheduleDraw();
      return;
    }
    if (ui.edit.checked || evt.target.closest('.handle')) return;
    // The door under the pointer, also where the path or the channel is drawn over it.
    const door = document.elementsFromPoint(evt.clientX, evt.clientY)
      .find((e) => e.matches('path.obstacle.door') && e.dataset.id);
    if (door) {
      evt.stopImmediatePropagation();
      evt.preventDefault();
      toggleDoor(Number(door.dataset.id));
    }
  }, true);
  document.addEventListener('keydown', (evt) => {
    const t = evt.target;
    const typing = t.tagName === 'SELECT' || t.tagName === 'TEXTAREA' ||
      (t.tagName === 'INPUT' && !['checkbox', 'radio', 'button'].includes(t.type));
    if (typing || evt.ctrlKey || evt.metaKey || evt.altKey || !['t', 'T'].includes(evt.key)) return;
    if (tilesUi.section.hidden) return;
    tilesUi.toggle.checked = !tilesUi.toggle.checked;
    tilesUi.toggle.dispatchEvent(new Event('change'));
    evt.preventDefault();
  });
}

// Tile sizes offered: round numbers near a 16th, an 8th and a 4th of the map's shorter side.
function tileSizes() {
  const b = bounds();
  const short = Math.min(b.maxx - b.minx, b.maxy - b.miny);
  const nice = (v) => {
    const p = 10 ** Math.floor(Math.log10(v));
    return [1, 2, 2.5, 5, 10].map((m) => m * p).reduce((a, c) => (Math.abs(c - v) < Math.abs(a - v) ? c : a));
  };
  return [...new Set([16, 8, 4].map((k) => nice(short / k)))];
}

function fillTileSizes() {
  if (tilesUi.size.options.length) return;
  const sizes = tileSizes();
  tilesUi.size.replaceChildren(...sizes.map((s) => new Option(String(s), String(s))));
  tilesUi.size.value = String(sizes[Math.min(1, sizes.length - 1)]);
}

// ---------------------------------------------------------------------------------------------
// Edits

const dynamicCount = () => (state.scene.tiles ? state.scene.tiles.obstacles.length : 0);
const staticCount = () => (state.scene.tiles ? state.scene.tiles.static_obstacles : 0);

function addDoor() {
  const b = bounds();
  const h = Math.min(b.maxx - b.minx, b.maxy - b.miny) * 0.06;
  const c = freeSpot();
  const t = h / 3;
  const ring = [[c[0] - t, c[1] - h], [c[0] + t, c[1] - h], [c[0] + t, c[1] + h], [c[0] - t, c[1] + h]];
  ring.door = true;
  state.obstacles.push(ring);
  state.selected = state.obstacles.length - 1;
  updateEditButtons();
  editChanged();
}

function toggleDoor(id) {
  const o = state.scene.tiles.obstacles.find((x) => x.id === id);
  if (!o) return;
  const open = tiles.doorWishes.has(id) ? !tiles.doorWishes.get(id) : !o.open;
  tiles.doorWishes.set(id, open);
  scheduleDraw();
  sceneQueue.request();
}

// Whether two rings are the same within a hair (a move's result is rounded by the server).
function sameRing(a, b) {
  if (!a || !b || a.length !== b.length) return false;
  const tol = 1e-9 * diagonal();
  return a.every((p, i) => Math.abs(p[0] - b[i][0]) <= tol && Math.abs(p[1] - b[i][1]) <= tol);
}

// The one request that brings the server's dynamic obstacles nearer the page's, or null.
function nextEdit() {
  const server = state.scene.tiles.obstacles;
  const local = state.obstacles.slice(staticCount());
  for (const [id, open] of tiles.doorWishes) {
    tiles.doorWishes.delete(id);
    const o = server.find((x) => x.id === id);
    if (o && o.open !== open) return { path: '/api/tiles/door', body: { id, open } };
  }
  if (local.length < server.length) {
    // A deletion (app.js splices the array): the first k after which the rest shifted by one.
    let k = 0;
    while (k < local.length && sameRing(local[k], server[k].shape)) k++;
    return { path: '/api/tiles/remove', body: { id: server[k].id } };
  }
  for (let k = 0; k < server.length; k++) {
    const a = server[k].shape;
    const b = local[k];
    if (sameRing(a, b)) continue;
    const by = [b[0][0] - a[0][0], b[0][1] - a[0][1]];
    const moved = a.length === b.length && sameRing(a.map((p) => [p[0] + by[0], p[1] + by[1]]), b);
    return moved
      ? { path: '/api/tiles/move', body: { id: server[k].id, by } }
      : { path: '/api/tiles/reshape', body: { id: server[k].id, shape: b } };
  }
  if (local.length > server.length) {
    const ring = local[server.length];
    return { path: '/api/tiles/add', body: { shape: ring.map((p) => p.slice()), door: !!ring.door }, adds: true };
  }
  return null;
}

// Called by app.js's sendScene: true when it handled the edit, false to let the whole-scene
// edit go ahead (leaving tiled mode, or not in it).
async function tilesSendScene() {
  const scene = state.scene;
  const want = tilesUi.toggle.checked;
  if (!want && !scene.tiles) return false;
  if (!want) {
    // Leaving tiled mode: the scene is what the mesh was built from (open doors are not).
    const n = staticCount();
    const open = new Set(scene.tiles.obstacles.flatMap((o, k) => (o.open ? [n + k] : [])));
    state.obstacles = state.obstacles.filter((_, i) => !open.has(i));
    tiles.last = null;
    return false;
  }
  const size = Number(tilesUi.size.value);
  const radius = Number(ui.agentRadius.value);
  const arcError = Number(ui.arcError.value);
  const base_revision = scene.revision;
  const rebuild = !scene.tiles || scene.tiles.tile_size !== size
    || scene.build.agent_radius !== radius || scene.build.arc_error !== arcError;
  if (rebuild) {
    await tilesPost('/api/tiles', { tile_size: size, agent_radius: radius, arc_error: arcError, base_revision });
    return true;
  }
  const edit = nextEdit();
  if (!edit) return true;
  const ok = await tilesPost(edit.path, { ...edit.body, base_revision }, edit.adds);
  // More to send (a drag moved on, several obstacles changed): once more after this answer.
  if (ok && state.scene.tiles && nextEditPending()) sceneQueue.request();
  return true;
}

function nextEditPending() {
  if (tiles.doorWishes.size) return true;
  const server = state.scene.tiles.obstacles;
  const local = state.obstacles.slice(staticCount());
  return local.length !== server.length || server.some((o, k) => !sameRing(o.shape, local[k]));
}

async function tilesPost(path, body, adds) {
  const { ok, status, data } = await api('POST', path, body);
  if (ok) {
    state.badObstacles = new Set();
    state.editError = null;
    adoptScene(data.scene, !sceneQueue.wanted);
    if (data.update) {
      tiles.last = { ...data.update, at: performance.now() };
    } else {
      tiles.last = null;
    }
    pathQueue.request();
    return true;
  }
  if ((status === 409 && ['stale-revision', 'not-tiled'].includes(data.code))) {
    // Another tab changed the world: show it; this edit was not applied.
    tiles.doorWishes.clear();
    await loadScene();
    state.editError = data.code === 'not-tiled'
      ? 'Not applied: the map is no longer tiled (another tab rebuilt it).'
      : 'Not applied: the map was changed in another tab; this is its current state.';
    if (!state.scene.tiles) tilesUi.toggle.checked = false;
    pathQueue.request();
  } else {
    // Name the culprits on the page: obstacle ids → indices, or the obstacle being added.
    const n = staticCount();
    const ids = state.scene.tiles ? state.scene.tiles.obstacles.map((o) => o.id) : [];
    const bad = (data.obstacles || []).map((id) => ids.indexOf(id)).filter((k) => k >= 0).map((k) => n + k);
    if (adds) bad.push(n + dynamicCount());
    state.badObstacles = new Set(bad);
    state.editError = `Not rebuilt (the mesh shown is the last good one): ${data.error}`;
    if (!state.scene.tiles) tilesUi.toggle.checked = false;
  }
  scheduleDraw(true);
  return false;
}

// Called by app.js's adoptScene when it takes the server's obstacles: in tiled mode, the static
// ones and every dynamic one (open doors too).
function tilesTakeObstacles(data) {
  if (!data.tiles) return;
  const n = data.tiles.static_obstacles;
  state.obstacles = [
    ...data.scene.obstacles.slice(0, n).map((o) => o.map((p) => p.slice())),
    ...data.tiles.obstacles.map((o) => o.shape.map((p) => p.slice())),
  ];
}

// ---------------------------------------------------------------------------------------------
// Drawing (called by app.js at the end of every frame)

function drawTiles() {
  const t = state.scene && state.scene.tiles;
  fillTileSizes();
  tilesUi.section.hidden = !state.scene.editable;
  if (!sceneQueue.busy && !sceneQueue.wanted && tilesUi.toggle.checked !== !!t) {
    // The server's mode wins once nothing is on its way (tiled by another tab or before a
    // reload; untiled by a reset).
    tilesUi.toggle.checked = !!t;
  }
  if (t && !sceneQueue.busy && !sceneQueue.wanted && Number(tilesUi.size.value) !== t.tile_size) {
    if (![...tilesUi.size.options].some((o) => Number(o.value) === t.tile_size)) {
      tilesUi.size.appendChild(new Option(String(t.tile_size), String(t.tile_size)));
    }
    tilesUi.size.value = String(t.tile_size);
  }
  ui.svg.dataset.tiled = String(!!t);
  tilesUi.addDoor.disabled = !t || !ui.edit.checked;
  ui.decomposition.disabled = !!t;
  const g = layers.tiles;
  g.replaceChildren();
  if (t) {
    const b = bounds();
    for (let i = 1; i < t.columns; i++) {
      const x = t.origin[0] + i * t.tile_size;
      el('line', { x1: sx(x), y1: sy(b.miny), x2: sx(x), y2: sy(b.maxy), class: 'tile-line', 'data-column': i }, g);
    }
    for (let j = 1; j < t.rows; j++) {
      const y = t.origin[1] + j * t.tile_size;
      el('line', { x1: sx(b.minx), y1: sy(y), x2: sx(b.maxx), y2: sy(y), class: 'tile-line', 'data-row': j }, g);
    }
    g.dataset.columns = String(t.columns);
    g.dataset.rows = String(t.rows);
  } else {
    delete g.dataset.columns;
    delete g.dataset.rows;
  }
  drawFlash(t);
  drawDoors(t);
  drawUpdateInfo(t);
}

function tileRect(t, k) {
  const b = bounds();
  const i = k % t.columns;
  const j = Math.floor(k / t.columns);
  const x0 = t.origin[0] + i * t.tile_size;
  const y0 = t.origin[1] + j * t.tile_size;
  return [x0, y0, Math.min(b.maxx, x0 + t.tile_size), Math.min(b.maxy, y0 + t.tile_size)];
}

function drawFlash(t) {
  const last = t && tiles.last;
  const key = last ? `${last.version} ${JSON.stringify(state.view)}` : '';
  if (key === tiles.flashDrawn) return;
  tiles.flashDrawn = key;
  layers.tileFlash.replaceChildren();
  if (!last) return;
  for (const k of last.tiles) {
    const [x0, y0, x1, y1] = tileRect(t, k);
    el('rect', { x: sx(x0), y: sy(y1), width: sx(x1) - sx(x0), height: sy(y0) - sy(y1), class: 'tile-flash', 'data-tile': k }, layers.tileFlash);
  }
}

function drawDoors(t) {
  if (!t) return;
  const n = t.static_obstacles;
  if (state.editError) {
    // app.js outlines, dashed, the server's obstacle where the page's differs, by index into
    // scene.obstacles, which in tiled mode leaves out open doors: redrawn here by id.
    layers.obstacles.querySelectorAll('polygon.ghost').forEach((g) => g.remove());
    const ghosts = t.obstacles.filter((o, k) => !sameRing(o.shape, state.obstacles[n + k]))
      .map((o) => el('polygon', { points: spts(o.shape), class: 'ghost' }));
    layers.obstacles.prepend(...ghosts);
  }
  t.obstacles.forEach((o, k) => {
    const path = layers.obstacles.querySelector(`path.obstacle[data-index="${n + k}"]`);
    if (!path) return;
    path.dataset.id = String(o.id);
    if (!o.door) return;
    const open = tiles.doorWishes.has(o.id) ? tiles.doorWishes.get(o.id) : o.open;
    path.classList.add('door');
    path.classList.toggle('open', open);
    path.dataset.door = 'true';
    path.dataset.open = String(open);
    path.setAttribute('aria-label', `door ${open ? 'open' : 'closed'}: click to ${open ? 'close' : 'open'} it`);
  });
  // Doors added on the page and not yet on the server.
  state.obstacles.forEach((o, i) => {
    if (!o.door || i < n + t.obstacles.length) return;
    const path = layers.obstacles.querySelector(`path.obstacle[data-index="${i}"]`);
    if (path) path.classList.add('door');
  });
}

function drawUpdateInfo(t) {
  const last = t && tiles.last;
  tilesUi.stat.hidden = !last;
  if (!last) {
    tilesUi.info.dataset.tiles = '[]';
    tilesUi.info.dataset.ms = '';
    tilesUi.stat.dataset.value = '';
    if (t) tilesUi.info.textContent = `${t.columns} × ${t.rows} tiles of ${t.tile_size}. Edit an obstacle: only the tiles it touches are rebuilt. Click a door to open or close it.`;
    return;
  }
  const ms = last.update_ms;
  const time = ms < 1 ? ms.toFixed(3) : ms.toFixed(2);
  tilesUi.info.dataset.tiles = JSON.stringify(last.tiles);
  tilesUi.info.dataset.ms = String(ms);
  tilesUi.info.textContent = `Rebuilt ${last.tiles.length} of ${t.columns * t.rows} tiles in ${time} ms ` +
    `(geometry ${last.rebuild_ms.toFixed(3)} ms, publishing ${last.publish_ms.toFixed(3)} ms); ` +
    `${last.polygons_removed} polygons → ${last.polygons_added}.`;
  tilesUi.stat.dataset.value = String(ms);
  tilesUi.stat.textContent = `update ${time} ms (${last.tiles.length} tile${last.tiles.length === 1 ? '' : 's'})`;
}

tilesInit();

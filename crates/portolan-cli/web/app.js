// Portolan demo page: the chapter's figure 1.8, drawn in SVG, with every path computed by the
// `portolan serve` JSON API (GET /api/scene, POST /api/path, POST /api/scene, POST /api/scene/reset;
// see the README). No build step, no dependencies: this file is embedded in the binary.
//
// World coordinates have y up (as scene files do); the view flips them so that a portal's "left"
// endpoint is on the left of someone walking through it on screen too.
//
// Test hooks (read by e2e/*.test.mjs, stable): #app[data-idle] is "true" when no request is in
// flight or waiting; #map[data-view] holds the world→screen transform and #map[data-revision] the
// scene revision; #path, #midpoint-path, #exact-path and #corners carry data-points / data-length
// in world coordinates; #handle-start / #handle-goal carry data-x / data-y; #stats spans carry data-value;
// #step-info carries data-step / data-steps; #method is the method of #path (also on
// #map[data-method]) and #stats [data-stat="bound"] its proved bound; obstacles are
// path.obstacle[data-index] (with their holes as subpaths); #map[data-editable] is "false" for a
// mesh served without a scene.
'use strict';

const SVG_NS = 'http://www.w3.org/2000/svg';
const $ = (sel) => document.querySelector(sel);

const state = {
  scene: null, // last GET/POST /api/scene reply: the scene the server holds, with its mesh
  obstacles: [], // obstacles as drawn (may be ahead of the server while an edit is pending)
  holes: [], // walkable holes in them, { obstacle, ring }, kept in step with `obstacles`
  badObstacles: new Set(), // obstacles the server refused, by index
  start: [0, 0],
  goal: [0, 0],
  result: null, // last successful POST /api/path reply, with the method chosen (#method)
  exact: null, // last successful POST /api/path reply with method "exact" (when asked for)
  pathError: null, // message when the last query failed
  exactError: null, // message when the exact query failed and the funnel one did not
  editError: null, // message when the last scene edit was refused
  loadError: null, // message when the scene could not be loaded
  step: { active: false, k: 0 },
  view: { k: 1, x0: 0, y0: 0 },
  selected: -1, // selected obstacle (edit mode)
};

const ui = {
  svg: $('#map'),
  app: $('#app'),
  message: $('#message'),
  mesh: $('#toggle-mesh'),
  midpoints: $('#toggle-midpoints'),
  portals: $('#toggle-portals'),
  snap: $('#toggle-snap'),
  edit: $('#toggle-edit'),
  method: $('#method'),
  portalPoint: $('#portal-point'),
  exact: $('#toggle-exact'),
  cornerOffset: $('#corner-offset'),
  cornerOffsetValue: $('#corner-offset-value'),
  decomposition: $('#decomposition'),
  agentRadius: $('#agent-radius'),
  agentRadiusValue: $('#agent-radius-value'),
  arcError: $('#arc-error'),
  stepInfo: $('#step-info'),
};

// ---------------------------------------------------------------------------------------------
// Talking to the server

async function api(method, path, body) {
  const init = { method, headers: {} };
  if (body !== undefined) {
    init.headers['Content-Type'] = 'application/json';
    init.body = JSON.stringify(body);
  }
  let res;
  try {
    res = await fetch(path, init);
  } catch (e) {
    return { ok: false, status: 0, data: { error: `the server cannot be reached (${e.message})` } };
  }
  let data = null;
  try {
    data = await res.json();
  } catch (e) {
    data = { error: `unreadable answer (HTTP ${res.status})` };
  }
  return { ok: res.ok, status: res.status, data };
}

// One request of each kind in flight at a time; while one is out, later wishes overwrite each
// other and only the newest is sent when it returns. Dragging therefore never queues stale
// queries, and the path follows the pointer as fast as the server answers.
function coalescer(send) {
  const c = { busy: false, wanted: false };
  c.request = () => {
    c.wanted = true;
    pump();
  };
  async function pump() {
    if (c.busy || !c.wanted) return updateIdle();
    c.wanted = false;
    c.busy = true;
    updateIdle();
    try {
      await send();
    } finally {
      c.busy = false;
      pump();
    }
  }
  return c;
}

const pathQueue = coalescer(sendPath);
const sceneQueue = coalescer(sendScene);

function updateIdle() {
  const idle = state.scene !== null && !pathQueue.busy && !pathQueue.wanted &&
    !sceneQueue.busy && !sceneQueue.wanted;
  ui.app.dataset.idle = String(idle);
}

// The query with the method chosen, and the exact one beside it when "exact" is ticked.
async function sendPath() {
  if (!state.scene) return;
  const body = {
    start: state.start,
    goal: state.goal,
    method: ui.method.value,
    portal: ui.portalPoint.value,
    snap: ui.snap.checked ? diagonal() : null,
    corner_offset: Number(ui.cornerOffset.value),
  };
  const [{ ok, data }, exact] = await Promise.all([
    api('POST', '/api/path', body),
    ui.exact.checked ? api('POST', '/api/path', { ...body, method: 'exact' }) : null,
  ]);
  if (ok && data.revision !== state.scene.revision && !sceneQueue.busy && !sceneQueue.wanted) {
    // Another tab changed the scene: fetch it, then ask again.
    await loadScene();
    pathQueue.request();
    return;
  }
  if (ok && data.found) {
    state.result = data;
    state.pathError = null;
  } else {
    state.result = null;
    state.pathError = ok ? sentence(data.reason || 'no path') : describeError(data);
  }
  // Same scene revision as the main answer, or not shown; its failure is only news when the
  // main query succeeded (otherwise both fail for the same reason).
  const exactOk = exact && exact.ok && exact.data.found && exact.data.revision === data.revision;
  state.exact = exactOk ? exact.data : null;
  state.exactError = exact && !exactOk && state.result
    ? `Exact search: ${exact.ok ? (exact.data.reason || 'answered for another scene revision') : describeError(exact.data)}`
    : null;
  clampStep();
  scheduleDraw();
}

const sentence = (text) => `${text[0].toUpperCase()}${text.slice(1)}${/[.!?]$/.test(text) ? '' : '.'}`;

function describeError(data) {
  switch (data.code) {
    case 'start-off-mesh': return 'S is not on the mesh (inside an obstacle or off the map). Move it, or tick “snap”.';
    case 'goal-off-mesh': return 'G is not on the mesh (inside an obstacle or off the map). Move it, or tick “snap”.';
    default: return data.error || 'the query failed';
  }
}

async function loadScene() {
  const { ok, data } = await api('GET', '/api/scene');
  if (!ok) {
    state.loadError = `Cannot load the scene: ${data.error}`;
    showMessage(state.loadError);
    return false;
  }
  state.loadError = null;
  adoptScene(data, true);
  return true;
}

// Sends the obstacles as drawn and the build options as set, based on the revision we hold; on
// success the server's mesh replaces ours. When another tab changed the scene since we fetched
// it, the server refuses the edit (409 stale-revision) rather than let it undo the other one:
// we fetch the scene the server holds, show it, and say that the edit was not applied.
async function sendScene() {
  if (typeof tilesSendScene === 'function' && await tilesSendScene()) return; // tiled mode: tiles.js
  const scene = { ...state.scene.scene, obstacles: state.obstacles, holes: state.holes };
  const build = {
    decomposition: ui.decomposition.value,
    agent_radius: Number(ui.agentRadius.value),
    arc_error: Number(ui.arcError.value),
  };
  const base_revision = state.scene.revision;
  const { ok, status, data } = await api('POST', '/api/scene', { scene, build, base_revision });
  if (ok) {
    adoptScene(data, !sceneQueue.wanted);
    state.badObstacles = new Set();
    state.editError = null;
    pathQueue.request();
  } else if (status === 409 && data.code === 'stale-revision') {
    // Drop edits queued on top of the stale scene: they would be refused the same way.
    sceneQueue.wanted = false;
    state.badObstacles = new Set();
    state.selected = -1;
    if (await loadScene()) {
      state.editError = `Not applied: the scene was changed elsewhere (now revision ${state.scene.revision}); ` +
        'this is that scene, edit it again.';
      updateEditButtons();
      pathQueue.request();
    }
  } else {
    state.badObstacles = new Set(data.obstacles || []);
    state.editError = `Not rebuilt (the mesh shown is the last good one): ${data.error}`;
  }
  scheduleDraw(true);
}

// Short names of the search methods (`capabilities.methods`); a method the page does not know yet
// is listed by its API name.
const METHODS = { funnel: 'funnel (chapter)', exact: 'exact (Polyanya)', corner: 'corner graph (exact, fast)' };
// Shorter still, for the stats line and the step panel.
const methodName = (m) => ({ corner: 'corner graph' }[m] || m);

const DECOMPOSITIONS = { trapezoid: 'trapezoids (the chapter)', 'cdt-merged': 'CDT merged into convex polygons' };

// Corner roundings offered (`build.arc_error`: the chords' depth inside the circle, as a fraction
// of the radius); a value the server holds that is not among them is added as it is.
const ARC_ERRORS = [[0.01, 'fine (1% of the radius)'], [0.1, 'medium (10%)'], [0.3, 'coarse (30%: one chord a right angle)']];

function showArcError(value) {
  if (![...ui.arcError.options].some((o) => Number(o.value) === value)) {
    ui.arcError.add(new Option(`${+(value * 100).toPrecision(3)}% of the radius`, String(value)));
  }
  ui.arcError.value = [...ui.arcError.options].find((o) => Number(o.value) === value).value;
}

function adoptScene(data, takeObstacles) {
  const first = state.scene === null;
  state.scene = data;
  if (takeObstacles) {
    state.obstacles = data.scene.obstacles.map((o) => o.map((p) => p.slice()));
    state.holes = (data.scene.holes || []).map((h) => ({ obstacle: h.obstacle, ring: h.ring.map((p) => p.slice()) }));
    if (typeof tilesTakeObstacles === 'function') tilesTakeObstacles(data); // tiled mode: tiles.js
    if (data.build) {
      ui.decomposition.value = data.build.decomposition;
      ui.agentRadius.value = String(data.build.agent_radius);
      ui.agentRadiusValue.textContent = fmtRadius(data.build.agent_radius);
      showArcError(data.build.arc_error);
    }
  }
  if (first) {
    state.start = data.defaults.start.slice();
    state.goal = data.defaults.goal.slice();
    const methods = data.capabilities.methods;
    $('#exact-row').hidden = !methods.includes('exact');
    ui.method.replaceChildren(...methods.map((m) => new Option(METHODS[m] || m, m)));
    ui.method.value = methods.includes('funnel') ? 'funnel' : methods[0];
    updateMethodControls();
    // A mesh served without a scene has nothing to edit or rebuild.
    $('#editor').hidden = !data.editable;
    $('#build').hidden = !data.editable;
    ui.svg.classList.toggle('no-scene', !data.editable);
    ui.svg.dataset.editable = String(data.editable);
    ui.decomposition.replaceChildren(...data.capabilities.decompositions.map((d) => new Option(DECOMPOSITIONS[d] || d, d)));
    if (data.build) ui.decomposition.value = data.build.decomposition;
    ui.arcError.replaceChildren(...ARC_ERRORS.map(([v, name]) => new Option(name, String(v))));
    if (data.build) showArcError(data.build.arc_error);
    // Agent radii up to a tenth of the map's shorter side, in 100 steps.
    const b = data.scene.bounds;
    const most = Math.min(b.max[0] - b.min[0], b.max[1] - b.min[1]) / 10;
    const step = 10 ** Math.floor(Math.log10(most / 100));
    ui.agentRadius.max = String(Math.ceil(most / step / 10) * step * 10);
    ui.agentRadius.step = String(step);
  }
  if (state.selected >= state.obstacles.length) state.selected = -1;
  ui.svg.dataset.revision = String(data.revision);
  fit();
  scheduleDraw(true);
  updateIdle();
}

// ---------------------------------------------------------------------------------------------
// Geometry helpers (world coordinates, y up)

function bounds() {
  const b = state.scene.scene.bounds;
  return { minx: b.min[0], miny: b.min[1], maxx: b.max[0], maxy: b.max[1] };
}

function diagonal() {
  const b = bounds();
  return Math.hypot(b.maxx - b.minx, b.maxy - b.miny);
}

function clampToBounds(p) {
  const b = bounds();
  return [Math.min(b.maxx, Math.max(b.minx, p[0])), Math.min(b.maxy, Math.max(b.miny, p[1]))];
}

const same = (a, b) => a[0] === b[0] && a[1] === b[1];
const fmtRadius = (r) => String(+Number(r).toFixed(4));
const fmt = (v) => (Math.round(v * 10) / 10).toFixed(1);
const fmtPoint = (p) => `(${+p[0].toFixed(1)}, ${+p[1].toFixed(1)})`;

function polylineLength(pts) {
  let s = 0;
  for (let i = 1; i < pts.length; i++) s += Math.hypot(pts[i][0] - pts[i - 1][0], pts[i][1] - pts[i - 1][1]);
  return s;
}

// ---------------------------------------------------------------------------------------------
// View: world → screen pixels, y flipped

function fit() {
  if (!state.scene) return;
  const r = ui.svg.getBoundingClientRect();
  const W = Math.max(r.width, 50);
  const H = Math.max(r.height, 50);
  const b = bounds();
  const margin = 14;
  const k = Math.min((W - 2 * margin) / (b.maxx - b.minx), (H - 2 * margin) / (b.maxy - b.miny));
  const x0 = (W - (b.maxx - b.minx) * k) / 2;
  const y0 = (H - (b.maxy - b.miny) * k) / 2;
  state.view = { k, x0, y0 };
  ui.svg.setAttribute('viewBox', `0 0 ${W} ${H}`);
  ui.svg.dataset.view = JSON.stringify({ k, x0, y0, minx: b.minx, maxy: b.maxy });
}

const sx = (x) => state.view.x0 + (x - bounds().minx) * state.view.k;
const sy = (y) => state.view.y0 + (bounds().maxy - y) * state.view.k;
const spts = (pts) => pts.map((p) => `${sx(p[0]).toFixed(2)},${sy(p[1]).toFixed(2)}`).join(' ');

function toWorld(evt) {
  const r = ui.svg.getBoundingClientRect();
  const b = bounds();
  return [
    b.minx + (evt.clientX - r.left - state.view.x0) / state.view.k,
    b.maxy - (evt.clientY - r.top - state.view.y0) / state.view.k,
  ];
}

// ---------------------------------------------------------------------------------------------
// Drawing

function el(tag, attrs, parent) {
  const e = document.createElementNS(SVG_NS, tag);
  for (const [k, v] of Object.entries(attrs || {})) if (v !== undefined && v !== null) e.setAttribute(k, v);
  if (parent) parent.appendChild(e);
  return e;
}

const layers = {};
function buildLayers() {
  const defs = el('defs', {}, ui.svg);
  const hatch = el('pattern', { id: 'hatch', width: 7, height: 7, patternUnits: 'userSpaceOnUse', patternTransform: 'rotate(45)' }, defs);
  el('rect', { width: 7, height: 7, class: 'hatch-bg' }, hatch);
  el('line', { x1: 0, y1: 0, x2: 0, y2: 7, class: 'hatch-line' }, hatch);
  const arrow = el('marker', { id: 'arrow', viewBox: '0 0 10 10', refX: 9, refY: 5, markerWidth: 11, markerHeight: 11, markerUnits: 'userSpaceOnUse', orient: 'auto' }, defs);
  el('path', { d: 'M0,0 L10,5 L0,10 z', class: 'arrow-head' }, arrow);
  for (const name of ['ground', 'channel', 'mesh', 'obstacles', 'midpoints', 'portals', 'path', 'exact', 'funnel', 'edit', 'snap', 'handles']) {
    layers[name] = el('g', { id: `layer-${name}` }, ui.svg);
  }
  for (const [which, label] of [['start', 'S'], ['goal', 'G']]) {
    const g = el('g', { id: `handle-${which}`, class: `handle ${which}`, tabindex: 0, role: 'button', 'data-which': which }, layers.handles);
    el('circle', { r: 13, class: 'handle-ring' }, g);
    el('text', { 'text-anchor': 'middle', dy: '0.35em', class: 'handle-label' }, g).textContent = label;
  }
}

let drawPending = false;
let staticDirty = true;
function scheduleDraw(staticToo) {
  if (staticToo) staticDirty = true;
  if (drawPending) return;
  drawPending = true;
  requestAnimationFrame(() => {
    drawPending = false;
    if (!state.scene) return;
    if (staticDirty) drawStatic();
    staticDirty = false;
    drawDynamic();
  });
}

// The scene and the mesh: redrawn when they change or the window does.
function drawStatic() {
  const b = bounds();
  layers.ground.replaceChildren();
  el('rect', { x: sx(b.minx), y: sy(b.maxy), width: (b.maxx - b.minx) * state.view.k, height: (b.maxy - b.miny) * state.view.k, class: 'ground' }, layers.ground);
  // The ground inside the bounds is shaded as blocked; the mesh polygons are the walkable part
  // (an agent radius leaves a band around the obstacles; a mesh file has no obstacles at all).
  layers.mesh.replaceChildren();
  const polys = state.scene.mesh.polygons;
  for (let i = 0; i < polys.length; i++) {
    el('polygon', { points: spts(polys[i]), class: 'walkable' }, layers.ground);
  }
  el('rect', { x: sx(b.minx), y: sy(b.maxy), width: (b.maxx - b.minx) * state.view.k, height: (b.maxy - b.miny) * state.view.k, class: 'border' }, layers.ground);
  for (let i = 0; i < polys.length; i++) {
    el('polygon', { points: spts(polys[i]), class: 'mesh-poly', 'data-index': i }, layers.mesh);
  }
  layers.mesh.dataset.count = String(polys.length);
  // (Obstacles: drawDynamic, which always follows in the same frame.)
}

function drawObstacles() {
  layers.obstacles.replaceChildren();
  layers.edit.replaceChildren();
  // While an edit is refused, the obstacles the shown mesh was built from are outlined dashed.
  const held = state.scene.scene.obstacles;
  if (state.editError) {
    held.forEach((o, i) => {
      const local = state.obstacles[i];
      if (!local || local.length !== o.length || local.some((p, j) => !same(p, o[j]))) {
        el('polygon', { points: spts(o), class: 'ghost' }, layers.obstacles);
      }
    });
  }
  // Each obstacle is one path: its ring and its holes, filled even-odd.
  const holes = state.obstacles.map(() => []);
  for (const h of state.holes) if (holes[h.obstacle]) holes[h.obstacle].push(h.ring);
  const ringPath = (ring) => `M${spts(ring)}Z`;
  state.obstacles.forEach((o, i) => {
    const cls = ['obstacle'];
    if (state.badObstacles.has(i)) cls.push('bad');
    if (ui.edit.checked && i === state.selected) cls.push('selected');
    const d = [o, ...holes[i]].map(ringPath).join(' ');
    el('path', { d, 'fill-rule': 'evenodd', class: cls.join(' '), 'data-index': i }, layers.obstacles);
  });
  if (ui.edit.checked && state.selected >= 0) {
    state.obstacles[state.selected].forEach((p, j) => {
      el('rect', { x: sx(p[0]) - 5, y: sy(p[1]) - 5, width: 10, height: 10, class: 'vertex', 'data-vertex': j }, layers.edit);
    });
  }
  layers.obstacles.dataset.count = String(state.obstacles.length);
}

// Everything that depends on the query: redrawn on every answer and every drag.
function drawDynamic() {
  const r = state.result;
  const f = r && r.funnel;
  ui.svg.classList.toggle('hide-mesh', !ui.mesh.checked);
  ui.svg.classList.toggle('stepping', state.step.active);

  // Channel.
  layers.channel.replaceChildren();
  if (r) {
    for (const id of r.channel) {
      const poly = state.scene.mesh.polygons[id];
      if (poly) el('polygon', { points: spts(poly), class: 'channel-poly', 'data-index': id }, layers.channel);
    }
  }

  // Portals (without the zero-width start and goal portals).
  layers.portals.replaceChildren();
  layers.portals.style.display = ui.portals.checked ? '' : 'none';
  const current = state.step.active && state.step.k > 0 && f ? f.steps[state.step.k - 1].portal : -1;
  if (f) {
    f.portals.forEach((p, i) => {
      if (i === 0 || i === f.portals.length - 1) return;
      const g = el('g', { class: i === current ? 'portal current' : 'portal', 'data-index': i }, layers.portals);
      el('line', { x1: sx(p.left[0]), y1: sy(p.left[1]), x2: sx(p.right[0]), y2: sy(p.right[1]), class: 'portal-line' }, g);
      el('circle', { cx: sx(p.left[0]), cy: sy(p.left[1]), r: 4, class: 'portal-left' }, g);
      el('circle', { cx: sx(p.right[0]), cy: sy(p.right[1]), r: 4, class: 'portal-right' }, g);
    });
  }
  if (current >= 0 && !ui.portals.checked) {
    // The processed portal stays visible in step mode even with portals hidden.
    const p = f.portals[current];
    el('line', { x1: sx(p.left[0]), y1: sy(p.left[1]), x2: sx(p.right[0]), y2: sy(p.right[1]), class: 'portal-line current-only' }, layers.path);
  }

  // Midpoint polyline.
  layers.midpoints.replaceChildren();
  if (f && ui.midpoints.checked) {
    el('polyline', { id: 'midpoint-path', points: spts(f.midpoints.points), 'data-points': JSON.stringify(f.midpoints.points), 'data-length': f.midpoints.length, class: 'midpoint-path' }, layers.midpoints);
    for (const p of f.midpoints.points.slice(1, -1)) el('circle', { cx: sx(p[0]), cy: sy(p[1]), r: 2.5, class: 'midpoint-dot' }, layers.midpoints);
  }

  // Path.
  layers.path.replaceChildren();
  if (r) {
    el('polyline', { id: 'path', points: spts(r.points), 'data-points': JSON.stringify(r.points), 'data-length': r.length, 'data-start': JSON.stringify(r.start), 'data-goal': JSON.stringify(r.goal), class: 'path' }, layers.path);
  }

  // The exact shortest path, thin and dashed on top of the funnel's.
  layers.exact.replaceChildren();
  const x = ui.exact.checked && state.exact;
  if (x) {
    el('polyline', { id: 'exact-path', points: spts(x.points), 'data-points': JSON.stringify(x.points), 'data-length': x.length, class: 'exact-path' }, layers.exact);
  }

  drawFunnel();
  drawHandles();
  drawStats();
  drawObstacles();
  if (typeof drawTiles === 'function') drawTiles(); // tiled mode: tiles.js
}

// The funnel after `k` steps: k = 0 is the state before the first portal (apex at the start).
function funnelAfter(k) {
  const r = state.result;
  const steps = r.funnel.steps;
  const corners = [r.start];
  for (let i = 0; i < k; i++) if (steps[i].corner) corners.push(steps[i].corner);
  if (k === 0) return { apex: r.start, left: r.start, right: r.start, portal: 0, corners, step: null };
  const s = steps[k - 1];
  return { apex: s.apex, left: s.left, right: s.right, portal: s.portal, corners, step: s };
}

function drawFunnel() {
  layers.funnel.replaceChildren();
  const r = state.result;
  if (!state.step.active || !r || !r.funnel) return;
  const st = funnelAfter(state.step.k);
  const g = layers.funnel;
  if (!same(st.apex, st.right)) {
    el('line', { x1: sx(st.apex[0]), y1: sy(st.apex[1]), x2: sx(st.right[0]), y2: sy(st.right[1]), class: 'funnel-right', id: 'funnel-right' }, g);
  }
  if (!same(st.apex, st.left)) {
    el('line', { x1: sx(st.apex[0]), y1: sy(st.apex[1]), x2: sx(st.left[0]), y2: sy(st.left[1]), class: 'funnel-left', id: 'funnel-left', 'marker-end': 'url(#arrow)' }, g);
  }
  el('polyline', { id: 'corners', points: spts(st.corners), 'data-points': JSON.stringify(st.corners), class: 'corners-path' }, g);
  for (const c of st.corners.slice(1)) el('circle', { cx: sx(c[0]), cy: sy(c[1]), r: 4.5, class: 'corner' }, g);
  el('circle', { id: 'apex', cx: sx(st.apex[0]), cy: sy(st.apex[1]), r: 9, class: 'apex', 'data-point': JSON.stringify(st.apex) }, g);
}

function drawHandles() {
  layers.snap.replaceChildren();
  const r = state.result;
  for (const [which, label, p] of [['start', 'S', state.start], ['goal', 'G', state.goal]]) {
    const snapped = r && r[which];
    if (snapped && !same(snapped, p)) {
      el('line', { x1: sx(p[0]), y1: sy(p[1]), x2: sx(snapped[0]), y2: sy(snapped[1]), class: 'snap-line' }, layers.snap);
      el('circle', { cx: sx(snapped[0]), cy: sy(snapped[1]), r: 3.5, class: 'snap-dot' }, layers.snap);
    }
    // The handles are created once (buildLayers), so keyboard focus survives redraws.
    const g = $(`#handle-${which}`);
    g.setAttribute('transform', `translate(${sx(p[0]).toFixed(2)},${sy(p[1]).toFixed(2)})`);
    g.setAttribute('aria-label', `${which === 'start' ? 'Start' : 'Goal'} ${label} at ${fmtPoint(p)}: drag it, or use the arrow keys`);
    g.dataset.x = String(p[0]);
    g.dataset.y = String(p[1]);
  }
}

function setStat(name, value, text) {
  const s = document.querySelector(`#stats [data-stat="${name}"]`);
  s.dataset.value = value === null ? '' : String(value);
  s.textContent = text;
}

function drawStats() {
  const r = state.result;
  const f = r && r.funnel;
  setStat('polygons', state.scene.mesh.polygon_count, `${state.scene.mesh.polygon_count} polygons in the mesh`);
  const bound = document.querySelector('#stats [data-stat="bound"]');
  // What the search proved: shown for the methods that prove something (not the funnel's).
  bound.hidden = !(r && r.bound != null);
  if (r && r.bound != null) {
    setStat('bound', r.bound, r.bound === 1 ? 'proved optimal' : `proved within ×${r.bound.toFixed(3)} of optimal`);
  }
  if (r) {
    const by = r.method === 'funnel' ? '' : ` (${methodName(r.method)})`;
    setStat('length', r.length, `path ${fmt(r.length)}${by}`);
    // The funnel's A* expands polygons; the exact searches count their own search nodes.
    setStat('expanded', r.expanded, `${r.expanded} ${r.method === 'funnel' ? 'polygons' : 'nodes'} expanded`);
    setStat('time', r.micros, `query ${r.micros < 10 ? r.micros.toFixed(1) : Math.round(r.micros)} µs`);
  } else {
    setStat('length', null, 'no path');
    setStat('expanded', null, '– expanded');
    setStat('time', null, '– µs');
  }
  const mid = document.querySelector('#stats [data-stat="midpoints"]');
  mid.hidden = !(ui.midpoints.checked && f);
  if (f) {
    const extra = r.length > 0 ? ` (+${Math.round((f.midpoints.length / r.length - 1) * 100)}%)` : '';
    setStat('midpoints', f.midpoints.length, `midpoints ${fmt(f.midpoints.length)}${extra}`);
  }
  const x = ui.exact.checked && state.exact;
  document.querySelector('#stats [data-stat="exact"]').hidden = !x;
  if (x) {
    // How much longer the path drawn is than the shortest one.
    const excess = r && x.length > 0 ? (r.length / x.length - 1) * 100 : null;
    const name = r ? methodName(r.method) : 'funnel';
    const vs = excess === null ? '' : excess < 0.05 ? ` (the ${name} path is shortest)` : ` (${name} +${excess.toFixed(1)}%)`;
    setStat('exact', x.length, `exact ${fmt(x.length)}${vs}`);
  }
  showMessage([state.loadError, state.editError, state.pathError, state.exactError].filter(Boolean).join(' ') || null);
  drawStepInfo();
}

function showMessage(text) {
  ui.message.hidden = !text;
  ui.message.textContent = text || '';
}

// ---------------------------------------------------------------------------------------------
// Step mode

function stepCount() {
  // Nothing to step while the answer for a newly chosen method is on its way.
  const r = state.result;
  return r && r.funnel && r.method === ui.method.value ? r.funnel.steps.length : 0;
}

function clampStep() {
  state.step.k = Math.min(state.step.k, stepCount());
}

function drawStepInfo() {
  const n = stepCount();
  const k = state.step.k;
  ui.stepInfo.dataset.step = String(state.step.active ? k : 0);
  ui.stepInfo.dataset.steps = String(n);
  ui.stepInfo.dataset.done = String(state.step.active && n > 0 && k === n);
  $('#btn-back').disabled = !state.step.active || k === 0;
  $('#btn-step').disabled = n === 0 || (state.step.active && k === n);
  $('#btn-reset').disabled = !state.step.active;
  if (!state.step.active) {
    ui.stepInfo.textContent = n ? `Press Step to walk the funnel through the ${state.result.funnel.portals.length - 2} portals of the channel.`
      : ui.method.value !== 'funnel' ? `The ${methodName(ui.method.value)} search has no funnel to walk: choose the funnel method to step through it.`
        : 'No funnel to walk.';
    return;
  }
  const r = state.result;
  if (!r || !r.funnel) {
    ui.stepInfo.textContent = 'No funnel to walk.';
    return;
  }
  const now = funnelAfter(k);
  if (k === 0) {
    ui.stepInfo.textContent = `Step 0 of ${n}: the apex is at the start S.`;
    return;
  }
  const before = funnelAfter(k - 1);
  const s = now.step;
  const portals = r.funnel.portals.length;
  const what = s.portal === portals - 1 ? 'the goal (a zero-width portal)' : `portal ${s.portal} of ${portals - 2}`;
  let text;
  if (s.done) {
    text = `reached G: the path is complete, ${now.corners.length - 2} corner${now.corners.length === 3 ? '' : 's'}, length ${fmt(polylineLength(now.corners))}.`;
  } else if (s.corner && same(s.corner, before.left)) {
    text = `the right side would cross the left one, so the path turns at the left end ${fmtPoint(s.corner)}; the apex moves there and the scan restarts after its portal.`;
  } else if (s.corner) {
    text = `the left side would cross the right one, so the path turns at the right end ${fmtPoint(s.corner)}; the apex moves there and the scan restarts after its portal.`;
  } else {
    const l = !same(now.left, before.left);
    const rr = !same(now.right, before.right);
    text = l && rr ? 'both sides tighten.' : l ? 'the left side tightens.' : rr ? 'the right side tightens.' : 'both ends lie outside the funnel: it stays as it is.';
  }
  ui.stepInfo.textContent = `Step ${k} of ${n}, ${what}: ${text}`;
}

// The funnel-only controls (crossing point, portals, midpoints, step mode) are disabled while
// another method is chosen; their settings are kept for when the funnel comes back.
function updateMethodControls() {
  const funnel = ui.method.value === 'funnel';
  for (const input of [ui.portalPoint, ui.portals, ui.midpoints]) input.disabled = !funnel;
  $('#step').classList.toggle('off', !funnel);
  ui.svg.dataset.method = ui.method.value;
}

function stepBy(delta) {
  const n = stepCount();
  if (!n) return;
  if (!state.step.active) {
    if (delta < 0) return;
    state.step.active = true;
    state.step.k = 0;
  }
  state.step.k = Math.max(0, Math.min(n, state.step.k + delta));
  scheduleDraw();
}

function resetSteps() {
  state.step.active = false;
  state.step.k = 0;
  scheduleDraw();
}

// ---------------------------------------------------------------------------------------------
// Interaction: dragging S and G, editing obstacles

let drag = null; // { kind: 'handle'|'obstacle'|'vertex', ... }

function moveHandle(which, p) {
  state[which] = clampToBounds(p);
  scheduleDraw();
  pathQueue.request();
}

function obstacleAt(target) {
  const poly = target.closest && target.closest('path.obstacle');
  return poly ? Number(poly.dataset.index) : -1;
}

function onPointerDown(evt) {
  if (!state.scene || evt.button > 0) return;
  const handle = evt.target.closest('.handle');
  const world = toWorld(evt);
  if (handle) {
    drag = { kind: 'handle', which: handle.dataset.which };
  } else if (ui.edit.checked && evt.target.classList.contains('vertex')) {
    drag = { kind: 'vertex', index: state.selected, vertex: Number(evt.target.dataset.vertex) };
  } else if (ui.edit.checked && obstacleAt(evt.target) >= 0) {
    const index = obstacleAt(evt.target);
    state.selected = index;
    const holes = state.holes.flatMap((h, k) => (h.obstacle === index ? [{ k, ring: h.ring.map((p) => p.slice()) }] : []));
    drag = { kind: 'obstacle', index, from: world, original: state.obstacles[index].map((p) => p.slice()), holes };
    updateEditButtons();
    scheduleDraw();
  } else if (ui.edit.checked) {
    state.selected = -1;
    updateEditButtons();
    scheduleDraw();
    return;
  } else {
    // A press on open ground moves the nearer of S and G there, and drags it.
    const d = (p) => Math.hypot(p[0] - world[0], p[1] - world[1]);
    const which = d(state.start) <= d(state.goal) ? 'start' : 'goal';
    drag = { kind: 'handle', which };
    moveHandle(which, world);
  }
  ui.svg.setPointerCapture(evt.pointerId);
  evt.preventDefault();
}

function onPointerMove(evt) {
  if (!drag) return;
  const world = toWorld(evt);
  if (drag.kind === 'handle') {
    moveHandle(drag.which, world);
  } else if (drag.kind === 'vertex') {
    state.obstacles[drag.index][drag.vertex] = clampToBounds(world);
    editChanged();
  } else if (drag.kind === 'obstacle') {
    // Translate, clamped so that every corner stays inside the bounds.
    const b = bounds();
    let dx = world[0] - drag.from[0];
    let dy = world[1] - drag.from[1];
    const xs = drag.original.map((p) => p[0]);
    const ys = drag.original.map((p) => p[1]);
    dx = Math.min(b.maxx - Math.max(...xs), Math.max(b.minx - Math.min(...xs), dx));
    dy = Math.min(b.maxy - Math.max(...ys), Math.max(b.miny - Math.min(...ys), dy));
    state.obstacles[drag.index] = drag.original.map((p) => [p[0] + dx, p[1] + dy]);
    for (const h of drag.holes) state.holes[h.k].ring = h.ring.map((p) => [p[0] + dx, p[1] + dy]);
    editChanged();
  }
}

function onPointerUp(evt) {
  if (!drag) return;
  drag = null;
  if (ui.svg.hasPointerCapture(evt.pointerId)) ui.svg.releasePointerCapture(evt.pointerId);
}

function editChanged() {
  scheduleDraw();
  sceneQueue.request();
}

function addObstacle(center) {
  const b = bounds();
  const h = newObstacleHalfSize();
  const c = [
    Math.min(b.maxx - h, Math.max(b.minx + h, center[0])),
    Math.min(b.maxy - h, Math.max(b.miny + h, center[1])),
  ];
  state.obstacles.push([[c[0] - h, c[1] - h], [c[0] + h, c[1] - h], [c[0] + h, c[1] + h], [c[0] - h, c[1] + h]]);
  state.selected = state.obstacles.length - 1;
  updateEditButtons();
  editChanged();
}

// A centre for a new obstacle, as near the middle of the map as possible, whose square keeps
// clear of the other obstacles' bounding boxes and of S and G.
function freeSpot() {
  const b = bounds();
  const h = newObstacleHalfSize() * 1.6;
  const mid = [(b.minx + b.maxx) / 2, (b.miny + b.maxy) / 2];
  const boxes = state.obstacles.map((o) => ({
    minx: Math.min(...o.map((p) => p[0])), maxx: Math.max(...o.map((p) => p[0])),
    miny: Math.min(...o.map((p) => p[1])), maxy: Math.max(...o.map((p) => p[1])),
  }));
  const free = (c) => boxes.every((q) => c[0] + h < q.minx || c[0] - h > q.maxx || c[1] + h < q.miny || c[1] - h > q.maxy) &&
    [state.start, state.goal].every((p) => Math.abs(p[0] - c[0]) > h || Math.abs(p[1] - c[1]) > h);
  const candidates = [];
  const n = 24;
  for (let i = 0; i <= n; i++) {
    for (let j = 0; j <= n; j++) {
      const c = [b.minx + h + (b.maxx - b.minx - 2 * h) * i / n, b.miny + h + (b.maxy - b.miny - 2 * h) * j / n];
      candidates.push(c);
    }
  }
  candidates.sort((p, q) => Math.hypot(p[0] - mid[0], p[1] - mid[1]) - Math.hypot(q[0] - mid[0], q[1] - mid[1]));
  return candidates.find(free) || mid;
}

function newObstacleHalfSize() {
  const b = bounds();
  return Math.min(b.maxx - b.minx, b.maxy - b.miny) * 0.06;
}

function deleteSelected() {
  if (!ui.edit.checked || state.selected < 0) return;
  const gone = state.selected;
  state.obstacles.splice(gone, 1);
  state.holes = state.holes.filter((h) => h.obstacle !== gone)
    .map((h) => (h.obstacle > gone ? { obstacle: h.obstacle - 1, ring: h.ring } : h));
  state.selected = -1;
  state.badObstacles = new Set();
  updateEditButtons();
  editChanged();
}

async function resetMap() {
  const { ok, data } = await api('POST', '/api/scene/reset');
  if (!ok) {
    state.editError = `Cannot reset: ${data.error}`;
    return scheduleDraw();
  }
  state.badObstacles = new Set();
  state.editError = null;
  state.selected = -1;
  adoptScene(data, true);
  updateEditButtons();
  pathQueue.request();
}

function updateEditButtons() {
  const on = ui.edit.checked;
  $('#btn-add').disabled = !on;
  $('#btn-delete').disabled = !on || state.selected < 0;
  $('#edit-help').hidden = !on;
  ui.svg.classList.toggle('editing', on);
}

function onKeyDown(evt) {
  const t = evt.target;
  const handle = t.closest && t.closest('.handle');
  if (handle && evt.key.startsWith('Arrow')) {
    const b = bounds();
    const unit = Math.max(b.maxx - b.minx, b.maxy - b.miny) / 160 * (evt.shiftKey ? 5 : 1);
    const d = { ArrowLeft: [-unit, 0], ArrowRight: [unit, 0], ArrowUp: [0, unit], ArrowDown: [0, -unit] }[evt.key];
    const which = handle.dataset.which;
    moveHandle(which, [state[which][0] + d[0], state[which][1] + d[1]]);
    evt.preventDefault();
    return;
  }
  const typing = t.tagName === 'SELECT' || t.tagName === 'TEXTAREA' ||
    (t.tagName === 'INPUT' && !['checkbox', 'radio', 'button'].includes(t.type));
  if (typing || evt.ctrlKey || evt.metaKey || evt.altKey) return;
  const toggle = (box) => {
    if (box.disabled) return;
    box.checked = !box.checked;
    box.dispatchEvent(new Event('change'));
  };
  switch (evt.key) {
    case 'ArrowRight': stepBy(1); break;
    case 'ArrowLeft': stepBy(-1); break;
    case 'Escape': resetSteps(); break;
    case 'm': case 'M': toggle(ui.mesh); break;
    case 'd': case 'D': toggle(ui.midpoints); break;
    case 'p': case 'P': toggle(ui.portals); break;
    case 'x': case 'X': if (!$('#exact-row').hidden) toggle(ui.exact); break;
    case 'e': case 'E': toggle(ui.edit); break;
    case 'Delete': case 'Backspace': deleteSelected(); break;
    default: return;
  }
  evt.preventDefault();
}

// ---------------------------------------------------------------------------------------------
// Start

function init() {
  buildLayers();
  ui.svg.addEventListener('pointerdown', onPointerDown);
  ui.svg.addEventListener('pointermove', onPointerMove);
  ui.svg.addEventListener('pointerup', onPointerUp);
  ui.svg.addEventListener('pointercancel', onPointerUp);
  ui.svg.addEventListener('dblclick', (evt) => {
    if (ui.edit.checked && obstacleAt(evt.target) < 0 && !evt.target.closest('.handle')) addObstacle(toWorld(evt));
  });
  document.addEventListener('keydown', onKeyDown);
  for (const box of [ui.mesh, ui.midpoints, ui.portals]) box.addEventListener('change', () => scheduleDraw());
  for (const input of [ui.portalPoint, ui.snap]) input.addEventListener('change', () => pathQueue.request());
  ui.method.addEventListener('change', () => {
    // Step mode walks the funnel of the path drawn: leave it when that path changes method.
    state.step.active = false;
    state.step.k = 0;
    updateMethodControls();
    scheduleDraw();
    pathQueue.request();
  });
  ui.exact.addEventListener('change', () => {
    if (!ui.exact.checked) state.exact = null;
    scheduleDraw();
    pathQueue.request();
  });
  ui.decomposition.addEventListener('change', () => sceneQueue.request());
  ui.arcError.addEventListener('change', () => sceneQueue.request());
  ui.agentRadius.addEventListener('input', () => {
    ui.agentRadiusValue.textContent = fmtRadius(ui.agentRadius.value);
    sceneQueue.request();
  });
  ui.cornerOffset.addEventListener('input', () => {
    ui.cornerOffsetValue.textContent = ui.cornerOffset.value;
    pathQueue.request();
  });
  ui.edit.addEventListener('change', () => {
    updateEditButtons();
    scheduleDraw();
  });
  $('#btn-step').addEventListener('click', () => stepBy(1));
  $('#btn-back').addEventListener('click', () => stepBy(-1));
  $('#btn-reset').addEventListener('click', resetSteps);
  $('#btn-add').addEventListener('click', () => addObstacle(freeSpot()));
  $('#btn-delete').addEventListener('click', deleteSelected);
  $('#btn-reset-map').addEventListener('click', resetMap);
  new ResizeObserver(() => {
    fit();
    scheduleDraw(true);
  }).observe(ui.svg);
  updateEditButtons();
  loadScene().then((ok) => ok && pathQueue.request());
}

init();

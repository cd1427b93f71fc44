// Portolan demo page, crowd mode: many agents simulated by the server (`/api/crowd`, see the
// README's HTTP API) and drawn on a canvas over the map. Embedded in the binary like app.js,
// no build step; it only reads app.js's DOM (#map[data-view] for the world→screen transform,
// #map[data-revision]) and adds its own panel section and canvas.
//
// Transport: each POST /api/crowd/{id}/step advances K steps (about 50 ms of simulated time) and
// answers the positions after them. The page plays the simulation back on a clock that runs at
// `timeScale` simulated seconds per second, keeps up to two step requests in flight ahead of the
// clock, and draws each animation frame by interpolating between the two answers around the
// clock. When the server falls behind, the clock waits at the newest answer (the animation
// slows down, it never jumps).
//
// Test hook (read by e2e/crowd.test.mjs, stable): window.__crowd with
//   id, agents, radius, ids, positions (the newest server answer: [x0, y0, x1, y1, …], world
//   coordinates), drawn (the positions drawn last frame, interpolated), goals, time (its simulated time), answers (step answers received), arrived,
//   search and graph (how the crowd plans, and with "corner" whether its graph was built),
//   stepMs (mean step time of the newest answer), fps (animation frames per second over the
//   last second), frames (frames drawn), timeScale, selected (ids), running;
//   and create({agents, scenario}), send(ids | null, [x, y]), setTimeScale(k), toWorld(x, y)
//   (client pixels → world), toScreen(x, y) (world → client pixels).
'use strict';

(() => {
  const $ = (sel) => document.querySelector(sel);
  const STEP_SIM_SECONDS = 0.05; // simulated time asked for per step request
  const LEAD = 0.15; // simulated seconds fetched ahead of the clock
  const MAX_IN_FLIGHT = 2;
  // Agents of radius 3 at 40 units/s on the default 800 × 450 map; scaled with the map's size on
  // others (a 194-cell grid map gets radius 0.73).
  const RADIUS = 3;
  const SPEED = 40;
  let scaleOf = { revision: null, scale: 1 };

  const style = document.createElement('style');
  style.textContent = `
    #crowd-canvas { position: absolute; inset: 0; width: 100%; height: 100%; touch-action: none; }
    #app:not([data-mode="crowd"]) #crowd-canvas { display: none; }
    #app[data-mode="crowd"] #map #layer-channel, #app[data-mode="crowd"] #map #layer-portals,
    #app[data-mode="crowd"] #map #layer-path, #app[data-mode="crowd"] #map #layer-exact,
    #app[data-mode="crowd"] #map #layer-midpoints, #app[data-mode="crowd"] #map #layer-funnel,
    #app[data-mode="crowd"] #map #layer-handles { display: none; }
    #crowd-stats { font-variant-numeric: tabular-nums; margin: 4px 0; }
    #crowd-stats span { display: inline-block; margin-right: 10px; }
  `;
  document.head.appendChild(style);

  const section = document.createElement('section');
  section.id = 'crowd';
  section.setAttribute('aria-labelledby', 'h-crowd');
  section.innerHTML = `
    <h2 id="h-crowd">Crowd</h2>
    <label title="Agents simulated on the server (ORCA avoidance on the navmesh), drawn here"><input type="checkbox" id="toggle-crowd"> crowd mode <kbd>C</kbd></label>
    <label class="range">agents <output id="crowd-count-value" for="crowd-count">300</output>
      <input type="range" id="crowd-count" min="1" max="2000" step="1" value="300">
    </label>
    <div class="buttons">
      <button type="button" id="btn-crowd-spawn" title="Agents at random places with random goals">Spawn</button>
      <button type="button" id="btn-crowd-circle" title="Agents on rings around the centre, each going to the opposite side">Circle</button>
      <button type="button" id="btn-crowd-pause">Pause</button>
    </div>
    <label title="How agents plan their routes: the chapter's channel search does not always find the shortest; the exact search does, and through a corner graph of the crowd's mesh it plans faster on large maps">plans
      <select id="crowd-search">
        <option value="funnel" selected>channel search</option>
        <option value="exact">exact</option>
        <option value="corner">exact, corner graph</option>
      </select>
    </label>
    <label>speed
      <select id="crowd-time-scale">
        <option value="0.5">½× real time</option>
        <option value="1" selected>1× real time</option>
        <option value="2">2×</option>
        <option value="4">4×</option>
      </select>
    </label>
    <p id="crowd-stats" aria-live="off">
      <span data-stat="step">step – ms</span><span data-stat="fps">– fps</span>
      <span data-stat="arrived">– arrived</span><span data-stat="time">t = –</span>
    </p>
    <p class="help">Click ground to send the selected agents there (all of them when none is selected); click an agent to select it, drag a box to select several, Shift adds. Esc clears the selection.</p>
  `;
  const panel = $('#panel');
  const legend = panel.querySelector('section[aria-labelledby="h-legend"]');
  panel.insertBefore(section, legend);

  const stage = $('#stage');
  const svg = $('#map');
  const app = $('#app');
  const canvas = document.createElement('canvas');
  canvas.id = 'crowd-canvas';
  canvas.setAttribute('aria-label', 'Crowd: click to send agents, drag to select');
  stage.insertBefore(canvas, $('#message'));
  const ctx = canvas.getContext('2d');

  const ui = {
    toggle: $('#toggle-crowd'),
    count: $('#crowd-count'),
    countValue: $('#crowd-count-value'),
    spawn: $('#btn-crowd-spawn'),
    circle: $('#btn-crowd-circle'),
    pause: $('#btn-crowd-pause'),
    timeScale: $('#crowd-time-scale'),
    search: $('#crowd-search'),
    stats: $('#crowd-stats'),
    message: $('#message'),
  };

  const c = {
    on: false,
    running: true,
    id: null,
    ids: [],
    scenario: 'random',
    search: null, // how the crowd's agents plan, as the server answered
    graph: null, // with "corner": whether the crowd's mesh has its graph
    radius: RADIUS,
    dt: 0.01,
    goals: [],
    snaps: [], // [{ t, pos: Float32Array }], oldest first
    inFlight: 0,
    clock: 0, // simulated time shown
    wall: null, // performance.now() of the last frame
    timeScale: 1,
    stepMs: null,
    arrived: 0,
    answers: 0,
    frames: 0,
    frameTimes: [],
    selected: new Set(),
    generation: 0, // bumped when the crowd is replaced: late answers of the old one are dropped
    drawn: null, // positions drawn last frame
    drag: null,
    creating: false,
  };

  // --- view ----------------------------------------------------------------------------------

  function view() {
    try {
      return JSON.parse(svg.dataset.view || 'null');
    } catch (e) {
      return null;
    }
  }
  function toScreen(x, y, v = view()) {
    return [v.x0 + (x - v.minx) * v.k, v.y0 + (v.maxy - y) * v.k];
  }
  function toWorld(px, py, v = view()) {
    return [v.minx + (px - v.x0) / v.k, v.maxy - (py - v.y0) / v.k];
  }

  // --- server --------------------------------------------------------------------------------

  async function api(method, path, body) {
    const init = { method, headers: {} };
    if (body !== undefined) {
      init.headers['Content-Type'] = 'application/json';
      init.body = JSON.stringify(body);
    }
    try {
      const res = await fetch(path, init);
      const data = await res.json().catch(() => ({ error: `unreadable answer (HTTP ${res.status})` }));
      return { ok: res.ok, status: res.status, data };
    } catch (e) {
      return { ok: false, status: 0, data: { error: `the server cannot be reached (${e.message})` } };
    }
  }

  function say(text) {
    ui.message.textContent = text;
    ui.message.hidden = !text;
  }

  // The map's size over the default map's, from the scene the server holds (fetched again only
  // when the scene's revision changes).
  async function mapScale() {
    const revision = svg.dataset.revision;
    if (scaleOf.revision !== revision) {
      const r = await api('GET', '/api/scene');
      if (!r.ok) return 1;
      const b = r.data.scene.bounds;
      scaleOf = { revision, scale: Math.max(b.max[0] - b.min[0], b.max[1] - b.min[1]) / 800 };
    }
    return scaleOf.scale;
  }

  async function create(opts = {}) {
    const scenario = opts.scenario || 'random';
    let agents = opts.agents || Number(ui.count.value);
    c.generation += 1;
    const gen = c.generation;
    c.creating = true;
    const old = c.id;
    c.id = null;
    c.snaps = [];
    c.selected.clear();
    if (old !== null) api('DELETE', `/api/crowd/${old}`);
    const scale = await mapScale();
    const radius = Math.round(RADIUS * scale * 100) / 100;
    const speed = Math.round(SPEED * scale * 100) / 100;
    const search = ui.search.value;
    c.scenario = scenario;
    const ask = () => api('POST', '/api/crowd', { agents, scenario, radius, speed, seed: opts.seed || 1, search });
    let r = await ask();
    let note = '';
    // Asked again for the number placed, the server places the same agents (its draws stop
    // where they did whatever the count asked for).
    if (!r.ok && r.data.code === 'no-room' && r.data.placed > 0 && gen === c.generation) {
      note = `This map holds only ${r.data.placed} of ${agents} agents in a ${scenario}.`;
      agents = r.data.placed;
      r = await ask();
    }
    if (gen !== c.generation) {
      // A newer crowd was asked for meanwhile: this one is not wanted.
      if (r.ok) api('DELETE', `/api/crowd/${r.data.crowd}`);
      return r;
    }
    c.creating = false;
    if (!r.ok) {
      say(`Crowd: ${r.data.error}`);
      return r;
    }
    say(note);
    const d = r.data;
    c.id = d.crowd;
    c.ids = d.ids;
    c.radius = d.radius;
    c.dt = d.dt;
    c.goals = d.goals;
    c.arrived = d.arrived;
    c.search = d.search;
    c.graph = d.graph === undefined ? null : d.graph;
    c.stepMs = null;
    c.snaps = [{ t: d.time, pos: Float32Array.from(d.positions) }];
    c.clock = d.time;
    c.answers = 0;
    pump();
    return r;
  }

  // Keeps step requests flowing while the newest answer is less than LEAD ahead of the clock.
  function pump() {
    if (!c.on || !c.running || c.id === null) return;
    while (c.inFlight < MAX_IN_FLIGHT && ahead() < LEAD) stepOnce();
  }

  function ahead() {
    const last = c.snaps[c.snaps.length - 1];
    const pending = c.inFlight * stepsPerRequest() * c.dt;
    return last ? last.t + pending - c.clock : Infinity;
  }

  function stepsPerRequest() {
    return Math.max(1, Math.min(100, Math.round((STEP_SIM_SECONDS * c.timeScale) / c.dt)));
  }

  async function stepOnce() {
    const gen = c.generation;
    const id = c.id;
    c.inFlight += 1;
    const r = await api('POST', `/api/crowd/${id}/step`, { steps: stepsPerRequest() });
    c.inFlight -= 1;
    if (gen !== c.generation) return;
    if (!r.ok) {
      if (r.data.code === 'unknown-crowd') {
        // Dropped after idling (the tab slept): start a new one.
        say('The crowd had expired; here is a new one.');
        create();
      } else {
        c.running = false;
        ui.pause.textContent = 'Run';
        say(`Crowd: ${r.data.error}`);
      }
      return;
    }
    const d = r.data;
    c.snaps.push({ t: d.time, pos: Float32Array.from(d.positions) });
    c.stepMs = d.step_ms;
    c.arrived = d.arrived;
    if (d.graph !== undefined) c.graph = d.graph;
    c.answers += 1;
    pump();
  }

  async function send(ids, goal) {
    if (c.id === null) return null;
    const r = await api('POST', `/api/crowd/${c.id}/goal`, { agents: ids, goal, snap: 4 * c.radius });
    if (!r.ok) {
      say(`Crowd: ${r.data.error}`);
      return r;
    }
    say('');
    c.goals = r.data.goals;
    return r;
  }

  // --- drawing -------------------------------------------------------------------------------

  function resize() {
    const dpr = window.devicePixelRatio || 1;
    const w = Math.round(canvas.clientWidth * dpr);
    const h = Math.round(canvas.clientHeight * dpr);
    if (canvas.width !== w || canvas.height !== h) {
      canvas.width = w;
      canvas.height = h;
    }
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
  }

  // Positions at the clock: the two answers around it, blended.
  function positionsNow() {
    const s = c.snaps;
    if (!s.length) return null;
    while (s.length > 2 && s[1].t <= c.clock) s.shift();
    if (s.length === 1 || c.clock <= s[0].t) return s[0].pos;
    const [a, b] = s;
    const u = Math.min(1, (c.clock - a.t) / (b.t - a.t));
    const out = new Float32Array(a.pos.length);
    for (let i = 0; i < out.length; i++) out[i] = a.pos[i] + (b.pos[i] - a.pos[i]) * u;
    return out;
  }

  function frame(now) {
    requestAnimationFrame(frame);
    if (!c.on) {
      c.wall = null;
      return;
    }
    const wallDt = c.wall === null ? 0 : Math.min(0.1, (now - c.wall) / 1000);
    c.wall = now;
    c.frameTimes.push(now);
    while (c.frameTimes.length && now - c.frameTimes[0] > 1000) c.frameTimes.shift();
    if (c.running && c.snaps.length) {
      const newest = c.snaps[c.snaps.length - 1].t;
      c.clock = Math.min(newest, c.clock + wallDt * c.timeScale);
    }
    pump();
    draw(positionsNow());
    c.frames += 1;
    if (c.frames % 10 === 0) drawStats();
  }

  function draw(pos) {
    resize();
    ctx.clearRect(0, 0, canvas.clientWidth, canvas.clientHeight);
    const v = view();
    if (!pos || !v) return;
    c.drawn = pos;
    const r = Math.max(1, c.radius * v.k);
    const n = pos.length / 2;
    // Goals of the selection, faint.
    ctx.fillStyle = 'rgba(26, 95, 180, 0.25)';
    ctx.beginPath();
    for (const i of selectedIndices()) {
      const [gx, gy] = toScreen(c.goals[2 * i], c.goals[2 * i + 1], v);
      ctx.moveTo(gx + r * 0.6, gy);
      ctx.arc(gx, gy, r * 0.6, 0, 2 * Math.PI);
    }
    ctx.fill();
    ctx.fillStyle = '#c0392b';
    ctx.beginPath();
    for (let i = 0; i < n; i++) {
      const x = v.x0 + (pos[2 * i] - v.minx) * v.k;
      const y = v.y0 + (v.maxy - pos[2 * i + 1]) * v.k;
      ctx.moveTo(x + r, y);
      ctx.arc(x, y, r, 0, 2 * Math.PI);
    }
    ctx.fill();
    if (c.selected.size) {
      ctx.fillStyle = '#1a5fb4';
      ctx.beginPath();
      for (const i of selectedIndices()) {
        const [x, y] = toScreen(pos[2 * i], pos[2 * i + 1], v);
        ctx.moveTo(x + r, y);
        ctx.arc(x, y, r, 0, 2 * Math.PI);
      }
      ctx.fill();
    }
    if (c.drag && c.drag.moved) {
      const { x0, y0, x1, y1 } = c.drag;
      ctx.strokeStyle = '#1a5fb4';
      ctx.setLineDash([4, 3]);
      ctx.strokeRect(Math.min(x0, x1), Math.min(y0, y1), Math.abs(x1 - x0), Math.abs(y1 - y0));
      ctx.setLineDash([]);
    }
  }

  function selectedIndices() {
    if (!c.selected.size) return [];
    const out = [];
    c.ids.forEach((id, i) => {
      if (c.selected.has(id)) out.push(i);
    });
    return out;
  }

  function drawStats() {
    const set = (name, text) => {
      const span = ui.stats.querySelector(`[data-stat="${name}"]`);
      span.textContent = text;
    };
    set('step', c.stepMs === null ? 'step – ms' : `step ${c.stepMs.toFixed(2)} ms`);
    set('fps', `${c.frameTimes.length} fps`);
    set('arrived', `${c.arrived}/${c.ids.length} arrived`);
    const last = c.snaps[c.snaps.length - 1];
    set('time', `t = ${(last ? last.t : 0).toFixed(1)} s`);
    ui.stats.dataset.stepMs = c.stepMs === null ? '' : String(c.stepMs);
  }

  // --- input ---------------------------------------------------------------------------------

  function local(evt) {
    const r = canvas.getBoundingClientRect();
    return [evt.clientX - r.left, evt.clientY - r.top];
  }

  function agentAt(px, py) {
    const v = view();
    if (!c.drawn || !v) return -1;
    const reach = Math.max(c.radius * v.k, 3) + 3;
    let best = -1;
    let bestD = reach * reach;
    for (let i = 0; i < c.drawn.length / 2; i++) {
      const [x, y] = toScreen(c.drawn[2 * i], c.drawn[2 * i + 1], v);
      const d = (x - px) ** 2 + (y - py) ** 2;
      if (d <= bestD) {
        bestD = d;
        best = i;
      }
    }
    return best;
  }

  canvas.addEventListener('pointerdown', (evt) => {
    const [x, y] = local(evt);
    c.drag = { x0: x, y0: y, x1: x, y1: y, moved: false, shift: evt.shiftKey };
    canvas.setPointerCapture(evt.pointerId);
  });
  canvas.addEventListener('pointermove', (evt) => {
    if (!c.drag) return;
    const [x, y] = local(evt);
    c.drag.x1 = x;
    c.drag.y1 = y;
    if (Math.abs(x - c.drag.x0) + Math.abs(y - c.drag.y0) > 5) c.drag.moved = true;
  });
  canvas.addEventListener('pointerup', (evt) => {
    const d = c.drag;
    c.drag = null;
    if (!d) return;
    const v = view();
    if (!v || !c.drawn) return;
    if (d.moved) {
      if (!d.shift) c.selected.clear();
      const [xa, xb] = [Math.min(d.x0, d.x1), Math.max(d.x0, d.x1)];
      const [ya, yb] = [Math.min(d.y0, d.y1), Math.max(d.y0, d.y1)];
      for (let i = 0; i < c.drawn.length / 2; i++) {
        const [x, y] = toScreen(c.drawn[2 * i], c.drawn[2 * i + 1], v);
        if (x >= xa && x <= xb && y >= ya && y <= yb) c.selected.add(c.ids[i]);
      }
      return;
    }
    const hit = agentAt(d.x0, d.y0);
    if (hit >= 0) {
      const id = c.ids[hit];
      if (!d.shift) c.selected.clear();
      if (d.shift && c.selected.has(id)) c.selected.delete(id);
      else c.selected.add(id);
      return;
    }
    const goal = toWorld(d.x0, d.y0, v);
    send(c.selected.size ? [...c.selected] : null, goal);
  });
  canvas.addEventListener('pointercancel', () => {
    c.drag = null;
  });

  function setOn(on, autoCreate = true) {
    c.on = on;
    ui.toggle.checked = on;
    app.dataset.mode = on ? 'crowd' : '';
    if (on && autoCreate && c.id === null && !c.creating) create();
    if (!on) say('');
    pump();
  }

  ui.toggle.addEventListener('change', () => setOn(ui.toggle.checked));
  ui.count.addEventListener('input', () => {
    ui.countValue.textContent = ui.count.value;
  });
  ui.count.addEventListener('change', () => {
    if (c.on) create();
  });
  ui.search.addEventListener('change', () => {
    if (c.on) create({ scenario: c.scenario });
  });
  ui.spawn.addEventListener('click', () => {
    setOn(true, false);
    create({ scenario: 'random' });
  });
  ui.circle.addEventListener('click', () => {
    setOn(true, false);
    create({ scenario: 'circle' });
  });
  ui.pause.addEventListener('click', () => {
    c.running = !c.running;
    ui.pause.textContent = c.running ? 'Pause' : 'Run';
    pump();
  });
  ui.timeScale.addEventListener('change', () => {
    c.timeScale = Number(ui.timeScale.value);
    pump();
  });
  document.addEventListener('keydown', (evt) => {
    const t = evt.target;
    const typing = t.tagName === 'SELECT' || t.tagName === 'TEXTAREA' ||
      (t.tagName === 'INPUT' && !['checkbox', 'radio', 'button'].includes(t.type));
    if (typing) return;
    if (evt.key === 'c' || evt.key === 'C') {
      if (evt.ctrlKey || evt.metaKey || evt.altKey) return;
      setOn(!c.on);
    } else if (evt.key === 'Escape' && c.on) {
      c.selected.clear();
    }
  });
  window.addEventListener('pagehide', () => {
    if (c.id !== null) fetch(`/api/crowd/${c.id}`, { method: 'DELETE', keepalive: true }).catch(() => {});
  });

  requestAnimationFrame(frame);

  window.__crowd = {
    get id() { return c.id; },
    get agents() { return c.ids.length; },
    get radius() { return c.radius; },
    get ids() { return c.ids.slice(); },
    get drawn() { return c.drawn ? Array.from(c.drawn) : []; },
    get positions() {
      const last = c.snaps[c.snaps.length - 1];
      return last ? Array.from(last.pos) : [];
    },
    get goals() { return c.goals.slice(); },
    get time() {
      const last = c.snaps[c.snaps.length - 1];
      return last ? last.t : 0;
    },
    get answers() { return c.answers; },
    get arrived() { return c.arrived; },
    get search() { return c.search; },
    get graph() { return c.graph; },
    get stepMs() { return c.stepMs; },
    get fps() { return c.frameTimes.length; },
    get frames() { return c.frames; },
    get timeScale() { return c.timeScale; },
    get selected() { return [...c.selected]; },
    get running() { return c.on && c.running; },
    create: (opts) => {
      setOn(true, false);
      return create(opts).then((r) => ({ ok: r.ok, status: r.status, data: r.data }));
    },
    send: (ids, goal) => send(ids, goal).then((r) => r && { ok: r.ok, status: r.status, data: r.data }),
    setTimeScale: (k) => {
      c.timeScale = k;
      pump();
    },
    toWorld: (x, y) => {
      const r = canvas.getBoundingClientRect();
      return toWorld(x - r.left, y - r.top);
    },
    toScreen: (x, y) => {
      const r = canvas.getBoundingClientRect();
      const [sx, sy] = toScreen(x, y);
      return [sx + r.left, sy + r.top];
    },
  };
})();

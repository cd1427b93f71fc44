// Shared helpers of the end-to-end tests: start `portolan serve --port 0`, open the page in
// headless Chromium, move the mouse in world coordinates, save screenshots.
//
// Environment:
//   PORTOLAN_BIN     the binary to test (default: target/release/portolan, else target/debug/portolan)
//   CHROMIUM         the browser (default: /usr/bin/chromium)
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before } from 'node:test';
import { chromium } from 'playwright-core';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const SCREENSHOTS = join(ROOT, 'target', 'e2e-screenshots');

/** PORTOLAN_BIN, else the newer of target/release/portolan and target/debug/portolan. */
function binary() {
  if (process.env.PORTOLAN_BIN) return process.env.PORTOLAN_BIN;
  const found = ['release', 'debug']
    .map((profile) => join(ROOT, 'target', profile, 'portolan'))
    .filter((p) => existsSync(p))
    .sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs);
  if (!found.length) throw new Error('no portolan binary: run `cargo build --release` first or set PORTOLAN_BIN');
  return found[0];
}

/** Starts `portolan serve --port 0 ...args` and resolves with { url, stop, stderr() }. */
export function startServer(args = []) {
  const child = spawn(binary(), ['serve', '--port', '0', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (d) => { stderr += d; });
  return new Promise((resolvePromise, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`no URL printed in time; stderr: ${stderr}`)), 20000);
    child.on('exit', (code) => reject(new Error(`portolan serve exited with ${code}: ${stderr}`)));
    child.stdout.on('data', (d) => {
      out += d;
      const m = out.match(/^Listening on (http:\/\/\S+\/)$/m);
      if (!m) return;
      clearTimeout(timer);
      child.removeAllListeners('exit');
      resolvePromise({
        url: m[1],
        stderr: () => stderr,
        stop: () => new Promise((done) => {
          if (child.exitCode !== null) return done(child.exitCode);
          child.removeAllListeners('exit');
          child.on('exit', (code) => done(code));
          child.kill('SIGINT');
        }),
      });
    });
  });
}

export async function launchBrowser() {
  return chromium.launch({
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    args: [
      '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync',
    ],
  });
}

/**
 * Hooks for the enclosing `describe` (or file): before its tests, starts `portolan serve --port 0
 * ...args` and a browser; after them, closes the browser and asserts that the server stops
 * cleanly (exit code 0 on SIGINT). Returns getters for the two, valid inside the tests:
 *
 *   const app = useServerAndBrowser();
 *   it('...', async () => { const { page } = await openPage(app.browser, app.server.url); ... });
 */
export function useServerAndBrowser(args = []) {
  let server;
  let browser;
  before(async () => {
    server = await startServer(args);
    browser = await launchBrowser();
  });
  after(async () => {
    try {
      await browser?.close();
    } finally {
      // Not started: `before` failed and said why.
      if (server) assert.equal(await server.stop(), 0, 'the server stops cleanly on SIGINT');
    }
  });
  const started = (what, value) => {
    if (!value) throw new Error(`no ${what}: use it inside the tests of the describe that called useServerAndBrowser()`);
    return value;
  };
  return {
    get server() { return started('server', server); },
    get browser() { return started('browser', browser); },
  };
}

/** Opens the page and waits until the first path is drawn. Collects console errors. */
export async function openPage(browser, url, { width = 1280, height = 760, hasTouch = false } = {}) {
  const context = await browser.newContext({ viewport: { width, height }, deviceScaleFactor: 1, hasTouch });
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  await page.goto(url);
  await page.waitForSelector('#path');
  await idle(page);
  return { page, errors, context };
}

/** Waits until no request is in flight or queued and the last frame is drawn. */
export async function idle(page) {
  await page.waitForSelector('#app[data-idle="true"]');
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
}

/** World point → page pixel, from the transform the page publishes on #map[data-view]. */
export async function toScreen(page, [x, y]) {
  const { view, box } = await page.evaluate(() => {
    const svg = document.querySelector('#map');
    const r = svg.getBoundingClientRect();
    return { view: JSON.parse(svg.dataset.view), box: { x: r.left, y: r.top } };
  });
  return { x: box.x + view.x0 + (x - view.minx) * view.k, y: box.y + view.y0 + (view.maxy - y) * view.k };
}

/** Drags the S or G handle to a world point with the mouse, in several moves, like a person. */
export async function dragHandle(page, which, to, steps = 12) {
  const h = page.locator(`#handle-${which}`);
  const from = await toScreen(page, [Number(await h.getAttribute('data-x')), Number(await h.getAttribute('data-y'))]);
  const target = await toScreen(page, to);
  await page.mouse.move(from.x, from.y);
  await page.mouse.down();
  await page.mouse.move(target.x, target.y, { steps });
  await page.mouse.up();
  await idle(page);
}

/** Clicks like a person and waits for the page to settle. */
export async function click(page, selector) {
  await page.click(selector);
  await idle(page);
}

/** Presses a key and waits for the page to settle. */
export async function press(page, key) {
  await page.keyboard.press(key);
  await idle(page);
}

export async function attr(page, selector, name) {
  return page.locator(selector).getAttribute(name);
}

export async function jsonAttr(page, selector, name) {
  return JSON.parse(await attr(page, selector, name));
}

/**
 * The figure a #stats span holds in data-value. Throws when there is no such span or it holds no
 * finite number (the page writes '' for a figure it has not got; Number('') would be 0).
 */
export async function stat(page, name) {
  const spans = page.locator(`#stats [data-stat="${name}"]`);
  const count = await spans.count();
  if (count !== 1) throw new Error(`stat "${name}": ${count} #stats [data-stat="${name}"] elements, want 1`);
  const raw = await spans.getAttribute('data-value');
  const value = Number(raw);
  if (raw === null || raw.trim() === '' || !Number.isFinite(value)) {
    throw new Error(`stat "${name}" holds no number: data-value=${JSON.stringify(raw)}`);
  }
  return value;
}

export async function screenshot(page, name) {
  mkdirSync(SCREENSHOTS, { recursive: true });
  const path = join(SCREENSHOTS, `${name}.png`);
  await page.screenshot({ path });
  return path;
}

export function polylineLength(pts) {
  let s = 0;
  for (let i = 1; i < pts.length; i++) s += Math.hypot(pts[i][0] - pts[i - 1][0], pts[i][1] - pts[i - 1][1]);
  return s;
}

// ---------------------------------------------------------------------------------------------
// Test points derived from the scene the server holds, so that the tests follow the map.

/** The server's GET /api/scene answer, fetched by the page. */
export async function sceneOf(page) {
  return page.evaluate(async () => (await fetch('/api/scene')).json());
}

/** The vertex average of a ring: inside it when it is convex. */
export const centroid = (ring) => [
  ring.reduce((s, p) => s + p[0], 0) / ring.length,
  ring.reduce((s, p) => s + p[1], 0) / ring.length,
];

function area(ring) {
  let a = 0;
  for (let i = 0; i < ring.length; i++) {
    const p = ring[i];
    const q = ring[(i + 1) % ring.length];
    a += p[0] * q[1] - q[0] * p[1];
  }
  return Math.abs(a) / 2;
}

/** The centroid of the mesh polygon whose centroid is nearest `p`: open ground near `p`. */
export function freeNear(scene, p) {
  const d = (c) => Math.hypot(c[0] - p[0], c[1] - p[1]);
  return scene.mesh.polygons.map(centroid).reduce((best, c) => (d(c) < d(best) ? c : best));
}

/** Two points well inside the largest mesh polygon. */
export function twoPointsInOnePolygon(scene) {
  const poly = scene.mesh.polygons.reduce((a, b) => (area(b) > area(a) ? b : a));
  const c = centroid(poly);
  const toward = (v, t) => [c[0] + (v[0] - c[0]) * t, c[1] + (v[1] - c[1]) * t];
  return [toward(poly[0], 0.4), toward(poly[Math.floor(poly.length / 2)], 0.4)];
}

/** An obstacle that touches no side of the bounds (all of its boundary is wall): { index, ring, inside }. */
export function interiorObstacle(scene) {
  const b = scene.scene.bounds;
  const index = scene.scene.obstacles.findIndex((o) =>
    o.every((p) => p[0] > b.min[0] && p[0] < b.max[0] && p[1] > b.min[1] && p[1] < b.max[1]));
  if (index < 0) throw new Error('the map has no obstacle clear of the bounds');
  const ring = scene.scene.obstacles[index];
  return { index, ring, inside: centroid(ring) };
}

/** Distance from `p` to the boundary of `ring`. */
export function distanceToBoundary(ring, p) {
  let best = Infinity;
  for (let i = 0; i < ring.length; i++) {
    const a = ring[i];
    const b = ring[(i + 1) % ring.length];
    const ab = [b[0] - a[0], b[1] - a[1]];
    const t = Math.max(0, Math.min(1, ((p[0] - a[0]) * ab[0] + (p[1] - a[1]) * ab[1]) / (ab[0] ** 2 + ab[1] ** 2)));
    best = Math.min(best, Math.hypot(a[0] + ab[0] * t - p[0], a[1] + ab[1] * t - p[1]));
  }
  return best;
}

/**
 * Whether two convex rings may come closer than `gap`: `false` only when an edge normal of one
 * of them separates them by at least `gap` (a conservative separating-axis test).
 */
export function convexNear(a, b, gap = 0) {
  for (const ring of [a, b]) {
    for (let i = 0; i < ring.length; i++) {
      const p = ring[i];
      const q = ring[(i + 1) % ring.length];
      const len = Math.hypot(q[0] - p[0], q[1] - p[1]);
      const n = [(q[1] - p[1]) / len, (p[0] - q[0]) / len];
      const proj = (r) => r.map((v) => v[0] * n[0] + v[1] * n[1]);
      const pa = proj(a);
      const pb = proj(b);
      if (Math.max(...pa) + gap <= Math.min(...pb) || Math.max(...pb) + gap <= Math.min(...pa)) return false;
    }
  }
  return true;
}

/** An axis-aligned square of half-size `h` around `c`. */
export const square = (c, h) => [[c[0] - h, c[1] - h], [c[0] + h, c[1] - h], [c[0] + h, c[1] + h], [c[0] - h, c[1] + h]];

/**
 * A point on `path` where a square of half-size `h` keeps `gap` clear of every obstacle and of
 * the bounds, and holds neither end of the path.
 */
export function roomOnPath(scene, path, h, gap) {
  const b = scene.scene.bounds;
  const ends = [path[0], path.at(-1)];
  for (let i = 1; i < path.length; i++) {
    for (let k = 1; k < 32; k++) {
      const c = [path[i - 1][0] + (path[i][0] - path[i - 1][0]) * k / 32, path[i - 1][1] + (path[i][1] - path[i - 1][1]) * k / 32];
      const sq = square(c, h);
      const inBounds = c[0] - h - gap > b.min[0] && c[0] + h + gap < b.max[0] && c[1] - h - gap > b.min[1] && c[1] + h + gap < b.max[1];
      const clear = scene.scene.obstacles.every((o) => !convexNear(sq, o, gap));
      const noEnd = ends.every((e) => Math.abs(e[0] - c[0]) > h + gap || Math.abs(e[1] - c[1]) > h + gap);
      if (inBounds && clear && noEnd) return c;
    }
  }
  throw new Error(`no room for a ${2 * h} square on the path`);
}

// Tiled mode: the tiles toggle draws the grid; an edit rebuilds only the tiles it touches, which
// flash, with the update time shown; a door opens and closes with one click; paths refresh.
import assert from 'node:assert/strict';
import { beforeEach, describe, it } from 'node:test';
import {
  attr, centroid, click, idle, jsonAttr, openPage, roomOnPath, sceneOf, screenshot, stat, toScreen,
  useServerAndBrowser,
} from './harness.mjs';

/** Drags with the mouse from one world point to another. */
async function drag(page, from, to) {
  const a = await toScreen(page, from);
  const b = await toScreen(page, to);
  await page.mouse.move(a.x, a.y);
  await page.mouse.down();
  await page.mouse.move(b.x, b.y, { steps: 8 });
  await page.mouse.up();
  await idle(page);
}

const box = (ring) => [
  Math.min(...ring.map((p) => p[0])), Math.min(...ring.map((p) => p[1])),
  Math.max(...ring.map((p) => p[0])), Math.max(...ring.map((p) => p[1])),
];

/**
 * The tiles a shape's box touches (agent radius 0): `strict` where they share interior, `loose`
 * where they share at least a point. What a tile on the box's very border does is the library's
 * choice; the reported tiles must lie between the two.
 */
function touched(tiles, bounds, ring) {
  const [bx0, by0, bx1, by1] = box(ring);
  const strict = [];
  const loose = [];
  for (let k = 0; k < tiles.columns * tiles.rows; k++) {
    const i = k % tiles.columns;
    const j = Math.floor(k / tiles.columns);
    const x0 = tiles.origin[0] + i * tiles.tile_size;
    const y0 = tiles.origin[1] + j * tiles.tile_size;
    const x1 = Math.min(bounds.max[0], x0 + tiles.tile_size);
    const y1 = Math.min(bounds.max[1], y0 + tiles.tile_size);
    if (x0 < bx1 && bx0 < x1 && y0 < by1 && by0 < y1) strict.push(k);
    if (x0 <= bx1 && bx0 <= x1 && y0 <= by1 && by0 <= y1) loose.push(k);
  }
  return { strict, loose };
}

/**
 * Records every answer of a tiled edit, and checks each against the obstacle it changed: the
 * tiles rebuilt are those its shape touched before the edit and after it, nothing else.
 */
function watchEdits(page, initial) {
  const answers = [];
  page.on('response', async (r) => {
    if (/\/api\/tiles\/(add|move|reshape|remove|door)$/.test(r.url()) && r.ok()) answers.push(await r.json());
  });
  return {
    answers,
    check() {
      let before = initial.tiles.obstacles;
      for (const a of answers) {
        const t = a.scene.tiles;
        const after = t.obstacles;
        const was = before.find((o) => o.id === a.obstacle);
        const now = after.find((o) => o.id === a.obstacle);
        assert.ok(was || now, `answer names obstacle ${a.obstacle}`);
        const want = { strict: new Set(), loose: new Set() };
        for (const o of [was, now].filter(Boolean)) {
          const { strict, loose } = touched(t, a.scene.scene.bounds, o.shape);
          strict.forEach((k) => want.strict.add(k));
          loose.forEach((k) => want.loose.add(k));
        }
        const got = new Set(a.update.tiles);
        for (const k of want.strict) assert.ok(got.has(k), `tile ${k} under obstacle ${a.obstacle} was rebuilt (got ${[...got]})`);
        for (const k of got) assert.ok(want.loose.has(k), `tile ${k} rebuilt, not touched by obstacle ${a.obstacle} (want ${[...want.strict]})`);
        assert.ok(got.size < t.columns * t.rows, 'not every tile was rebuilt');
        assert.ok(Number.isFinite(a.update.update_ms) && a.update.update_ms > 0);
        before = after;
      }
      return answers.length;
    },
  };
}

/**
 * Whether a polyline passes inside an axis-aligned box by more than a hair: the tiled mesh's
 * vertices at an obstacle's corners are within ~1e-6 of them, not on them (the tiles' polygon
 * overlay rounds), so a path turning there may graze the inside.
 */
function crossesBox(points, box) {
  const e = 1e-4;
  const [x0, y0, x1, y1] = [box[0] + e, box[1] + e, box[2] - e, box[3] - e];
  for (let i = 1; i < points.length; i++) {
    for (let s = 0; s <= 64; s++) {
      const p = [points[i - 1][0] + (points[i][0] - points[i - 1][0]) * s / 64, points[i - 1][1] + (points[i][1] - points[i - 1][1]) * s / 64];
      if (p[0] > x0 + 1e-9 && p[0] < x1 - 1e-9 && p[1] > y0 + 1e-9 && p[1] < y1 - 1e-9) return true;
    }
  }
  return false;
}

/** The page's report of the last edit: its tiles (sorted), and the flashing tiles. */
async function pageReport(page) {
  const tiles = (await jsonAttr(page, '#tiles-info', 'data-tiles')).sort((a, b) => a - b);
  const flashing = (await page.locator('rect.tile-flash').evaluateAll((rs) => rs.map((r) => Number(r.dataset.tile)))).sort((a, b) => a - b);
  return { tiles, flashing };
}

describe('tiled mode', () => {
  const app = useServerAndBrowser();
  beforeEach(async () => {
    const res = await fetch(`${app.server.url}api/scene/reset`, { method: 'POST' });
    assert.equal(res.status, 200);
  });

  it('draws the tile grid; an edit rebuilds only the tiles it touches, which flash, with the time; the path refreshes', async () => {
    const { page, errors } = await openPage(app.browser, app.server.url);
    assert.equal(await attr(page, '#map', 'data-tiled'), 'false');
    assert.equal(await page.locator('line.tile-line').count(), 0);

    await click(page, '#toggle-tiles');
    const scene = await sceneOf(page);
    const t = scene.tiles;
    assert.ok(t, 'the server holds a tiled world');
    assert.equal(t.tile_size, Number(await page.locator('#tile-size').inputValue()));
    assert.ok(t.columns * t.rows >= 20, `${t.columns} × ${t.rows} tiles`);
    assert.equal(await attr(page, '#map', 'data-tiled'), 'true');
    assert.equal(await attr(page, '#layer-tiles', 'data-columns'), String(t.columns));
    assert.equal(await attr(page, '#layer-tiles', 'data-rows'), String(t.rows));
    assert.equal(await page.locator('line.tile-line').count(), t.columns - 1 + t.rows - 1);
    // The first inner column border is drawn where the grid has it.
    const x1 = await toScreen(page, [t.origin[0] + t.tile_size, t.origin[1]]);
    const line = await page.locator('line.tile-line[data-column="1"]').evaluate((l) => {
      const r = l.getBoundingClientRect();
      return r.left + r.width / 2;
    });
    assert.ok(Math.abs(line - x1.x) < 1.5, `column border at ${line}, want ${x1.x}`);
    assert.equal(await stat(page, 'polygons'), scene.mesh.polygon_count);
    assert.equal(await page.locator('.mesh-poly').count(), scene.mesh.polygon_count);
    const path0 = await jsonAttr(page, '#path', 'data-points');
    await screenshot(page, 'tiles-grid');

    // Add an obstacle: only the tiles under it are rebuilt; they flash and the time is shown.
    const edits = watchEdits(page, scene);
    await click(page, '#toggle-edit');
    await click(page, '#btn-add');
    const added = (await sceneOf(page)).tiles.obstacles.at(-1);
    const want = touched(t, scene.scene.bounds, added.shape);
    let report = await pageReport(page);
    assert.ok(want.strict.every((k) => report.tiles.includes(k)), `rebuilt ${report.tiles}, under the obstacle ${want.strict}`);
    assert.ok(report.tiles.every((k) => want.loose.includes(k)), `rebuilt ${report.tiles}, touched ${want.loose}`);
    assert.deepEqual(report.flashing, report.tiles, 'the rebuilt tiles flash');
    const ms = await stat(page, 'update');
    assert.ok(ms > 0 && Number(await attr(page, '#tiles-info', 'data-ms')) === ms);
    assert.match(await page.locator('#stats [data-stat="update"]').textContent(), /update [\d.]+ ms \(\d+ tiles?\)/);
    assert.match(await page.locator('#tiles-info').textContent(), new RegExp(`Rebuilt ${report.tiles.length} of ${t.columns * t.rows} tiles`));
    await screenshot(page, 'tiles-added');

    // Drag it across the path: every move rebuilds the tiles under its old and new places only,
    // and the path goes around it.
    const h = (box(added.shape)[2] - box(added.shape)[0]) / 2;
    const across = roomOnPath(scene, path0, h, 16);
    await drag(page, centroid(added.shape), across);
    const moved = (await sceneOf(page)).tiles.obstacles.at(-1);
    assert.equal(moved.id, added.id, 'a move keeps the id');
    const [cx, cy] = centroid(moved.shape);
    assert.ok(Math.abs(cx - across[0]) < 2 && Math.abs(cy - across[1]) < 2, `moved to ${cx}, ${cy}`);
    const answers = edits.check();
    assert.ok(answers >= 2, `${answers} edits checked`);
    report = await pageReport(page);
    assert.deepEqual(report.tiles, [...edits.answers.at(-1).update.tiles].sort((a, b) => a - b), 'the page shows the last edit');
    assert.deepEqual(report.flashing, report.tiles);
    const path1 = await jsonAttr(page, '#path', 'data-points');
    assert.notDeepEqual(path1, path0, 'the path refreshed');
    await screenshot(page, 'tiles-moved');
    assert.ok(!crossesBox(path1, box(moved.shape)), `the path ${JSON.stringify(path1)} goes around the obstacle ${JSON.stringify(moved.shape)}`);
    assert.equal(await stat(page, 'polygons'), (await sceneOf(page)).mesh.polygon_count);

    // Pull a corner across the opposite side: the shape intersects itself, refused with the
    // obstacle outlined in red and the shape the mesh holds dashed; pulled back, accepted.
    const corner = moved.shape[2];
    const crossing = [cx - 1.5 * h, cy - 0.5 * h];
    await drag(page, corner, crossing);
    assert.equal(await page.locator('path.obstacle.bad').count(), 1);
    assert.match(await page.locator('#message').textContent(), /Not rebuilt.*intersects itself/);
    assert.ok(await page.locator('#layer-obstacles polygon.ghost').count() >= 1);
    await drag(page, crossing, corner);
    assert.equal(await page.locator('path.obstacle.bad').count(), 0);
    assert.ok(await page.locator('#message').isHidden());
    const reshaped = (await sceneOf(page)).tiles.obstacles.at(-1);
    assert.equal(reshaped.id, added.id, 'a reshape keeps the id');
    assert.ok(Math.hypot(reshaped.shape[2][0] - corner[0], reshaped.shape[2][1] - corner[1]) < 2);
    const reshapes = edits.check();

    // Delete it: back to the first path.
    await page.keyboard.press('Delete');
    await idle(page);
    assert.equal(edits.check(), reshapes + 1);
    assert.deepEqual(await jsonAttr(page, '#path', 'data-points'), path0);

    // Untick tiles: the whole mesh is built again, untiled, and the grid goes.
    await click(page, '#toggle-tiles');
    assert.equal(await attr(page, '#map', 'data-tiled'), 'false');
    assert.equal(await page.locator('line.tile-line').count(), 0);
    const untiled = await sceneOf(page);
    assert.equal(untiled.tiles, undefined);
    assert.deepEqual(untiled.scene.obstacles, scene.scene.obstacles);
    assert.equal(await stat(page, 'polygons'), untiled.mesh.polygon_count);
    assert.ok(untiled.mesh.polygon_count < scene.mesh.polygon_count, 'fewer polygons without tile borders');
    // The refused reshape shows up as a failed resource in the console; nothing else may.
    assert.deepEqual(errors.filter((e) => !/status of 422/.test(e)), []);
    await page.context().close();
  });

  it('a door opens and closes with one click, and the path goes through it or around it', async () => {
    const { page, errors } = await openPage(app.browser, app.server.url);
    await click(page, '#toggle-tiles');
    const scene = await sceneOf(page);
    const path0 = await jsonAttr(page, '#path', 'data-points');
    const length0 = await stat(page, 'length');
    const edits = watchEdits(page, scene);

    await click(page, '#toggle-edit');
    await click(page, '#btn-add-door');
    assert.equal(await page.locator('path.obstacle.door').count(), 1);
    let door = (await sceneOf(page)).tiles.obstacles.find((o) => o.door);
    assert.ok(door, 'the server holds a door');
    const half = Math.max(box(door.shape)[2] - box(door.shape)[0], box(door.shape)[3] - box(door.shape)[1]) / 2;
    await drag(page, centroid(door.shape), roomOnPath(scene, path0, half, 16));
    await click(page, '#toggle-edit');
    door = (await sceneOf(page)).tiles.obstacles.find((o) => o.door);
    const doorBox = box(door.shape);
    const sel = `path.obstacle.door[data-id="${door.id}"]`;
    assert.equal(await attr(page, sel, 'data-open'), 'false');

    // Closed: the path goes around it.
    const closed = await jsonAttr(page, '#path', 'data-points');
    assert.ok(!crossesBox(closed, doorBox), 'the path avoids the closed door');
    assert.ok(await stat(page, 'length') > length0 + 1e-6, 'and is longer');
    await screenshot(page, 'tiles-door-closed');

    // One click opens it: drawn open, and the path goes through as if there were no door.
    const at = await toScreen(page, centroid(door.shape));
    await page.mouse.click(at.x, at.y);
    await idle(page);
    assert.equal(await attr(page, sel, 'data-open'), 'true');
    assert.ok(await page.locator(sel).evaluate((p) => p.classList.contains('open')));
    const open = await jsonAttr(page, '#path', 'data-points');
    assert.ok(Math.abs(await stat(page, 'length') - length0) < 1e-6, 'the path is the one without the door');
    assert.ok(crossesBox(open, doorBox), 'through the open door');
    assert.equal((await sceneOf(page)).tiles.obstacles.find((o) => o.id === door.id).open, true);
    await screenshot(page, 'tiles-door-open');

    // Another click closes it again (on the path, which now runs over the door).
    await page.mouse.click(at.x, at.y);
    await idle(page);
    assert.equal(await attr(page, sel, 'data-open'), 'false');
    assert.deepEqual(await jsonAttr(page, '#path', 'data-points'), closed);
    const doorEdits = edits.answers.filter((a) => a.update && a.scene.tiles.obstacles.some((o) => o.id === door.id));
    assert.ok(edits.check() >= 3 && doorEdits.length >= 3);
    // A toggle rebuilds the door's tiles only.
    const last = edits.answers.at(-1);
    assert.deepEqual([...last.update.tiles].sort((a, b) => a - b), (await pageReport(page)).tiles);
    assert.deepEqual(errors, []);
    await page.context().close();
  });
});

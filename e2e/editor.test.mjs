// The obstacle editor: add, move, reshape and delete obstacles; the mesh is rebuilt by the server.
import assert from 'node:assert/strict';
import { beforeEach, describe, it } from 'node:test';
import {
  attr, centroid, click, idle, interiorObstacle, jsonAttr, openPage, press, roomOnPath, sceneOf, screenshot, stat,
  toScreen, useServerAndBrowser,
} from './harness.mjs';

/** Drags with the mouse from one world point to another. */
async function drag(page, from, to) {
  const a = await toScreen(page, from);
  const b = await toScreen(page, to);
  await page.mouse.move(a.x, a.y);
  await page.mouse.down();
  await page.mouse.move(b.x, b.y, { steps: 10 });
  await page.mouse.up();
  await idle(page);
}

/** The obstacles as the server holds them. */
async function serverObstacles(page) {
  return page.evaluate(async () => (await (await fetch('/api/scene')).json()).scene.obstacles);
}

/** True when a point lies strictly inside an axis-aligned box. */
const inBox = (p, [x0, y0, x1, y1]) => p[0] > x0 + 1e-9 && p[0] < x1 - 1e-9 && p[1] > y0 + 1e-9 && p[1] < y1 - 1e-9;

describe('editing obstacles', () => {
  const app = useServerAndBrowser();
  // Each test starts from the map the server started with, whatever the one before left.
  beforeEach(async () => {
    const res = await fetch(`${app.server.url}api/scene/reset`, { method: 'POST' });
    assert.equal(res.status, 200);
  });

  it('adds, moves, reshapes and deletes an obstacle; the mesh follows', async () => {
    const { page, errors } = await openPage(app.browser, app.server.url);
    const scene0 = await sceneOf(page);
    const n = scene0.scene.obstacles.length;
    const polygons0 = await stat(page, 'polygons');
    const path0 = await jsonAttr(page, '#path', 'data-points');
    assert.ok(await page.locator('#btn-add').isDisabled(), 'editing is off by default');

    await click(page, '#toggle-edit');
    await click(page, '#btn-add');
    assert.equal(await page.locator('path.obstacle').count(), n + 1);
    assert.ok(Number(await attr(page, '#map', 'data-revision')) > 1);
    assert.equal(await page.locator('path.obstacle.bad').count(), 0);
    assert.notEqual(await stat(page, 'polygons'), polygons0, 'the mesh was rebuilt');
    assert.equal(await page.locator('.mesh-poly').count(), await stat(page, 'polygons'));
    assert.equal((await serverObstacles(page)).length, n + 1);
    let square = (await serverObstacles(page))[n];
    const h = (Math.max(...square.map((p) => p[0])) - Math.min(...square.map((p) => p[0]))) / 2;

    // Onto another obstacle: refused, both outlined in red; the server keeps the last good scene
    // (from somewhere along the drag) and the page shows that scene's mesh.
    const other = interiorObstacle(scene0).inside;
    await drag(page, centroid(square), other);
    assert.equal(await page.locator('path.obstacle.bad').count(), 2);
    assert.match(await page.locator('#message').textContent(), /Not rebuilt.*overlap/);
    const held = await sceneOf(page);
    const [hx, hy] = centroid(held.scene.obstacles[n]);
    assert.ok(Math.hypot(hx - other[0], hy - other[1]) > 10, 'the overlapping position was not accepted');
    assert.equal(await attr(page, '#map', 'data-revision'), String(held.revision));
    assert.equal(await stat(page, 'polygons'), held.mesh.polygon_count);
    assert.equal(await page.locator('.mesh-poly').count(), held.mesh.polygon_count);
    await screenshot(page, 'editor-overlap');

    // Across the default path, where it has room (and some to spare for the reshaping below):
    // rebuilt, and the path goes around it.
    const across = roomOnPath(scene0, path0, h, 16);
    await drag(page, other, across);
    assert.equal(await page.locator('path.obstacle.bad').count(), 0);
    assert.ok(await page.locator('#message').isHidden());
    square = (await serverObstacles(page))[n];
    const [cx, cy] = centroid(square);
    assert.ok(Math.abs(cx - across[0]) < 2 && Math.abs(cy - across[1]) < 2, `moved to ${cx}, ${cy}`);
    const path1 = await jsonAttr(page, '#path', 'data-points');
    assert.notDeepEqual(path1, path0, 'the path changed');
    const box = [Math.min(...square.map((p) => p[0])), Math.min(...square.map((p) => p[1])), Math.max(...square.map((p) => p[0])), Math.max(...square.map((p) => p[1]))];
    for (let i = 1; i < path1.length; i++) {
      for (let t = 0; t <= 1; t += 1 / 64) {
        const p = [path1[i - 1][0] + (path1[i][0] - path1[i - 1][0]) * t, path1[i - 1][1] + (path1[i][1] - path1[i - 1][1]) * t];
        assert.ok(!inBox(p, box), `the path crosses the new obstacle at ${p}`);
      }
    }
    await screenshot(page, 'editor-moved');

    // Pull a corner into the square: not convex, refused; pull it out again: accepted.
    const corner = square[2];
    await drag(page, corner, [cx - 10, cy - 10]);
    assert.equal(await page.locator('path.obstacle.bad').count(), 1);
    assert.match(await page.locator('#message').textContent(), /not convex/);
    await drag(page, [cx - 10, cy - 10], [corner[0] + 10, corner[1] + 10]);
    assert.equal(await page.locator('path.obstacle.bad').count(), 0);
    const reshaped = (await serverObstacles(page))[n][2];
    assert.ok(Math.abs(reshaped[0] - corner[0] - 10) < 2 && Math.abs(reshaped[1] - corner[1] - 10) < 2, `corner at ${reshaped}`);

    // Delete it from the keyboard: back to the original mesh.
    await press(page, 'Delete');
    assert.equal(await page.locator('path.obstacle').count(), n);
    assert.equal(await stat(page, 'polygons'), polygons0);
    assert.deepEqual(await jsonAttr(page, '#path', 'data-points'), path0);
    // The refused edits show up as failed resources in the console; nothing else may.
    assert.deepEqual(errors.filter((e) => !/status of 422/.test(e)), []);
    await page.context().close();
  });

  it('resets the map the server started with', async () => {
    const { page, errors } = await openPage(app.browser, app.server.url);
    const n = (await sceneOf(page)).scene.obstacles.length;
    const polygons0 = await stat(page, 'polygons');
    await click(page, '#toggle-edit');
    await click(page, '#btn-add');
    await click(page, '#btn-add');
    assert.equal(await page.locator('path.obstacle').count(), n + 2);
    await screenshot(page, 'editor-two-added');
    await click(page, '#btn-reset-map');
    assert.equal(await page.locator('path.obstacle').count(), n);
    assert.equal(await stat(page, 'polygons'), polygons0);
    assert.deepEqual(errors, []);
    await page.context().close();
  });

  it('picks up a scene changed by another tab', async () => {
    const a = await openPage(app.browser, app.server.url);
    const b = await openPage(app.browser, app.server.url);
    const n = (await sceneOf(a.page)).scene.obstacles.length;
    await click(a.page, '#toggle-edit');
    await click(a.page, '#btn-add');
    const polygons = await stat(a.page, 'polygons');
    // Tab b learns of the new revision from its next path answer and reloads the scene.
    await b.page.focus('#handle-goal');
    await b.page.keyboard.press('ArrowLeft');
    await b.page.waitForFunction((rev) => document.querySelector('#map').dataset.revision === rev, await attr(a.page, '#map', 'data-revision'));
    await idle(b.page);
    assert.equal(await stat(b.page, 'polygons'), polygons);
    assert.equal(await b.page.locator('path.obstacle').count(), n + 1);
    await screenshot(b.page, 'editor-other-tab');
    await click(a.page, '#btn-reset-map');
    assert.deepEqual(a.errors, []);
    assert.deepEqual(b.errors, []);
    await a.context.close();
    await b.context.close();
  });

  it('an edit based on a scene another tab changed is refused, and the page shows the new scene', async () => {
    const a = await openPage(app.browser, app.server.url);
    const b = await openPage(app.browser, app.server.url);
    const n = (await sceneOf(a.page)).scene.obstacles.length;
    const stale = await attr(b.page, '#map', 'data-revision');
    await click(a.page, '#toggle-edit');
    await click(a.page, '#btn-add');
    const revision = await attr(a.page, '#map', 'data-revision');
    assert.notEqual(revision, stale);
    // Tab b has not heard of it and adds an obstacle to its old scene: every edit the page sends
    // names the revision it is based on, and the server refuses this one (409) rather than let
    // it silently undo tab a's edit.
    const sent = [];
    b.page.on('request', (r) => { if (r.url().endsWith('/api/scene') && r.method() === 'POST') sent.push(JSON.parse(r.postData())); });
    await click(b.page, '#toggle-edit');
    await click(b.page, '#btn-add');
    await b.page.waitForFunction((rev) => document.querySelector('#map').dataset.revision === rev, revision);
    await idle(b.page);
    assert.equal(sent.length, 1);
    assert.equal(String(sent[0].base_revision), stale);
    assert.match(await b.page.locator('#message').textContent(), /Not applied: the scene was changed elsewhere/);
    assert.equal(await b.page.locator('path.obstacle').count(), n + 1, 'tab b shows tab a\'s scene');
    assert.equal((await serverObstacles(b.page)).length, n + 1, 'tab a\'s edit is kept');
    await screenshot(b.page, 'editor-stale-edit');
    // Editing again, on the scene it now holds, works.
    await click(b.page, '#btn-add');
    assert.equal(await b.page.locator('path.obstacle').count(), n + 2);
    assert.equal((await serverObstacles(b.page)).length, n + 2);
    assert.ok(await b.page.locator('#message').isHidden());
    assert.equal(String(sent[1].base_revision), revision);
    assert.deepEqual(a.errors, []);
    // The refused edit shows up as a failed resource in the console; nothing else may.
    assert.deepEqual(b.errors.filter((e) => !/status of 409/.test(e)), []);
    await a.context.close();
    await b.context.close();
  });
});

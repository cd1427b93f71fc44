// Dragging S and G, the midpoints toggle, the mesh toggle, snapping: the page as a person uses it.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  attr, click, distanceToBoundary, dragHandle, freeNear, idle, interiorObstacle, jsonAttr, openPage,
  polylineLength, press, sceneOf, screenshot, stat, toScreen, twoPointsInOnePolygon, useServerAndBrowser,
} from './harness.mjs';

const close = (a, b, tol = 1e-6) => Math.abs(a - b) <= tol * Math.max(1, Math.abs(a), Math.abs(b));

describe('querying the default map', () => {
  const app = useServerAndBrowser();

  it('draws the default query with the chapter\'s symbols', async () => {
    const { page, errors } = await openPage(app.browser, app.server.url);
    const { defaults } = await sceneOf(page);
    assert.equal(await attr(page, '#handle-start', 'data-x'), String(defaults.start[0]));
    assert.equal(await attr(page, '#handle-goal', 'data-y'), String(defaults.goal[1]));
    const points = await jsonAttr(page, '#path', 'data-points');
    assert.deepEqual(points[0], defaults.start);
    assert.deepEqual(points.at(-1), defaults.goal);
    assert.ok(points.length > 2, 'the default query turns corners');
    const length = await stat(page, 'length');
    assert.ok(close(length, polylineLength(points)));
    assert.match(await page.locator('#stats [data-stat="length"]').textContent(), new RegExp(`path ${length.toFixed(1)}`));
    assert.ok(await stat(page, 'polygons') > 0);
    assert.ok(await stat(page, 'expanded') > 0);
    // The search time the server measured, in µs: a search that expanded polygons took some.
    const time = await stat(page, 'time');
    assert.ok(time > 0, `query time ${time} µs`);
    const shown = time < 10 ? time.toFixed(1) : String(Math.round(time));
    assert.equal(await page.locator('#stats [data-stat="time"]').textContent(), `query ${shown} µs`);
    // Channel shaded, portals in ochre with a filled left end and a hollow right end.
    assert.ok(await page.locator('.channel-poly').count() >= 2);
    const portals = await page.locator('.portal').count();
    assert.equal(portals, (await page.locator('.channel-poly').count()) - 1);
    const left = await page.locator('.portal .portal-left').first().evaluate((e) => getComputedStyle(e).fill);
    const right = await page.locator('.portal .portal-right').first().evaluate((e) => getComputedStyle(e).fill);
    assert.notEqual(left, right, 'left end filled, right end hollow');
    assert.equal(right, 'rgb(255, 255, 255)');
    await screenshot(page, 'default-query');
    assert.deepEqual(errors, []);
    await page.context().close();
  });

  it('drags S and G with the mouse and the path follows', async () => {
    const { page, errors } = await openPage(app.browser, app.server.url);
    const scene = await sceneOf(page);
    const before = await jsonAttr(page, '#path', 'data-points');
    const beforeLength = await stat(page, 'length');

    // Open ground near the top-left and the bottom-right corners.
    const b = scene.scene.bounds;
    const sTo = freeNear(scene, [b.min[0], b.max[1]]);
    const gTo = freeNear(scene, [b.max[0], b.min[1]]);
    await dragHandle(page, 'start', sTo);
    const s = [Number(await attr(page, '#handle-start', 'data-x')), Number(await attr(page, '#handle-start', 'data-y'))];
    assert.ok(Math.abs(s[0] - sTo[0]) < 2 && Math.abs(s[1] - sTo[1]) < 2, `S dropped where the mouse was: ${s}`);
    let points = await jsonAttr(page, '#path', 'data-points');
    assert.deepEqual(points[0], s, 'the path starts at the new S');
    assert.notDeepEqual(points, before);
    const afterS = await stat(page, 'length');
    assert.notEqual(afterS, beforeLength);
    assert.ok(close(afterS, polylineLength(points)));

    await dragHandle(page, 'goal', gTo);
    const g = [Number(await attr(page, '#handle-goal', 'data-x')), Number(await attr(page, '#handle-goal', 'data-y'))];
    points = await jsonAttr(page, '#path', 'data-points');
    assert.deepEqual(points.at(-1), g, 'the path ends at the new G');
    assert.ok(close(await stat(page, 'length'), polylineLength(points)));
    assert.notEqual(await stat(page, 'length'), afterS);
    await screenshot(page, 'dragged');

    // S and G in one polygon: a straight segment, and the funnel is done in one step.
    const [p, q] = twoPointsInOnePolygon(scene);
    await dragHandle(page, 'start', p);
    await dragHandle(page, 'goal', q);
    points = await jsonAttr(page, '#path', 'data-points');
    assert.equal(points.length, 2);
    assert.equal(await page.locator('.channel-poly').count(), 1);
    assert.equal(await attr(page, '#step-info', 'data-steps'), '1');
    assert.deepEqual(errors, []);
    await page.context().close();
  });

  it('keeps the path on the pointer during a drag: one query out at a time, stale ones dropped', async () => {
    const { page, errors } = await openPage(app.browser, app.server.url);
    const scene = await sceneOf(page);
    assert.equal(await page.locator('#toggle-exact').isChecked(), false, 'one /api/path request per query');
    // Every /api/path request as the browser sends it; the first one of the drag is held unanswered
    // until the test has made all its moves, so all of them come while a query is out. A client
    // that sent a query per move would send the rest meanwhile; one that queued them would send
    // each in turn after the first.
    const sent = [];
    let release;
    const held = new Promise((resolve) => { release = resolve; });
    await page.route('**/api/path', async (route) => {
      sent.push(route.request().postDataJSON());
      if (sent.length === 1) await held;
      await route.continue();
    });
    // From the default goal to open ground near the middle of the map.
    const b = scene.scene.bounds;
    const start = scene.defaults.goal;
    const end = freeNear(scene, [(b.min[0] + b.max[0]) / 2, (b.min[1] + b.max[1]) / 2]);
    const from = await toScreen(page, start);
    await page.mouse.move(from.x, from.y);
    await page.mouse.down();
    const moves = 40;
    for (let i = 1; i <= moves; i++) {
      const p = await toScreen(page, [start[0] + (end[0] - start[0]) * i / moves, start[1] + (end[1] - start[1]) * i / moves]);
      await page.mouse.move(p.x, p.y);
    }
    // Pointer moves are dispatched before animation frames: after two, the page has seen them all.
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    assert.equal(sent.length, 1, `${sent.length} /api/path requests out at once during ${moves} moves`);
    release();
    // Still holding the button: the path has caught up with the pointer.
    await idle(page);
    const g = [Number(await attr(page, '#handle-goal', 'data-x')), Number(await attr(page, '#handle-goal', 'data-y'))];
    assert.ok(Math.abs(g[0] - end[0]) < 2 && Math.abs(g[1] - end[1]) < 2, `G under the pointer: ${g}`);
    assert.deepEqual((await jsonAttr(page, '#path', 'data-points')).at(-1), g);
    // After the held answer, one query for where G is now; the moves in between were dropped.
    assert.equal(sent.length, 2, `${sent.length} queries for ${moves} moves`);
    assert.notDeepEqual(sent[0].goal, g);
    assert.deepEqual(sent[1].goal, g, 'the query after the held one is for the newest G');
    await screenshot(page, 'mid-drag');
    await page.mouse.up();
    await idle(page);
    assert.equal(sent.length, 2, 'releasing the button asks nothing new');
    assert.deepEqual(errors, []);
    await page.context().close();
  });

  it('drags G with a finger (touch pointer events)', async () => {
    const { page, errors } = await openPage(app.browser, app.server.url, { width: 800, height: 900, hasTouch: true });
    const scene = await sceneOf(page);
    const cdp = await page.context().newCDPSession(page);
    const target = freeNear(scene, [scene.scene.bounds.max[0], scene.scene.bounds.min[1]]);
    const from = await toScreen(page, scene.defaults.goal);
    const to = await toScreen(page, target);
    const touch = (type, p) => cdp.send('Input.dispatchTouchEvent', { type, touchPoints: p ? [{ x: p.x, y: p.y }] : [] });
    await touch('touchStart', from);
    for (let i = 1; i <= 10; i++) await touch('touchMove', { x: from.x + (to.x - from.x) * i / 10, y: from.y + (to.y - from.y) * i / 10 });
    await touch('touchEnd');
    await idle(page);
    const g = [Number(await attr(page, '#handle-goal', 'data-x')), Number(await attr(page, '#handle-goal', 'data-y'))];
    assert.ok(Math.abs(g[0] - target[0]) < 2 && Math.abs(g[1] - target[1]) < 2, `G followed the finger: ${g}`);
    assert.deepEqual((await jsonAttr(page, '#path', 'data-points')).at(-1), g);
    await screenshot(page, 'touch-drag-narrow');
    assert.deepEqual(errors, []);
    await page.context().close();
  });

  it('moves S with the keyboard', async () => {
    const { page, errors } = await openPage(app.browser, app.server.url);
    const scene = await sceneOf(page);
    // One arrow step is 1/160 of the map's longer side; Shift makes it five.
    const b = scene.scene.bounds;
    const unit = Math.max(b.max[0] - b.min[0], b.max[1] - b.min[1]) / 160;
    const want = [scene.defaults.start[0] + unit, scene.defaults.start[1] + 5 * unit];
    await page.focus('#handle-start');
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('Shift+ArrowUp');
    await idle(page);
    assert.equal(await attr(page, '#handle-start', 'data-x'), String(want[0]));
    assert.equal(await attr(page, '#handle-start', 'data-y'), String(want[1]));
    assert.deepEqual((await jsonAttr(page, '#path', 'data-points'))[0], want);
    assert.equal(await page.evaluate(() => document.activeElement.id), 'handle-start', 'focus stays on S');
    await screenshot(page, 'keyboard-move');
    assert.deepEqual(errors, []);
    await page.context().close();
  });

  it('shows the midpoint polyline, longer than the funnel path', async () => {
    const { page, errors } = await openPage(app.browser, app.server.url);
    assert.equal(await page.locator('#midpoint-path').count(), 0);
    assert.ok(await page.locator('#stats [data-stat="midpoints"]').isHidden());
    await click(page, '#toggle-midpoints');
    const mid = await jsonAttr(page, '#midpoint-path', 'data-points');
    const midLength = Number(await attr(page, '#midpoint-path', 'data-length'));
    const funnelLength = await stat(page, 'length');
    assert.ok(close(midLength, polylineLength(mid)));
    assert.ok(midLength > funnelLength, `midpoints ${midLength} > funnel ${funnelLength}`);
    assert.ok(await page.locator('#stats [data-stat="midpoints"]').isVisible());
    assert.ok(close(await stat(page, 'midpoints'), midLength));
    assert.match(await page.locator('#stats').textContent(), /midpoints \d+\.\d/);
    await screenshot(page, 'midpoints');
    // Off again, from the keyboard.
    await press(page, 'd');
    assert.equal(await page.locator('#midpoint-path').count(), 0);
    assert.deepEqual(errors, []);
    await page.context().close();
  });

  it('toggles the mesh', async () => {
    const { page, errors } = await openPage(app.browser, app.server.url);
    const polys = page.locator('.mesh-poly');
    assert.equal(await polys.count(), await stat(page, 'polygons'));
    assert.ok(await polys.first().isVisible());
    await click(page, '#toggle-mesh');
    assert.equal(await page.locator('#toggle-mesh').isChecked(), false);
    assert.ok(await polys.first().isHidden(), 'mesh hidden');
    await screenshot(page, 'mesh-off');
    await press(page, 'm');
    assert.ok(await polys.first().isVisible(), 'mesh back (keyboard M)');
    assert.deepEqual(errors, []);
    await page.context().close();
  });

  it('reports a start inside an obstacle unless snapping, then snaps it to the wall', async () => {
    const { page, errors } = await openPage(app.browser, app.server.url);
    const obstacle = interiorObstacle(await sceneOf(page));
    await click(page, '#toggle-snap');
    await dragHandle(page, 'start', obstacle.inside);
    assert.equal(await page.locator('#path').count(), 0, 'no path from inside an obstacle');
    assert.match(await page.locator('#message').textContent(), /S is not on the mesh/);
    assert.equal(await attr(page, '#stats [data-stat="length"]', 'data-value'), '');
    await screenshot(page, 'start-in-obstacle');
    await click(page, '#toggle-snap');
    const start = await jsonAttr(page, '#path', 'data-start');
    assert.ok(distanceToBoundary(obstacle.ring, start) < 1e-6, `snapped onto the obstacle's wall: ${start}`);
    assert.ok(await page.locator('#message').isHidden());
    assert.ok(await page.locator('.snap-line').count() >= 1);
    // The refused queries show up as failed resources in the console; nothing else may.
    assert.deepEqual(errors.filter((e) => !/status of 422/.test(e)), []);
    await page.context().close();
  });

  it('switches the A* crossing point to portal midpoints', async () => {
    const { page, errors } = await openPage(app.browser, app.server.url);
    let body = null;
    page.on('request', (r) => { if (r.url().endsWith('/api/path')) body = JSON.parse(r.postData()); });
    const towardGoal = await stat(page, 'length');
    await page.selectOption('#portal-point', 'midpoint');
    await idle(page);
    assert.equal(body.portal, 'midpoint');
    assert.ok(await stat(page, 'length') >= towardGoal - 1e-9, 'the chapter\'s estimate is never worse here');
    await screenshot(page, 'crossing-midpoint');
    assert.deepEqual(errors, []);
    await page.context().close();
  });
});

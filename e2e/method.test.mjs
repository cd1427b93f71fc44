// The method selector: the path drawn by the funnel (the chapter's), the exact search or the corner
// graph search; the exact-path overlay beside each; the funnel's controls only for the funnel.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import {
  ROOT, attr, click, dragHandle, freeNear, idle, jsonAttr, openPage, polylineLength, press, sceneOf, screenshot, stat,
  useServerAndBrowser,
} from './harness.mjs';

const DATA = join(ROOT, '..', 'shared', 'data');
const close = (a, b, tol = 1e-9) => Math.abs(a - b) <= tol * Math.max(1, Math.abs(a), Math.abs(b));

/** Chooses a method like a person (the select) and waits for its path. */
async function choose(page, method) {
  await page.selectOption('#method', method);
  // Keys go to the page again, not to the select (where arrows would change the method).
  await page.locator('#method').evaluate((e) => e.blur());
  await idle(page);
}

/** The drawn path is the corner graph's (or exact's): as long as the exact overlay, proved optimal. */
async function checkExactMethod(page, what) {
  const points = await jsonAttr(page, '#path', 'data-points');
  const length = Number(await attr(page, '#path', 'data-length'));
  const exact = Number(await attr(page, '#exact-path', 'data-length'));
  assert.ok(close(length, exact), `${what}: path ${length}, exact overlay ${exact}`);
  assert.ok(close(length, polylineLength(points)), what);
  assert.ok(close(await stat(page, 'length'), length), what);
  assert.equal(await stat(page, 'bound'), 1, what);
  assert.ok(await page.locator('#stats [data-stat="bound"]').isVisible(), what);
  assert.equal(await page.locator('#stats [data-stat="bound"]').textContent(), 'proved optimal');
  assert.ok(await stat(page, 'expanded') >= 0, what);
  assert.ok(await stat(page, 'time') > 0, what);
  assert.match(await page.locator('#stats [data-stat="exact"]').textContent(), /the (corner graph|exact) path is shortest/);
}

/** No funnel for this path: no portals, no midpoints, step controls disabled, nothing to step. */
async function checkNoFunnel(page, what) {
  assert.equal(await page.locator('.portal').count(), 0, `${what}: no portals`);
  assert.equal(await page.locator('#midpoint-path').count(), 0, `${what}: no midpoints`);
  assert.ok(await page.locator('#stats [data-stat="midpoints"]').isHidden(), what);
  for (const id of ['#btn-step', '#btn-back', '#btn-reset', '#toggle-portals', '#toggle-midpoints', '#portal-point']) {
    assert.ok(await page.locator(id).isDisabled(), `${what}: ${id} disabled`);
  }
  assert.equal(await attr(page, '#step-info', 'data-steps'), '0', what);
  assert.match(await page.locator('#step-info').textContent(), /has no funnel to walk/);
  // The step key does nothing either.
  await press(page, 'ArrowRight');
  assert.equal(await attr(page, '#step-info', 'data-step'), '0', what);
  assert.equal(await page.locator('#apex').count(), 0, what);
}

describe('choosing the search method', () => {
  const app = useServerAndBrowser();

  it('draws the corner graph path, as short as the exact one, without the funnel', async () => {
    const { page, errors } = await openPage(app.browser, app.server.url);
    const scene = await sceneOf(page);
    const methods = [];
    page.on('request', (r) => { if (r.url().endsWith('/api/path')) methods.push(JSON.parse(r.postData()).method); });

    // Filled from the capabilities, with short names, the funnel first.
    const options = await page.locator('#method option').evaluateAll((os) => os.map((o) => [o.value, o.textContent]));
    assert.deepEqual(options, [
      ['funnel', 'funnel (chapter)'], ['exact', 'exact (Polyanya)'], ['corner', 'corner graph (exact, fast)'],
    ]);
    assert.deepEqual(options.map((o) => o[0]), scene.capabilities.methods);
    assert.equal(await page.locator('#method').inputValue(), 'funnel');
    assert.ok(await page.locator('#stats [data-stat="bound"]').isHidden(), 'the funnel proves nothing');
    const funnelPortals = await page.locator('.portal').count();
    assert.ok(funnelPortals > 0);

    // The funnel's view, with the midpoints and step mode on.
    await click(page, '#toggle-midpoints');
    await click(page, '#toggle-exact');
    await click(page, '#btn-step');
    assert.equal(await page.locator('#apex').count(), 1);

    await choose(page, 'corner');
    assert.equal(methods.filter((m) => m === 'corner').length, 1, `asked for the corner graph path once: ${methods}`);
    assert.ok(methods.includes('exact'), 'the overlay still asks for the exact path');
    await checkExactMethod(page, 'corner, default query');
    assert.match(await page.locator('#stats [data-stat="length"]').textContent(), /corner graph/);
    await checkNoFunnel(page, 'corner');
    // The path still starts at S and ends at G.
    const points = await jsonAttr(page, '#path', 'data-points');
    assert.deepEqual(points[0], scene.defaults.start);
    assert.deepEqual(points.at(-1), scene.defaults.goal);
    await screenshot(page, 'method-corner');

    // A dragged query, still with the corner graph.
    const b = scene.scene.bounds;
    await dragHandle(page, 'start', freeNear(scene, [b.min[0], b.max[1]]));
    await dragHandle(page, 'goal', freeNear(scene, [b.max[0], b.min[1]]));
    assert.ok(methods.slice(-2).includes('corner'), `the dragged query is the corner graph's: ${methods}`);
    await checkExactMethod(page, 'corner, dragged');
    await checkNoFunnel(page, 'corner, dragged');

    // The exact method draws the same length.
    await choose(page, 'exact');
    await checkExactMethod(page, 'exact');
    await checkNoFunnel(page, 'exact');

    // Back to the funnel: portals, midpoints, step mode and the chapter's stats again.
    await choose(page, 'funnel');
    assert.ok(await page.locator('.portal').count() > 0, 'portals again');
    assert.equal(await page.locator('#midpoint-path').count(), 1, 'midpoints again (still ticked)');
    assert.ok(await page.locator('#toggle-midpoints').isChecked());
    for (const id of ['#btn-step', '#toggle-portals', '#toggle-midpoints', '#portal-point']) {
      assert.ok(await page.locator(id).isEnabled(), `${id} enabled again`);
    }
    assert.ok(await page.locator('#stats [data-stat="bound"]').isHidden());
    assert.ok(Number(await attr(page, '#step-info', 'data-steps')) > 0);
    assert.equal(await attr(page, '#step-info', 'data-step'), '0', 'choosing another method left step mode');
    const funnel = await stat(page, 'length');
    const exact = Number(await attr(page, '#exact-path', 'data-length'));
    assert.ok(exact <= funnel * (1 + 1e-12), `exact ${exact} ≤ funnel ${funnel}`);
    assert.doesNotMatch(await page.locator('#stats [data-stat="length"]').textContent(), /corner/);
    await click(page, '#btn-step');
    assert.equal(await attr(page, '#step-info', 'data-step'), '1');
    assert.equal(await page.locator('#apex').count(), 1);
    await screenshot(page, 'method-funnel-again');

    // The overlay off and on again under the corner graph.
    await press(page, 'Escape');
    await choose(page, 'corner');
    await press(page, 'x');
    assert.equal(await page.locator('#exact-path').count(), 0);
    assert.ok(await stat(page, 'bound') === 1);
    await press(page, 'x');
    await checkExactMethod(page, 'corner, overlay again');
    assert.deepEqual(errors, []);
    await page.context().close();
  });
});

describe('choosing the search method on a grid map', () => {
  const app = useServerAndBrowser(['--map', join(DATA, 'movingai', 'dao', 'arena.map')]);

  it('the corner graph path is as short as the exact one', async () => {
    const { page, errors } = await openPage(app.browser, app.server.url);
    await click(page, '#toggle-exact');
    await choose(page, 'corner');
    await checkExactMethod(page, 'arena, default query');
    await checkNoFunnel(page, 'arena');
    await screenshot(page, 'method-corner-arena');
    await choose(page, 'funnel');
    assert.ok(await page.locator('.portal').count() > 0);
    assert.ok(await page.locator('#btn-step').isEnabled());
    assert.deepEqual(errors, []);
    await page.context().close();
  });
});

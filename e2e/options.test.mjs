// Search options on the page: the exact shortest path beside the funnel's, and the corner offset.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  attr, click, dragHandle, freeNear, idle, jsonAttr, openPage, polylineLength, press, sceneOf, screenshot, stat,
  useServerAndBrowser,
} from './harness.mjs';

const close = (a, b, tol = 1e-6) => Math.abs(a - b) <= tol * Math.max(1, Math.abs(a), Math.abs(b));
const dist = (p, q) => Math.hypot(p[0] - q[0], p[1] - q[1]);

describe('search options', () => {
  const app = useServerAndBrowser();

  /** Checks the drawn exact path against the funnel path and the stats line; returns both lengths. */
  async function checkExact(page) {
    const exact = await jsonAttr(page, '#exact-path', 'data-points');
    const funnel = await jsonAttr(page, '#path', 'data-points');
    const exactLength = Number(await attr(page, '#exact-path', 'data-length'));
    const funnelLength = await stat(page, 'length');
    assert.ok(close(exactLength, polylineLength(exact)));
    assert.deepEqual(exact[0], funnel[0], 'same start');
    assert.deepEqual(exact.at(-1), funnel.at(-1), 'same goal');
    assert.ok(exactLength <= funnelLength * (1 + 1e-12), `exact ${exactLength} ≤ funnel ${funnelLength}`);
    assert.ok(await page.locator('#stats [data-stat="exact"]').isVisible());
    assert.ok(close(await stat(page, 'exact'), exactLength));
    assert.match(await page.locator('#stats').textContent(), new RegExp(`exact ${exactLength.toFixed(1)}`));
    return { exactLength, funnelLength };
  }

  it('draws the exact shortest path, never longer than the funnel path', async () => {
    const { page, errors } = await openPage(app.browser, app.server.url);
    const scene = await sceneOf(page);
    const methods = [];
    page.on('request', (r) => { if (r.url().endsWith('/api/path')) methods.push(JSON.parse(r.postData()).method); });
    assert.equal(await page.locator('#exact-path').count(), 0);
    assert.ok(await page.locator('#stats [data-stat="exact"]').isHidden());

    await click(page, '#toggle-exact');
    assert.ok(methods.includes('exact'), 'the page asked for the exact path');
    const d = await checkExact(page);
    // The style sets it apart from the funnel path: thinner, dashed, another colour.
    const style = (sel) => page.locator(sel).evaluate((e) => {
      const s = getComputedStyle(e);
      return { dash: s.strokeDasharray, width: parseFloat(s.strokeWidth), colour: s.stroke };
    });
    const [xs, ps] = [await style('#exact-path'), await style('#path')];
    assert.notEqual(xs.dash, 'none');
    assert.ok(xs.width < ps.width);
    assert.notEqual(xs.colour, ps.colour);
    // With the midpoints on, the stats line shows all three lengths.
    await click(page, '#toggle-midpoints');
    const line = await page.locator('#stats').textContent();
    assert.match(line, new RegExp(`path ${d.funnelLength.toFixed(1)}.*midpoints \\d+\\.\\d.*exact ${d.exactLength.toFixed(1)}`, 's'));
    await screenshot(page, 'exact-default');

    // A dragged query.
    const b = scene.scene.bounds;
    await dragHandle(page, 'start', freeNear(scene, [b.min[0], b.max[1]]));
    await dragHandle(page, 'goal', freeNear(scene, [b.max[0], b.min[1]]));
    const dragged = await checkExact(page);
    assert.notEqual(dragged.exactLength, d.exactLength);
    await screenshot(page, 'exact-dragged');

    // Off again, from the keyboard.
    await press(page, 'x');
    assert.equal(await page.locator('#exact-path').count(), 0);
    assert.ok(await page.locator('#stats [data-stat="exact"]').isHidden());
    assert.deepEqual(errors, []);
    await page.context().close();
  });

  it('moves the path corners by the corner offset', async () => {
    const { page, errors } = await openPage(app.browser, app.server.url);
    let body = null;
    page.on('request', (r) => { if (r.url().endsWith('/api/path')) body = JSON.parse(r.postData()); });
    const before = await jsonAttr(page, '#path', 'data-points');
    assert.ok(before.length > 2, 'the default query turns corners');

    // The slider from the keyboard: End is its maximum.
    await page.focus('#corner-offset');
    await press(page, 'End');
    const r = Number(await page.locator('#corner-offset').inputValue());
    assert.equal(r, 20);
    assert.equal(body.corner_offset, r);
    assert.equal(await page.locator('#corner-offset-value').textContent(), '20');
    const moved = await jsonAttr(page, '#path', 'data-points');
    assert.equal(moved.length, before.length);
    assert.deepEqual(moved[0], before[0]);
    assert.deepEqual(moved.at(-1), before.at(-1));
    const shifts = moved.map((p, i) => dist(p, before[i]));
    assert.ok(shifts.every((s) => s <= r + 1e-9), `no corner moves further than the offset: ${shifts}`);
    assert.ok(shifts.some((s) => s > 1), `some corner moved: ${shifts}`);
    assert.ok(close(await stat(page, 'length'), polylineLength(moved)));
    await screenshot(page, 'corner-offset');

    // The exact path takes the offset too.
    await click(page, '#toggle-exact');
    assert.equal(body.corner_offset, r);
    const exactMoved = await jsonAttr(page, '#exact-path', 'data-points');
    await page.focus('#corner-offset');
    await press(page, 'Home');
    assert.equal(body.corner_offset, 0);
    assert.deepEqual(await jsonAttr(page, '#path', 'data-points'), before, 'offset 0 gives the plain path back');
    assert.notDeepEqual(await jsonAttr(page, '#exact-path', 'data-points'), exactMoved);
    assert.deepEqual(errors, []);
    await page.context().close();
  });
});

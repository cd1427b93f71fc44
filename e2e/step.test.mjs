// Step mode: walking the funnel portal by portal, as the chapter's figure does.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  attr, click, dragHandle, jsonAttr, openPage, press, sceneOf, screenshot, twoPointsInOnePolygon, useServerAndBrowser,
} from './harness.mjs';

describe('stepping through the funnel', () => {
  const app = useServerAndBrowser();

  const step = async (page) => Number(await attr(page, '#step-info', 'data-step'));

  it('walks to the end; the corners found are the path', async () => {
    const { page, errors } = await openPage(app.browser, app.server.url);
    const steps = Number(await attr(page, '#step-info', 'data-steps'));
    const portals = await page.locator('.portal').count();
    assert.ok(steps >= portals + 1, `${steps} steps for ${portals} portals and the goal`);
    assert.ok(await page.locator('#btn-back').isDisabled());
    assert.equal(await page.locator('#apex').count(), 0, 'no funnel before stepping');

    await click(page, '#btn-step');
    assert.equal(await step(page), 1);
    assert.deepEqual(await jsonAttr(page, '#apex', 'data-point'), (await sceneOf(page)).defaults.start, 'the apex starts at S');
    // After the first portal the funnel is open: a solid left arrow and a dashed right side.
    const left = page.locator('#funnel-left');
    const right = page.locator('#funnel-right');
    assert.equal(await left.getAttribute('marker-end'), 'url(#arrow)');
    assert.equal(await left.evaluate((e) => getComputedStyle(e).strokeDasharray), 'none');
    assert.notEqual(await right.evaluate((e) => getComputedStyle(e).strokeDasharray), 'none');
    assert.equal(await page.locator('.portal.current').getAttribute('data-index'), '1', 'portal 1 highlighted');
    assert.match(await page.locator('#step-info').textContent(), /^Step 1 of \d+, portal 1 of \d+/);
    await screenshot(page, 'step-1');

    // Keyboard: Enter on the focused Step button, then the arrow-key shortcut.
    await page.focus('#btn-step');
    await press(page, 'Enter');
    await press(page, 'ArrowRight');
    assert.equal(await step(page), 3);

    let corners = 0;
    let sawTurn = false;
    while (!(await page.locator('#btn-step').isDisabled())) {
      await click(page, '#btn-step');
      const c = (await jsonAttr(page, '#corners', 'data-points')).length;
      assert.ok(c >= corners, 'corners only accumulate');
      corners = c;
      const text = await page.locator('#step-info').textContent();
      if (/the path turns at the (left|right) end/.test(text)) {
        sawTurn = true;
        if (!(await page.locator('#step-info').getAttribute('data-shot'))) {
          await screenshot(page, 'step-turn');
          await page.locator('#step-info').evaluate((e) => { e.dataset.shot = '1'; });
        }
      }
    }
    assert.equal(await step(page), steps);
    assert.equal(await attr(page, '#step-info', 'data-done'), 'true');
    assert.ok(sawTurn, 'the default query turns at some portal end');
    assert.match(await page.locator('#step-info').textContent(), /reached G: the path is complete/);
    const path = await jsonAttr(page, '#path', 'data-points');
    assert.deepEqual(await jsonAttr(page, '#corners', 'data-points'), path, 'the corners found are the path');
    assert.deepEqual(await jsonAttr(page, '#apex', 'data-point'), path.at(-1), 'the apex ends at G');
    await screenshot(page, 'step-done');

    await click(page, '#btn-back');
    assert.equal(await step(page), steps - 1);
    await press(page, 'ArrowLeft');
    assert.equal(await step(page), steps - 2);
    await click(page, '#btn-reset');
    assert.equal(await page.locator('#apex').count(), 0, 'reset leaves step mode');
    assert.ok(await page.locator('#btn-reset').isDisabled());
    assert.deepEqual(errors, []);
    await page.context().close();
  });

  it('keeps stepping sensibly while S moves', async () => {
    const { page, errors } = await openPage(app.browser, app.server.url);
    for (let i = 0; i < 4; i++) await click(page, '#btn-step');
    assert.equal(await step(page), 4);
    const [p, q] = twoPointsInOnePolygon(await sceneOf(page));
    await dragHandle(page, 'start', p);
    await dragHandle(page, 'goal', q);
    // The new query has one step; the step index is clamped to it.
    assert.equal(await attr(page, '#step-info', 'data-steps'), '1');
    assert.ok(await step(page) <= 1);
    await screenshot(page, 'step-after-drag');
    assert.deepEqual(errors, []);
    await page.context().close();
  });
});

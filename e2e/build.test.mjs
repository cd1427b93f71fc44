// Mesh building from the page (decomposition, agent radius), and servers started on a mesh file
// (nothing to edit) or a grid map.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import {
  click, dragHandle, freeNear, idle, jsonAttr, openPage, press, ROOT, sceneOf, screenshot, stat,
  useServerAndBrowser,
} from './harness.mjs';

const DATA = join(ROOT, '..', 'shared', 'data');

/** Distance from `p` to the segment `a b`. */
function pointSegment(p, a, b) {
  const ab = [b[0] - a[0], b[1] - a[1]];
  const len2 = ab[0] ** 2 + ab[1] ** 2;
  const t = len2 === 0 ? 0 : Math.max(0, Math.min(1, ((p[0] - a[0]) * ab[0] + (p[1] - a[1]) * ab[1]) / len2));
  return Math.hypot(a[0] + ab[0] * t - p[0], a[1] + ab[1] * t - p[1]);
}

/** Distance between two segments that do not cross (the path never crosses an obstacle edge). */
const segmentSegment = (a, b, c, d) => Math.min(pointSegment(a, c, d), pointSegment(b, c, d), pointSegment(c, a, b), pointSegment(d, a, b));

describe('building the mesh from the page', () => {
  const app = useServerAndBrowser();

  it('switches to CDT, grows the obstacles by an agent radius, and resets', async () => {
    const { page, errors } = await openPage(app.browser, app.server.url);
    let body = null;
    page.on('request', (r) => { if (r.url().endsWith('/api/scene') && r.method() === 'POST') body = JSON.parse(r.postData()); });
    const scene0 = await sceneOf(page);
    assert.equal(await page.locator('#decomposition').inputValue(), 'trapezoid');
    assert.equal(await page.locator('#agent-radius').inputValue(), '0');
    assert.ok(await page.locator('#editor').isVisible());

    await page.selectOption('#decomposition', 'cdt-merged');
    await idle(page);
    assert.equal(body.build.decomposition, 'cdt-merged');
    let held = await sceneOf(page);
    assert.equal(held.build.decomposition, 'cdt-merged');
    assert.deepEqual(held.scene, scene0.scene, 'the obstacles are unchanged');
    assert.notEqual(held.mesh.polygon_count, scene0.mesh.polygon_count);
    assert.equal(await stat(page, 'polygons'), held.mesh.polygon_count);
    assert.equal(await page.locator('.mesh-poly').count(), held.mesh.polygon_count);
    assert.ok(await page.locator('#path').count(), 'a path on the new mesh');
    await screenshot(page, 'build-cdt');

    // A big step of the slider from the keyboard (PageUp: a tenth of its range).
    await page.focus('#agent-radius');
    await page.keyboard.press('PageUp');
    await idle(page);
    const r = Number(await page.locator('#agent-radius').inputValue());
    assert.ok(r > 0);
    assert.equal(body.build.agent_radius, r);
    assert.equal(await page.locator('#agent-radius-value').textContent(), String(r));
    held = await sceneOf(page);
    assert.equal(held.build.agent_radius, r);
    assert.equal(await stat(page, 'polygons'), held.mesh.polygon_count);
    if (!(await page.locator('#path').count())) {
      await screenshot(page, 'build-radius-failed');
      assert.fail(`no path with radius ${r}: ${await page.locator('#message').textContent()}`);
    }
    // The path keeps the agent's centre a radius (less the arc error of the rounded corners) from
    // every obstacle.
    const clearOf = async (scene, least) => {
      const path = await jsonAttr(page, '#path', 'data-points');
      for (const o of scene.scene.obstacles) {
        for (let i = 1; i < path.length; i++) {
          for (let k = 0; k < o.length; k++) {
            const d = segmentSegment(path[i - 1], path[i], o[k], o[(k + 1) % o.length]);
            assert.ok(d >= least - 1e-9, `the path passes ${d} from an obstacle, radius ${r}`);
          }
        }
      }
    };
    assert.equal(held.build.arc_error, 0.01);
    assert.equal(await page.locator('#arc-error').inputValue(), '0.01');
    await clearOf(held, r * 0.99);
    await screenshot(page, 'build-radius');

    // Coarser corners: fewer vertices, and still the radius less 30% from every obstacle.
    await page.selectOption('#arc-error', '0.3');
    await idle(page);
    assert.equal(body.build.arc_error, 0.3);
    const coarse = await sceneOf(page);
    assert.equal(coarse.build.arc_error, 0.3);
    assert.ok(coarse.mesh.vertex_count < held.mesh.vertex_count, `${coarse.mesh.vertex_count} vertices`);
    assert.equal(await stat(page, 'polygons'), coarse.mesh.polygon_count);
    assert.ok(await page.locator('#path').count(), 'a path with coarse corners');
    await clearOf(coarse, r * 0.7);

    // The trapezoids with the same radius: built or refused, the page agrees with the server.
    await page.selectOption('#decomposition', 'trapezoid');
    await idle(page);
    held = await sceneOf(page);
    const refused = held.build.decomposition !== 'trapezoid';
    assert.equal(await page.locator('#message').isVisible(), refused);
    assert.equal(await stat(page, 'polygons'), held.mesh.polygon_count);

    // Reset map: the scene and the build options the server started with.
    await click(page, '#btn-reset-map');
    assert.equal(await page.locator('#decomposition').inputValue(), 'trapezoid');
    assert.equal(await page.locator('#agent-radius').inputValue(), '0');
    assert.equal(await page.locator('#arc-error').inputValue(), '0.01');
    assert.equal(await stat(page, 'polygons'), scene0.mesh.polygon_count);
    assert.deepEqual(errors.filter((e) => !/status of 422/.test(e)), []);
    await page.context().close();
  });
});

describe('a served mesh file', () => {
  const app = useServerAndBrowser(['--mesh', join(DATA, 'polyanya', 'meshes', 'arena-merged.mesh')]);

  it('hides the editor, shades what is off the mesh, and answers paths', async () => {
    const { page, errors } = await openPage(app.browser, app.server.url);
    const scene = await sceneOf(page);
    assert.equal(scene.editable, false);
    assert.ok(await page.locator('#editor').isHidden(), 'no obstacles to edit');
    assert.ok(await page.locator('#build').isHidden(), 'no scene to rebuild');
    assert.equal(await page.locator('path.obstacle').count(), 0);
    assert.equal(await page.locator('.mesh-poly').count(), scene.mesh.polygon_count);
    assert.equal(await page.locator('.walkable').count(), scene.mesh.polygon_count);
    // Off the mesh is dark, the mesh light.
    const fill = (sel) => page.locator(sel).first().evaluate((e) => getComputedStyle(e).fill);
    const lum = (rgb) => rgb.match(/\d+/g).slice(0, 3).reduce((s, v) => s + Number(v), 0);
    assert.ok(lum(await fill('.ground')) < lum(await fill('.walkable')) - 150);
    const points = await jsonAttr(page, '#path', 'data-points');
    assert.deepEqual(points[0], scene.defaults.start);
    assert.deepEqual(points.at(-1), scene.defaults.goal);
    await click(page, '#toggle-exact');
    assert.ok(Number(await page.locator('#exact-path').getAttribute('data-length')) <= await stat(page, 'length') * (1 + 1e-12));
    await screenshot(page, 'mesh-file');
    // E does nothing visible: there is no editor.
    await press(page, 'e');
    assert.ok(await page.locator('#editor').isHidden());
    const b = scene.scene.bounds;
    const to = freeNear(scene, [(b.min[0] + b.max[0]) / 2, (b.min[1] + b.max[1]) / 2]);
    await dragHandle(page, 'goal', to);
    const moved = await jsonAttr(page, '#path', 'data-points');
    assert.ok(Math.hypot(moved.at(-1)[0] - to[0], moved.at(-1)[1] - to[1]) < 2, `the path follows G: ${moved.at(-1)}`);
    assert.deepEqual(errors, []);
    await page.context().close();
  });
});

describe('a served grid map', () => {
  const app = useServerAndBrowser(['--map', join(DATA, 'movingai', 'tiny', 'hard.map')]);

  it('is an editable scene built with CDT', async () => {
    const { page, errors } = await openPage(app.browser, app.server.url);
    const scene = await sceneOf(page);
    assert.equal(scene.editable, true);
    assert.equal(scene.build.decomposition, 'cdt-merged');
    assert.equal(await page.locator('#decomposition').inputValue(), 'cdt-merged');
    assert.ok(await page.locator('#editor').isVisible());
    assert.equal(await page.locator('path.obstacle').count(), scene.scene.obstacles.length);
    assert.ok(await page.locator('#path').count(), 'a path between the defaults');
    await screenshot(page, 'grid-map');
    assert.deepEqual(errors, []);
    await page.context().close();
  });
});

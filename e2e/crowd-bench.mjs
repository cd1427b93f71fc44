// Measures the crowd mode in headless Chromium (BENCHMARKS.md, "Crowds in the web demo"): for
// each agent count, the animation frame rate with crowd mode off (the peer: the same page, same
// browser, same run) and on, the simulated seconds played per second, the server's mean step
// time and the size of a step answer.
//   cargo build --release && (cd e2e && node crowd-bench.mjs)        # COUNTS=500,2000 SECONDS=3
import { launchBrowser, openPage, startServer } from './harness.mjs';

const COUNTS = (process.env.COUNTS || '500,1000,2000').split(',').map(Number);
const SECONDS = Number(process.env.SECONDS || 3);

const rafRate = (page, seconds) => page.evaluate((s) => new Promise((done) => {
  let frames = 0;
  const t0 = performance.now();
  const tick = (now) => {
    frames += 1;
    if (now - t0 < s * 1000) requestAnimationFrame(tick);
    else done(frames / ((now - t0) / 1000));
  };
  requestAnimationFrame(tick);
}), seconds);

const server = await startServer();
const browser = await launchBrowser();
try {
  console.log('agents | fps off | fps on | ratio | crowd frames/s | sim s per s | step ms | answers/s | answer kB');
  for (const n of COUNTS) {
    const { page, context } = await openPage(browser, server.url);
    const off = await rafRate(page, SECONDS);
    await page.evaluate((k) => window.__crowd.create({ agents: k, scenario: 'random' }), n);
    await page.waitForFunction(() => window.__crowd.answers >= 5);
    const before = await page.evaluate(() => ({ t: window.__crowd.time, f: window.__crowd.frames, a: window.__crowd.answers }));
    const on = await rafRate(page, SECONDS);
    const after = await page.evaluate(() => ({ t: window.__crowd.time, f: window.__crowd.frames, a: window.__crowd.answers, ms: window.__crowd.stepMs, id: window.__crowd.id }));
    const bytes = await page.evaluate((id) => fetch(`/api/crowd/${id}/step`, { method: 'POST', body: '{"steps":1}' }).then((r) => r.text()).then((t) => t.length), after.id);
    console.log([n, off.toFixed(1), on.toFixed(1), (on / off).toFixed(2), ((after.f - before.f) / SECONDS).toFixed(1),
      ((after.t - before.t) / SECONDS).toFixed(2), after.ms.toFixed(2), ((after.a - before.a) / SECONDS).toFixed(1),
      (bytes / 1024).toFixed(1)].join(' | '));
    await context.close();
  }
} finally {
  await browser.close();
  await server.stop();
}

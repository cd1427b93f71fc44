// Regenerates docs/demo.png, the README's picture of the page: the default query with the
// midpoint polyline shown and the funnel stopped part-way.
//   cargo build --release && (cd e2e && npm run screenshot)
import { join } from 'node:path';
import { click, launchBrowser, openPage, ROOT, startServer } from './harness.mjs';

const STEPS = Number(process.env.STEPS || 7);
const server = await startServer();
const browser = await launchBrowser();
try {
  const { page, errors } = await openPage(browser, server.url, { width: 1280, height: 700 });
  await click(page, '#toggle-midpoints');
  for (let i = 0; i < STEPS; i++) await click(page, '#btn-step');
  await page.locator('#map').evaluate((e) => e.focus());
  const path = join(ROOT, 'docs', 'demo.png');
  await page.screenshot({ path });
  if (errors.length) throw new Error(`page errors: ${errors.join('; ')}`);
  console.log(`wrote ${path}`);
} finally {
  await browser.close();
  await server.stop();
}

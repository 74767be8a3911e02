// Opens a `jp report --format html` page in headless Chromium (the reports suite's playwright-core
// and browser.mjs) and prints how long it takes from navigation until the call tree is built, and
// then until the flame graph is drawn, then how long the hottest method's Callers view (its first
// opening builds the index of contexts by method) and a regex search take, with the JS heap in
// use; exits 1 if the page does not render.
//
// usage: node integration-tests/bench/open-report.mjs REPORT.html
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const { launch, openPage } = await import(join(here, '../reports/browser.mjs'));

const file = process.argv[2];
if (!file) {
  console.error('usage: node open-report.mjs REPORT.html');
  process.exit(2);
}

function fail(message) {
  console.log(`open-report: FAIL ${message}`);
  process.exitCode = 1;
}

const browser = await launch();
try {
  const page = await openPage(browser);
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Performance.enable');
  const started = Date.now();
  await page.goto(pathToFileURL(resolve(file)).href, { timeout: 120_000 });
  const loaded = Date.now();
  await page.waitForSelector('body[data-ready]', { timeout: 120_000 });
  const ready = Date.now();
  const rows = await page.locator('#tree .node').count();
  const inPage = await page.evaluate(() => window.jpReport);
  await page.click('#tab-flame');
  const painted = await page.evaluate(() => {
    const canvas = document.getElementById('flame');
    const pixels = canvas.getContext('2d').getImageData(0, 0, canvas.width, Math.min(canvas.height, 300)).data;
    let count = 0;
    for (let i = 3; i < pixels.length; i += 4) if (pixels[i] !== 0) count += 1;
    return count;
  });
  const drawn = Date.now();
  await page.click('#tab-hot');
  const picking = Date.now();
  await page.click('#hot tbody tr');
  await page.waitForSelector('#view-method:not([hidden]) #backtraces .node');
  const picked = Date.now();
  await page.check('#regex');
  await page.fill('#search', '[13579]\\(|m2');
  const searching = Date.now();
  await page.press('#search', 'Enter');
  const found = await page.textContent('#search-status');
  const searched = Date.now();
  const { metrics } = await cdp.send('Performance.getMetrics');
  const metric = (name) => metrics.find((entry) => entry.name === name)?.value ?? NaN;
  const mb = (bytes) => (bytes / 1e6).toFixed(0);
  console.log(`open-report: ${file}`);
  console.log(`  contexts in the page        ${inPage.contexts - 1}`);
  console.log(`  navigation to load event    ${loaded - started} ms (the file read and parsed by the browser)`);
  console.log(`  load to call tree built     ${ready - loaded} ms (data read in ${inPage.parseMs.toFixed(0)} ms, ${rows} rows)`);
  console.log(`  tree to flame graph drawn   ${drawn - ready} ms`);
  console.log(`  total, navigation to drawn  ${drawn - started} ms`);
  console.log(`  hottest method's Callers    ${picked - picking} ms`);
  console.log(`  regex search                ${searched - searching} ms (${found})`);
  console.log(`  JS heap used / total        ${mb(metric('JSHeapUsedSize'))} MB / ${mb(metric('JSHeapTotalSize'))} MB`);
  if (rows === 0) fail('the call tree has no rows');
  if (painted === 0) fail('the flame graph is blank');
  if (page.errors.length) fail(`page errors: ${page.errors.join('; ')}`);
} catch (error) {
  fail(error.message);
} finally {
  await browser.close();
}

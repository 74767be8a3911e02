// Sampled time in `jp report --format html --samples`, in headless Chromium: a profile of a program
// whose spin() spins and nap() sleeps, with async-profiler's collapsed stacks (native and kernel
// frames included) attached. The header totals the sampled metric, labelled "sampled, not
// reproducible"; the metric switch offers it; in it the tree puts the native frames under their Java
// caller and the samples without an instrumented frame under "(outside instrumented code)", and the
// hot methods are ranked by it; back in bytecodes, the page is as before.
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { check, finish, launch, noErrors, openReport } from './browser.mjs';

const { JP, JP_PROFILES, JP_WORK } = process.env;
const profile = join(JP_PROFILES, 'spin.jpprof');
const samples = join(JP_PROFILES, '..', 'samples', 'spin.collapsed');
const out = join(JP_WORK, 'samples.html');
execFileSync(JP, ['report', profile, '--samples', samples, '--format', 'html', '--out', out]);

const browser = await launch();
const { page } = await openReport(browser, out);
const LABEL = 'cpu-samples (sampled, not reproducible)';
const rows = () => page.$$eval('#tree .row', (list) => list.map((row) => [row.querySelector('.name').textContent, row.querySelector('.num').textContent]));

await check('the header totals the sampled metric with its unit, labelled as sampled', async () => {
  const header = await page.innerText('#meta');
  if (!header.includes(`total ${LABEL}\n160 samples`)) throw new Error(JSON.stringify(header));
  return `total ${LABEL}: 160 samples`;
});

await check('the metric switch offers the sampled metric, and in it native frames are under their Java caller', async () => {
  const options = await page.$$eval('#metric option', (list) => list.map((option) => option.text));
  if (!options.includes(LABEL)) throw new Error(JSON.stringify(options));
  await page.selectOption('#metric', 'cpu-samples');
  await page.click('#tab-tree');
  // Opens every context, depth first.
  for (let round = 0; round < 10; round++) {
    const closed = page.locator('#tree .node[aria-expanded="false"] > .row').first();
    if ((await closed.count()) === 0) break;
    await closed.click();
  }
  const tree = await rows();
  const text = tree.map(([name, value]) => `${name} ${value}`).join(' | ');
  for (const wanted of ['Spin.main(String[]) demo 151', 'Spin.spin(long) demo 144', '__nanosleep 6', '(outside instrumented code) 9']) {
    if (!text.includes(wanted)) throw new Error(`${wanted} missing: ${text}`);
  }
  const sleep = tree.findIndex(([name]) => name.startsWith('java.lang.Thread.sleep'));
  const nap = tree.findIndex(([name]) => name.startsWith('Spin.nap()'));
  if (!(nap >= 0 && sleep > nap)) throw new Error(`Thread.sleep is not under nap(): ${text}`);
  await page.screenshot({ path: join(JP_WORK, 'html-samples.png') });
  return `${text}; screenshot html-samples.png`;
});

await check('the hot methods are ranked by the sampled metric', async () => {
  await page.click('#tab-hot');
  const first = await page.$eval('#hot tbody tr', (row) => [row.cells[6].textContent, row.cells[0].textContent]);
  if (!(first[0].startsWith('Spin.spin(long)') && first[1] === '140')) throw new Error(JSON.stringify(first));
  return JSON.stringify(first);
});

await check('back in bytecodes, the exact counts are as without samples', async () => {
  await page.selectOption('#metric', 'bytecodes');
  await page.click('#tab-hot');
  const first = await page.$eval('#hot tbody tr', (row) => [row.cells[6].textContent, row.cells[0].textContent]);
  if (!(first[0].startsWith('Spin.spin(long)') && first[1] === '6,000,000')) throw new Error(JSON.stringify(first));
  noErrors(page);
  return JSON.stringify(first);
});

await browser.close();
finish();

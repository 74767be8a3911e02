// `jp report --timeline --format html` in headless Chromium, on a written series of three
// snapshots of one run (phase A calls a(), phase B b()): one column per interval with its total's
// bar, the methods' rows shaded only where they ran, the contexts' rows by path, the metric switch,
// and a cell's tooltip with its numbers.
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { check, finish, launch, noErrors, openReport } from './browser.mjs';

const { JP, JP_WORK } = process.env;

const MAIN = 'demo.Phases.main([Ljava/lang/String;)V';
// Per snapshot: [method of main, its calls, its bytecodes].
const snapshots = [['a', 5, 500], ['a', 3, 300], ['b', 4, 900]];
const series = join(JP_WORK, 'run.snapshots');
mkdirSync(series);
snapshots.forEach(([method, calls, bytecodes], index) => {
  const number = index + 1;
  writeFileSync(join(series, `snapshot-00000${number}.jpprof`), [
    'jp-profile 1', 'meta agent periodic', 'meta pid 7', 'meta start 2025-01-01T00:00:00Z',
    `meta snapshot ${number}`, `meta elapsed ${number * 100}`, `meta trigger ${number === 3 ? 'exit' : 'timer'}`,
    `frame 1 ${MAIN}`, `frame 2 demo.Phases.${method}()V`, 'node 1 0 1 0 1', `node 2 1 2 ${calls} ${bytecodes}`, 'end 2', '',
  ].join('\n'));
});
const out = join(JP_WORK, 'timeline.html');
execFileSync(JP, ['report', '--timeline', series, '--format', 'html', '--out', out]);
const browser = await launch();
const { page } = await openReport(browser, out);

const grid = () => page.$$eval('#grid tbody tr', (rows) => rows.map((row) => [
  row.cells[0].firstChild.textContent, [...row.querySelectorAll('td.cell')].map((cell) => cell.style.background !== ''),
]));

await check('the timeline has a column per interval and each method shaded where it ran', async () => {
  const columns = await page.$$eval('#grid th.interval', (cells) => cells.map((cell) => cell.textContent));
  if (JSON.stringify(columns) !== '["1","2","3"]') throw new Error(JSON.stringify(columns));
  const rows = await grid();
  const wanted = [['Phases.b()', [false, false, true]], ['Phases.a()', [true, true, false]], ['Phases.main(String[])', [true, true, true]]];
  if (JSON.stringify(rows) !== JSON.stringify(wanted)) throw new Error(JSON.stringify(rows));
  const bars = await page.$$eval('#grid .bar', (all) => all.map((bar) => bar.style.height));
  if (JSON.stringify(bars) !== '["33px","20px","60px"]') throw new Error(JSON.stringify(bars));
  await page.screenshot({ path: join(JP_WORK, 'timeline.png') });
  noErrors(page);
  return `${rows.map(([name, ran]) => `${name} ${ran.map((r) => (r ? '#' : '.')).join('')}`).join(', ')}; screenshot timeline.png`;
});

await check('a cell\'s tooltip gives its interval and numbers, in the metric chosen', async () => {
  await page.selectOption('#metric', 'calls');
  await page.hover('#grid tbody tr:nth-child(2) td:nth-child(3)');
  await page.waitForSelector('#tooltip:not([hidden])', { timeout: 5000 });
  const tip = await page.innerText('#tooltip');
  if (tip !== 'Phases.a()\nsnapshot 2 at 200 ms (timer)\n3 calls, 100.0% of the interval') throw new Error(JSON.stringify(tip));
  noErrors(page);
  return JSON.stringify(tip);
});

await check('the contexts\' rows are named by their paths', async () => {
  await page.selectOption('#rows', 'contexts');
  const rows = (await grid()).map(([name]) => name);
  const wanted = ['Phases.main(String[]) › Phases.b()', 'Phases.main(String[]) › Phases.a()', 'Phases.main(String[])'];
  if (JSON.stringify(rows) !== JSON.stringify(wanted)) throw new Error(JSON.stringify(rows));
  noErrors(page);
  return rows.join(', ');
});

await browser.close();
finish();

// The Source view of `jp report --format html --sources DIR` in headless Chromium, on the checked-in
// profile with per-line counts of integration-tests/programs/demo/Fig4.java and a copy of that
// source with markup in a comment: every counted line's gutter shows the profile's `line` record
// (bytecodes and share of the method), the code is the file's text, markup shows as text, and a
// profile without lines has no Source tab. Leaves source.png.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { check, finish, launch, noErrors, openReport } from './browser.mjs';

const { JP, JP_PROFILES, JP_WORK } = process.env;
const sources = join(dirname(fileURLToPath(import.meta.url)), '../../engine/cli/tests/testdata/sources');
const profile = join(JP_PROFILES, 'fig4_lines.jpprof');

function report(name, ...flags) {
  const out = join(JP_WORK, name);
  execFileSync(JP, ['report', '--format', 'html', '--out', out, ...flags]);
  return out;
}

// Fig4's frames as the page's full names read them: `demo.Fig4.g(I)V` is `demo.Fig4.g(int):void`.
const JAVA_TYPES = { V: 'void', I: 'int', '[Ljava/lang/String;': 'java.lang.String[]' };
function javaForm(frame) {
  const [, method, params, ret] = frame.match(/^(.*)\((.*)\)(.*)$/);
  return `${method}(${params ? JAVA_TYPES[params] : ''}):${JAVA_TYPES[ret]}`;
}

// The profile's own records: frame name (as the page shows it) by id, `line` records by frame name, own bytecodes by name.
const text = readFileSync(profile, 'utf8').split('\n');
const frameNames = new Map();
const expected = new Map();
const own = new Map();
for (const record of text) {
  const [kind, ...fields] = record.split(' ');
  if (kind === 'frame') frameNames.set(fields[0], javaForm(fields.slice(1).join(' ')));
  if (kind === 'node') {
    const name = frameNames.get(fields[2]);
    own.set(name, (own.get(name) || 0) + Number(fields[4]));
  }
  if (kind === 'line') {
    const name = frameNames.get(fields[0]);
    if (!expected.has(name)) expected.set(name, new Map());
    expected.get(name).set(Number(fields[1]), Number(fields[2]));
  }
}
const sourceLines = readFileSync(join(sources, 'demo/Fig4.java'), 'utf8').split('\n');

const browser = await launch();
const { page } = await openReport(browser, report('source.html', profile, '--sources', sources, '--names', 'full'));

await check('the Source tab is there and opens the view', async () => {
  await page.click('#tab-source');
  if (await page.isHidden('#view-source')) throw new Error('the view is hidden');
  noErrors(page);
});

await check('every counted line shows the profile\'s bytecodes and its share of the method', async () => {
  const shown = await page.$$eval('.source-method', (methods) => methods.map((method) => ({
    name: method.querySelector('.source-name').title,
    rows: [...method.querySelectorAll('tr.counted')].map((tr) => [Number(tr.dataset.line), tr.cells[1].textContent, tr.cells[2].textContent]),
  })));
  if (shown.length !== expected.size) throw new Error(`${shown.length} methods shown, ${expected.size} have lines`);
  let checked = 0;
  for (const { name, rows } of shown) {
    const want = expected.get(name);
    if (!want) throw new Error(`${name} has no line records`);
    if (rows.length !== want.size) throw new Error(`${name}: ${rows.length} counted rows, ${want.size} records`);
    for (const [line, bytecodes, share] of rows) {
      const count = want.get(line);
      if (count === undefined || bytecodes !== count.toLocaleString('en-US')) throw new Error(`${name} line ${line}: ${bytecodes}, want ${count}`);
      const pct = `${((count * 100) / own.get(name)).toFixed(1)}%`;
      if (share !== pct) throw new Error(`${name} line ${line}: ${share}, want ${pct}`);
      checked += 1;
    }
  }
  return `${checked} lines of ${shown.length} methods`;
});

await check('the code is the source file\'s text, markup included as text', async () => {
  const rows = await page.$$eval('#source tr', (trs) => trs.map((tr) => [Number(tr.dataset.line), tr.cells[4].textContent]));
  for (const [line, code] of rows) {
    if (code !== sourceLines[line - 1]) throw new Error(`line ${line}: ${JSON.stringify(code)}`);
  }
  const markup = rows.find(([line]) => line === 22);
  if (!markup || !markup[1].includes('<b>markup</b> & <script>')) throw new Error('line 22 is not shown as text');
  if (await page.$('#source b, #source script')) throw new Error('markup became elements');
  return `${rows.length} rows`;
});

await check('the hottest line of a method has the widest bar', async () => {
  const widths = await page.$$eval('.source-method', (methods) => methods.map((method) =>
    [...method.querySelectorAll('tr.counted')].map((tr) => [tr.cells[1].textContent.replace(/,/g, ''), tr.querySelector('.heat span').style.width])));
  for (const rows of widths) {
    const hottest = Math.max(...rows.map(([count]) => Number(count)));
    for (const [count, width] of rows) if ((Number(count) === hottest) !== (width === '100%')) throw new Error(JSON.stringify(rows));
  }
});

await check('a screenshot of the Source view', async () => {
  await page.screenshot({ path: join(JP_WORK, 'source.png'), fullPage: true });
  noErrors(page);
});
await page.close();

await check('without lines there is no Source tab', async () => {
  const { page: plain } = await openReport(browser, report('plain.html', join(JP_PROFILES, 'a.jpprof'), '--sources', sources));
  if (!(await plain.isHidden('#tab-source'))) throw new Error('a Source tab');
  noErrors(plain);
  await plain.close();
});

await browser.close();
finish();

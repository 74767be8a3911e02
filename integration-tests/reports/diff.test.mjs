// `jp diff --format html` in headless Chromium, opened from file://: the page renders its summary,
// the differential icicle graph paints growth in red and shrinkage in blue, hovering a frame tells
// its base, new and change, clicking zooms, the method table lists the method that grew most first,
// the test table ranks the tests, a diff in the exact metric `allocations` offers it in the metric
// switch and ranks by it, a profile against itself paints no colour and lists no change,
// two unrelated generated profiles of 100,000 contexts each make a page that is ready in seconds,
// and no page raises a console error. Screenshots go to $JP_WORK.
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { check, finish, launch, openPage } from './browser.mjs';

const { JP, JP_PROFILES, JP_WORK } = process.env;
const base = join(JP_PROFILES, 'diff_base.jpprof');
const changed = join(JP_PROFILES, 'diff_new.jpprof');
const generator = join(dirname(fileURLToPath(import.meta.url)), '../bench/generate-profile.py');

function diff(from, to, name, ...more) {
  const out = join(JP_WORK, name);
  execFileSync(JP, ['diff', from, '--against', to, '--format', 'html', '--out', out, ...more]);
  return out;
}

async function open(browser, file) {
  const page = await openPage(browser);
  await page.goto(pathToFileURL(file).href);
  await page.waitForSelector('body[data-ready]', { timeout: 30_000 });
  return page;
}

// How many pixels of the graph are red (growth) and blue (shrinkage).
function colours(page) {
  return page.evaluate(() => {
    const canvas = document.getElementById('flame');
    const pixels = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height).data;
    let red = 0;
    let blue = 0;
    for (let i = 0; i < pixels.length; i += 4) {
      const [r, g, b] = [pixels[i], pixels[i + 1], pixels[i + 2]];
      if (r > 180 && r - g > 60 && r - b > 60) red += 1;
      if (b > 180 && b - r > 60 && b - g > 30) blue += 1;
    }
    return { red, blue, width: canvas.width, height: canvas.height };
  });
}

const rows = (page, table) =>
  page.$$eval(`#${table} tbody tr`, (trs) => trs.map((tr) => [...tr.cells].map((td) => td.textContent)));

function noErrors(page) {
  const problems = [...page.errors, ...page.warnings];
  if (problems.length) throw new Error(problems.join('; '));
}

const browser = await launch();
let page;

await check('diff_base against diff_new: the page renders its summary from file://', async () => {
  page = await open(browser, diff(base, changed, 'diff.html'));
  const summary = await page.innerText('#summary');
  if (!summary.includes('2,440 → 2,622 (+182, +7.5%)')) throw new Error(`summary: ${JSON.stringify(summary)}`);
  return summary.replaceAll('\n', ' ');
});

await check('--title names the page and its header, markup shown as text', async () => {
  const title = 'Parser <b>before</b> & after';
  const titled = await open(browser, diff(base, changed, 'diff-titled.html', '--title', title));
  const [header, documentTitle, bold] = await titled.evaluate(() => [document.getElementById('title').textContent, document.title, document.querySelectorAll('h1 b').length]);
  await titled.close();
  if (header !== title || documentTitle !== `${title} - JP profile diff` || bold !== 0) throw new Error(`header ${JSON.stringify(header)}, title ${JSON.stringify(documentTitle)}, ${bold} bold`);
  return `header ${JSON.stringify(header)}, title ${JSON.stringify(documentTitle)}`;
});

await check('the icicle graph paints growth red and shrinkage blue', async () => {
  const { red, blue, width, height } = await colours(page);
  await page.screenshot({ path: join(JP_WORK, 'diff.png'), fullPage: true });
  if (height < 3 * 18) throw new Error(`canvas ${width}x${height}`);
  if (red < 100) throw new Error(`${red} red pixels`);
  if (blue < 1) throw new Error(`${blue} blue pixels`);
  return `${red} red and ${blue} blue pixels on a ${width}x${height} canvas`;
});

await check('the method table lists the method that grew most first', async () => {
  const methods = await rows(page, 'methods');
  const [status, baseValue, newValue, change, percent, name] = methods[0];
  if (name !== 'Parser.parse(String) demo') throw new Error(`first method ${name}`);
  if ([status, baseValue, newValue, change, percent].join(' ') !== 'changed 440 572 +132 +30.0%') {
    throw new Error(`first row ${methods[0]}`);
  }
  const statuses = methods.map((row) => row[0]).join(',');
  if (statuses !== 'changed,added,removed') throw new Error(`statuses ${statuses}`);
  return `${methods.length} rows: ${methods.map((row) => `${row[5]} ${row[3]}`).join(', ')}`;
});

await check('the test table ranks the tests by their change', async () => {
  const tests = await rows(page, 'tests');
  if (!(await page.isVisible('#tests'))) throw new Error('the test table is hidden');
  if (tests[0][5] !== 'demo.ParserTest#largeFile()' || tests[0][3] !== '+180') throw new Error(`first test ${tests[0]}`);
  return tests.map((row) => `${row[5]} ${row[3]}`).join(', ');
});

await check('hovering a frame tells its base, new and change', async () => {
  const box = await page.locator('#flame').boundingBox();
  // Row 1 (the second), at its left edge: the largest top-level context, the test largeFile().
  await page.mouse.move(box.x + 5, box.y + 18 + 9);
  const tooltip = page.locator('#tooltip');
  await tooltip.waitFor({ state: 'visible', timeout: 5000 });
  const text = await tooltip.textContent();
  if (!text.startsWith('[test] demo.ParserTest#largeFile()')) throw new Error(`tooltip ${JSON.stringify(text)}`);
  if (!text.includes('subtree bytecodes: base 1,920, new 2,100, change +180 (+9.4%)')) throw new Error(`tooltip ${JSON.stringify(text)}`);
  return text.replaceAll('\n', ' | ');
});

await check('clicking a frame zooms into it and clicking the top zooms out', async () => {
  const box = await page.locator('#flame').boundingBox();
  await page.mouse.click(box.x + 5, box.y + 2 * 18 + 9);
  const zoomed = await page.evaluate(() => window.jpDiff.zoom());
  if (zoomed === 0) throw new Error('no zoom');
  await page.mouse.click(box.x + 5, box.y + 9);
  const back = await page.evaluate(() => window.jpDiff.zoom());
  if (back !== 0) throw new Error(`zoom ${back} after clicking the top`);
  return `zoomed into context ${zoomed}, and out`;
});

await check('the metric switch reranks the tables by calls', async () => {
  await page.selectOption('#metric', 'calls');
  const methods = await rows(page, 'methods');
  if (methods[0][5] !== 'Lexer.peek() demo' || methods[0][3] !== '-2') throw new Error(`first by calls ${methods[0]}`);
  await page.selectOption('#metric', 'bytecodes');
  noErrors(page);
  return `${methods[0][5]} ${methods[0][3]}`;
});

await check('--metric allocations: the summary, the switch and the tables show the exact extra metric', async () => {
  const allocations = await open(browser, diff(join(JP_PROFILES, 'allocations.jpprof'), join(JP_PROFILES, 'allocations_new.jpprof'),
    'diff-allocations.html', '--metric', 'allocations'));
  const summary = await allocations.innerText('#summary');
  if (!summary.includes('total allocations\n19 → 25 (+6, +31.6%)')) throw new Error(`summary: ${JSON.stringify(summary)}`);
  const options = await allocations.$$eval('#metric option', (all) => all.map((option) => option.value));
  if (options.join(',') !== 'bytecodes,calls,allocations') throw new Error(`switch ${options}`);
  if ((await allocations.inputValue('#metric')) !== 'allocations') throw new Error('the switch is not on allocations');
  const methods = await rows(allocations, 'methods');
  const first = methods[0].join(' ');
  if (first !== 'changed 15 20 +5 +33.3% Alloc.fill(int) demo') throw new Error(`first row ${first}`);
  const { red } = await colours(allocations);
  if (red < 1) throw new Error('no growth painted');
  noErrors(allocations);
  await allocations.close();
  return `${first}; ${red} red pixels`;
});

await check('the Names switch shows full names, and the page follows a dark colour scheme', async () => {
  await page.selectOption('#names', 'full');
  const full = (await rows(page, 'methods'))[0][5];
  await page.selectOption('#names', 'short');
  if (full !== 'demo.Parser.parse(java.lang.String):int') throw new Error(`in full: ${full}`);
  // Pixels are read from a copy: reading the page's own canvas again and again makes Chromium warn.
  const graph = () => page.evaluate(() => {
    const canvas = document.getElementById('flame');
    const copy = document.createElement('canvas');
    [copy.width, copy.height] = [canvas.width, canvas.height];
    const context = copy.getContext('2d');
    context.drawImage(canvas, 0, 0);
    const pixels = context.getImageData(0, 0, copy.width, copy.height).data;
    const found = { top: pixels[8] + pixels[9] + pixels[10], red: 0, blue: 0 };
    // Hues rather than the light page's bright colours: in the dark, changes fade towards a dark base.
    for (let i = 0; i < pixels.length; i += 4) {
      const [r, g, b] = [pixels[i], pixels[i + 1], pixels[i + 2]];
      if (r - g > 60 && r - b > 60) found.red += 1;
      if (b - r > 40 && b - g > 20) found.blue += 1;
    }
    return { ...found, background: getComputedStyle(document.documentElement).backgroundColor };
  });
  const light = await graph();
  await page.emulateMedia({ colorScheme: 'dark' });
  // The page redraws the graph when the scheme changes, a frame or more later on a busy machine.
  await page.waitForFunction(() => window.matchMedia('(prefers-color-scheme: dark)').matches);
  let dark = await graph();
  for (const started = Date.now(); !(dark.top < light.top - 200) && Date.now() - started < 5000; dark = await graph()) {
    await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => done())));
  }
  const { red, blue } = dark;
  await page.screenshot({ path: join(JP_WORK, 'diff-dark.png'), fullPage: true });
  await page.emulateMedia({ colorScheme: 'light' });
  if (dark.background !== 'rgb(21, 24, 30)' || !(dark.top < light.top - 200) || red < 100 || blue < 1) throw new Error(`dark: ${JSON.stringify(dark)}, ${red} red, ${blue} blue`);
  noErrors(page);
  return `in full ${full}; dark background ${dark.background}, top frame ${light.top} -> ${dark.top}, ${red} red and ${blue} blue pixels; screenshot diff-dark.png`;
});

await check('a profile against itself paints no colour and lists no change', async () => {
  const same = await open(browser, diff(base, base, 'same.html'));
  const { red, blue } = await colours(same);
  if (red + blue !== 0) throw new Error(`${red} red and ${blue} blue pixels`);
  const methods = await rows(same, 'methods');
  if (methods.length !== 1 || methods[0][0] !== 'No method changed.') throw new Error(`rows ${methods}`);
  noErrors(same);
  await same.close();
  return 'grey graph, "No method changed."';
});

await check('two different programs: everything added or removed, no console error', async () => {
  const other = await open(browser, diff(join(JP_PROFILES, 'a.jpprof'), join(JP_PROFILES, 'fig5.jpprof'), 'other.html'));
  const statuses = new Set((await rows(other, 'methods')).map((row) => row[0]));
  if ([...statuses].some((s) => s !== 'added' && s !== 'removed')) throw new Error(`statuses ${[...statuses]}`);
  if (await other.isVisible('#tests')) throw new Error('a test table without tests');
  const { red, blue } = await colours(other);
  if (red === 0 || blue === 0) throw new Error(`${red} red and ${blue} blue pixels`);
  noErrors(other);
  await other.close();
  return `statuses ${[...statuses].join(', ')}`;
});

await check('two generated profiles of 100,000 contexts: the page is ready in seconds, without errors', async () => {
  const [one, two] = [join(JP_WORK, 'one.jpprof'), join(JP_WORK, 'two.jpprof')];
  execFileSync('python3', [generator, '100000', one, '--seed', '1']);
  execFileSync('python3', [generator, '100000', two, '--seed', '2']);
  const started = Date.now();
  const large = await open(browser, diff(one, two, 'large.html'));
  const ms = Date.now() - started;
  const contexts = await large.evaluate(() => window.jpDiff.contexts);
  const { red, blue } = await colours(large);
  await large.screenshot({ path: join(JP_WORK, 'diff-large.png') });
  if (ms > 15_000) throw new Error(`ready after ${ms} ms`);
  if (red === 0 || blue === 0) throw new Error(`${red} red and ${blue} blue pixels`);
  noErrors(large);
  await large.close();
  return `${contexts} contexts joined, ready after ${ms} ms`;
});

await check('a recursion 15,000 deep: the graph stops at 900 rows, says so, and zooms deep', async () => {
  const chain = (bytecodes) => {
    const lines = ['jp-profile 1', 'frame 1 demo.Deep.recurse(I)I'];
    for (let node = 1; node <= 15000; node += 1) lines.push(`node ${node} ${node - 1} 1 1 ${node === 15000 ? bytecodes : 1}`);
    lines.push('end 15000', '');
    return lines.join('\n');
  };
  const [one, two] = [join(JP_WORK, 'deep1.jpprof'), join(JP_WORK, 'deep2.jpprof')];
  writeFileSync(one, chain(1));
  writeFileSync(two, chain(50));
  const deep = await open(browser, diff(one, two, 'deep.html'));
  const height = await deep.evaluate(() => document.getElementById('flame').height / (window.devicePixelRatio || 1));
  if (height !== 900 * 18) throw new Error(`canvas ${height} px high`);
  const note = await deep.innerText('#flame-note');
  if (!note.includes('deeper than 900 rows')) throw new Error(`note ${JSON.stringify(note)}`);
  // The last row drawn, scrolled into view first: the mouse only reaches the viewport.
  await deep.evaluate(() => {
    const canvas = document.getElementById('flame');
    window.scrollTo(0, canvas.getBoundingClientRect().top + window.scrollY + 899 * 18 - 400);
  });
  const box = await deep.locator('#flame').boundingBox();
  await deep.mouse.click(box.x + 5, box.y + 899 * 18 + 9);
  const zoomed = await deep.evaluate(() => window.jpDiff.zoom());
  const after = await deep.evaluate(() => document.getElementById('flame').height / (window.devicePixelRatio || 1));
  if (zoomed < 800 || after > 900 * 18) throw new Error(`zoomed into ${zoomed}, canvas ${after} px high`);
  noErrors(deep);
  await deep.close();
  return `zoomed into context ${zoomed}, canvas ${after} px high`;
});

await browser.close();
finish();

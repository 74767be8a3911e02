// `jp report --format html` in headless Chromium, opened from file:// as a user would: the call
// tree renders and expands, sorting and the metric switch change it, search finds a method that
// only occurs deep in a generated profile of 100,000 contexts and opens its path, the icicle graph
// draws, zooms and shows a tooltip, the hot-methods table sorts, frame names cannot inject markup,
// and no page raises a console error. Screenshots go to $JP_WORK.
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { check, finish, launch, noErrors, openReport as open } from './browser.mjs';

const { JP, JP_PROFILES, JP_WORK } = process.env;
const generator = join(dirname(fileURLToPath(import.meta.url)), '../bench/generate-profile.py');

function report(profiles, name, ...flags) {
  const out = join(JP_WORK, name);
  execFileSync(JP, ['report', ...profiles, '--format', 'html', '--out', out, ...flags]);
  return out;
}

// A jpprof file's frames and contexts (docs/profile-format.md): frame id -> name, and per node
// its depth, frame id, and the top-level context it is under.
function parse(path) {
  const frames = new Map();
  const nodes = new Map([['0', { depth: 0 }]]);
  for (const line of readFileSync(path, 'utf8').split('\n')) {
    const [record, id, ...rest] = line.split(' ');
    if (record === 'frame') frames.set(id, rest.join(' ').replace(/\\(.)/g, (_, c) => (c === 'n' ? '\n' : c)));
    else if (record === 'node') {
      const up = nodes.get(rest[0]);
      nodes.set(id, { depth: up.depth + 1, frame: rest[1], calls: Number(rest[2]), top: up.depth === 0 ? rest[1] : up.top });
    }
  }
  return { frames, nodes: [...nodes.values()].slice(1) };
}

const number = (text) => Number(text.replaceAll(',', ''));

// The full form of the generated profile's names (`com.example.p1.C1.m1(ILjava/lang/String;)V`),
// as the report writes it, and their short form, as the page shows it by default.
const fullForm = (name) => name.replace(/\((I*)Ljava\/lang\/String;\)V$/, (_, ints) => `(${[...ints].map(() => 'int').concat('java.lang.String').join(',')}):void`);
const shortForm = (name) => {
  const [, cls, method, ints] = /^[\w.]+\.(C\d+)\.(m\d+)\((I*)L/.exec(name);
  return `${cls}.${method}(${[...ints].map(() => 'int').concat('String').join(',')})`;
};

// The rows of the tree as built: [name, total, self] of the top-level contexts, in order.
function topLevel(page) {
  return page.$$eval('#tree > .node > .row', (rows) => rows.map((row) => {
    const cells = row.querySelectorAll('.num');
    return [row.querySelector('.name').title, cells[0].textContent, cells[1].textContent];
  }));
}

const browser = await launch();
const small = [join(JP_PROFILES, 'a.jpprof'), join(JP_PROFILES, 'b.jpprof')];
let page;

await check('a.jpprof + b.jpprof: the page renders its tree and metadata from file://', async () => {
  ({ page } = await open(browser, report(small, 'small.html')));
  const rows = await page.locator('#tree .node').count();
  if (rows < 4) throw new Error(`${rows} tree rows`);
  const meta = await page.innerText('#meta');
  for (const wanted of ['files merged\n2', 'total bytecodes\n832', 'total calls\n26', 'agent\ndefault', 'bba\nprecise']) {
    if (!meta.includes(wanted)) throw new Error(`metadata lacks ${JSON.stringify(wanted)}: ${JSON.stringify(meta)}`);
  }
  const top = await topLevel(page);
  if (top[0][0] !== 'demo.Main.main(java.lang.String[]):void' || top[0][1] !== '774') throw new Error(`first row ${top[0]}`);
  return `${rows} rows built`;
});

await check('clicking a collapsed context shows its children', async () => {
  const node = page.locator('#tree > .node', { hasText: 'MainTest.main works twice()' });
  if (await node.getAttribute('aria-expanded') !== 'false') throw new Error('not collapsed at first');
  await node.locator('> .row').click();
  const child = node.locator('> .kids > .node > .row .name');
  await child.first().waitFor({ timeout: 5000 });
  const names = await child.allTextContents();
  if (!names.includes('Main.main(String[]) demo')) throw new Error(`children ${names}`);
  if (await node.getAttribute('aria-expanded') !== 'true') throw new Error('aria-expanded not true');
  return `children: ${names.join(', ')}`;
});

await check('sorting by self reorders the siblings', async () => {
  const before = (await topLevel(page)).map((row) => row[0]);
  await page.selectOption('#sort', 'self');
  const after = await topLevel(page);
  const selfs = after.map((row) => number(row[2]));
  if (selfs.some((value, i) => i > 0 && value > selfs[i - 1])) throw new Error(`self values not descending: ${selfs}`);
  if (after[0][0] !== 'demo.MainTest.main works twice():void') throw new Error(`first by self: ${after[0][0]}`);
  await page.selectOption('#sort', 'total');
  return `${before.map((n) => n.split('(')[0]).join(', ')} -> ${after.map((row) => row[0].split('(')[0]).join(', ')}`;
});

await check('the metric switch changes the numbers to calls', async () => {
  await page.selectOption('#metric', 'calls');
  const top = await topLevel(page);
  const main = top.find((row) => row[0].startsWith('demo.Main.main'));
  // main: 1 + 1 calls of its own, 10 + 2 of work, 5 + 3 of help in a.jpprof and b.jpprof.
  if (main[1] !== '22') throw new Error(`main's total calls shown as ${main[1]}`);
  const hot = await page.$$eval('#hot tbody tr', (rows) => rows.map((row) => row.cells[6].textContent));
  if (hot[0] !== 'Main.work(int) demo') throw new Error(`first hot method by calls ${hot[0]}`);
  await page.selectOption('#metric', 'bytecodes');
  return `main: total ${main[1]} calls`;
});

await check('the hot-methods table lists methods and sorts by total', async () => {
  await page.click('#tab-hot');
  const rows = () => page.$$eval('#hot tbody tr', (trs) => trs.map((tr) => [...tr.cells].map((td) => td.textContent)));
  const bySelf = await rows();
  if (bySelf.length !== 5) throw new Error(`${bySelf.length} rows`);
  await page.click('#hot th[data-key="total"]');
  const byTotal = await rows();
  const totals = byTotal.map((row) => number(row[2]));
  if (totals.some((value, i) => i > 0 && value > totals[i - 1])) throw new Error(`totals not descending: ${totals}`);
  if (byTotal[0][6] !== 'Main.main(String[]) demo') throw new Error(`first by total ${byTotal[0][6]}`);
  await page.click('#tab-tree');
  noErrors(page);
  return `${bySelf.length} methods; by total first ${byTotal[0][6]}`;
});

await check('frame names and metadata cannot inject markup or script', async () => {
  const evil = 'x.Evil.m</script><img src=x onerror="window.pwned=1"><b>bold</b>()V';
  const profile = join(JP_WORK, 'evil.jpprof');
  writeFileSync(profile, ['jp-profile 1', 'meta agent <img src=y onerror="window.pwned=2">', 'meta command </title><script>window.pwned=3</script>',
    'frame 1 demo.Main.main()V', `frame 2 ${evil}`, 'node 1 0 1 1 5', 'node 2 1 2 3 50', 'end 2', ''].join('\n'));
  const { page: evilPage } = await open(browser, report([profile], 'evil.html'));
  const found = await evilPage.evaluate(() => ({
    pwned: window.pwned, images: document.images.length, bold: document.querySelectorAll('b').length,
    scripts: document.scripts.length, title: document.title,
    names: [...document.querySelectorAll('#tree .name')].map((span) => span.textContent),
  }));
  if (found.pwned !== undefined || found.images || found.bold || found.scripts !== 2) throw new Error(JSON.stringify(found));
  // Not a JVM method name (`.` cannot be in one): split at its last `.`, and shown as text.
  if (!found.names.includes('m</script><img src=x onerror="window.pwned=1"><b>bold</b>() x.Evil')) {
    throw new Error(`names shown: ${JSON.stringify(found.names)}`);
  }
  if (!found.title.startsWith('</title><script>')) throw new Error(`title ${found.title}`);
  noErrors(evilPage);
  await evilPage.close();
  return 'the names are shown as text';
});

await check('names are short with the package muted, and the Names switch shows them in full', async () => {
  const shown = () => page.$$eval('#tree .node > .row .name', (spans) => spans.map((span) => [span.textContent, span.querySelector('.pkg')?.textContent ?? '']));
  const short = await shown();
  if (!short.some(([text, pkg]) => text === 'Main.main(String[]) demo' && pkg === ' demo')) throw new Error(`short names ${JSON.stringify(short)}`);
  const muted = await page.$eval('#tree .pkg', (span) => [getComputedStyle(span).color, getComputedStyle(span.parentElement).color]);
  if (muted[0] === muted[1]) throw new Error(`the package has the name's colour ${muted[0]}`);
  await page.selectOption('#names', 'full');
  const full = await shown();
  if (!full.some(([text, pkg]) => text === 'demo.Main.main(java.lang.String[]):void' && pkg === '')) throw new Error(`full names ${JSON.stringify(full)}`);
  const hot = await page.$$eval('#hot tbody tr', (rows) => rows.map((row) => row.cells[6].textContent));
  if (!hot.includes('demo.Main.work(int):long')) throw new Error(`hot methods in full ${JSON.stringify(hot)}`);
  await page.screenshot({ path: join(JP_WORK, 'html-full-names.png') });
  await page.selectOption('#names', 'short');
  return `${short.map(([text]) => text).join(', ')}; in full: ${full[0][0]}; screenshot html-full-names.png`;
});

await check('the tree works from the keyboard: arrows move, expand and collapse, / searches, Esc goes back', async () => {
  await page.click('#tab-tree');
  const at = () => page.evaluate(() => {
    const node = document.activeElement.closest('.node');
    return node && {
      name: node.querySelector(':scope > .row .name').title, selected: node.getAttribute('aria-selected'),
      expanded: node.getAttribute('aria-expanded'), level: node.getAttribute('aria-level'),
      tabbable: document.querySelectorAll('#tree [tabindex="0"]').length, role: node.getAttribute('role'),
      focused: document.activeElement === node,
      parent: node.parentElement.closest('.node')?.querySelector(':scope > .row .name').title ?? null,
    };
  });
  const owner = 'demo.MainTest.main works twice():void';
  await page.locator('#tree > .node', { hasText: 'MainTest.main works twice()' }).locator('> .row').click();
  // The click toggled it: collapse with ArrowLeft if it is open, then ArrowRight opens it.
  if ((await at()).expanded === 'true') await page.keyboard.press('ArrowLeft');
  const closed = await at();
  await page.keyboard.press('ArrowRight');
  const opened = await at();
  await page.keyboard.press('ArrowRight');
  const child = await at();
  await page.keyboard.press('ArrowLeft');
  const back = await at();
  await page.keyboard.press('ArrowUp');
  const above = await at();
  await page.keyboard.press('ArrowDown');
  const below = await at();
  if (closed.name !== owner || closed.expanded !== 'false' || closed.selected !== 'true' || closed.tabbable !== 1 ||
      closed.role !== 'treeitem' || !closed.focused) throw new Error(`closed ${JSON.stringify(closed)}`);
  if (opened.name !== owner || opened.expanded !== 'true') throw new Error(`opened ${JSON.stringify(opened)}`);
  if (child.parent !== owner || child.level !== '2' || child.selected !== 'true') throw new Error(`child ${JSON.stringify(child)}`);
  if (back.name !== owner || above.name === owner || below.name !== owner || below.tabbable !== 1) {
    throw new Error(`back ${JSON.stringify(back)}, up ${JSON.stringify(above)}, down ${JSON.stringify(below)}`);
  }
  await page.keyboard.press('/');
  const searching = await page.evaluate(() => document.activeElement.id);
  await page.keyboard.type('work');
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => /at 1/.test(document.getElementById('search-status').textContent));
  await page.keyboard.press('Escape');
  const left = await at();
  if (searching !== 'search' || !left || !left.name.startsWith('demo.Main.work(')) throw new Error(`search ${searching}, then ${JSON.stringify(left)}`);
  await page.keyboard.press('Enter');
  const view = await page.evaluate(() => [document.getElementById('view-flame').hidden, document.getElementById('crumbs').textContent]);
  if (view[0] || !view[1].includes('Main.work(int)')) throw new Error(`Enter: flame hidden ${view[0]}, crumbs ${view[1]}`);
  await page.click('#tab-tree');
  await page.fill('#search', '');
  await page.press('#search', 'Enter');
  noErrors(page);
  return `collapsed, expanded, into ${child.name}, back, up to ${above.name}; / then Esc back at ${left.name}; Enter zoomed the graph`;
});

await check('--title names the page and its header', async () => {
  const { page: titled } = await open(browser, report(small, 'titled.html', '--title', 'Checkout <service>'));
  const found = await titled.evaluate(() => [document.title, document.getElementById('title').textContent]);
  if (found[0] !== 'Checkout <service> - JP report' || found[1] !== 'Checkout <service>') throw new Error(JSON.stringify(found));
  await titled.close();
  return JSON.stringify(found);
});

await check('the page follows a dark colour scheme, its graph too', async () => {
  const colours = async (scheme) => {
    const { page: themed } = await open(browser, join(JP_WORK, 'small.html'), { colorScheme: scheme });
    await themed.click('#tab-flame');
    const found = await themed.evaluate(() => {
      const canvas = document.getElementById('flame');
      const pixels = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height).data;
      let sum = 0;
      let painted = 0;
      for (let i = 0; i < pixels.length; i += 4) {
        if (pixels[i + 3] === 0) continue;
        sum += pixels[i] + pixels[i + 1] + pixels[i + 2];
        painted += 1;
      }
      return { background: getComputedStyle(document.documentElement).backgroundColor, text: getComputedStyle(document.body).color, graph: sum / painted / 3 };
    });
    await themed.screenshot({ path: join(JP_WORK, `html-${scheme}.png`) });
    noErrors(themed);
    await themed.close();
    return found;
  };
  const light = await colours('light');
  const dark = await colours('dark');
  if (light.background !== 'rgb(255, 255, 255)' || dark.background !== 'rgb(21, 24, 30)') throw new Error(`backgrounds ${light.background}, ${dark.background}`);
  if (dark.text === light.text || !(dark.graph < light.graph - 40)) throw new Error(`light ${JSON.stringify(light)}, dark ${JSON.stringify(dark)}`);
  return `background ${dark.background}, text ${dark.text}, graph brightness ${light.graph.toFixed(0)} -> ${dark.graph.toFixed(0)}; screenshots html-light.png, html-dark.png`;
});

// A deep generated profile: 100,000 contexts, mean depth about 20, recursion.
const generated = join(JP_WORK, 'deep-100k.jpprof');
execFileSync('python3', [generator, '100000', generated, '--seed', '7']);
const { frames, nodes } = parse(generated);
const minDepth = new Map();
for (const { depth, frame } of nodes) minDepth.set(frame, Math.min(minDepth.get(frame) ?? Infinity, depth));
const [deepFrame, deepest] = [...minDepth].sort((a, b) => b[1] - a[1])[0];
const deepName = fullForm(frames.get(deepFrame));
const meanDepth = nodes.reduce((sum, node) => sum + node.depth, 0) / nodes.length;
let big;

await check('the generated profile is deep: mean depth >= 15, paths beyond 40', () => {
  const beyond = nodes.filter((node) => node.depth > 40).length;
  if (meanDepth < 15 || beyond === 0 || deepest < 25) throw new Error(`mean ${meanDepth}, ${beyond} beyond 40, deepest-only ${deepest}`);
  return `${nodes.length} contexts, mean depth ${meanDepth.toFixed(1)}, ${beyond} beyond depth 40; ${deepName} first occurs at depth ${deepest}`;
});

await check('the 100,000-context page becomes interactive', async () => {
  let ms;
  ({ page: big, ms } = await open(browser, report([generated], 'deep-100k.html')));
  const timings = await big.evaluate(() => window.jpReport);
  const rows = await big.locator('#tree .node').count();
  if (rows === 0 || rows > 5000) throw new Error(`${rows} rows built at first`);
  return `time to interactive ${ms} ms (page: data read in ${timings.parseMs.toFixed(0)} ms, ready after ${timings.readyMs.toFixed(0)} ms), ${rows} rows built`;
});

await check('a long sibling list is built 200 rows at a time', async () => {
  const top = () => big.locator('#tree > .node').count();
  const before = await top();
  const more = big.locator('#tree > button.more');
  if (!(await more.count())) throw new Error(`${before} top-level rows and no show-more button`);
  const label = await more.textContent();
  await more.click();
  const after = await top();
  if (before !== 200 || after <= before || after > 400) throw new Error(`${before} rows, then ${after}`);
  return `${before} rows, "${label}", then ${after}`;
});

await check('search finds a method that only occurs deep, expands its path and highlights it', async () => {
  // The middle of the name as shown, in other case: the search is a case-insensitive substring.
  const query = shortForm(frames.get(deepFrame)).slice(1, -3).toUpperCase();
  await big.fill('#search', query);
  await big.press('#search', 'Enter');
  await big.waitForSelector('#tree .node.current', { timeout: 10_000 });
  const found = await big.evaluate(() => {
    const current = document.querySelector('#tree .node.current');
    let expanded = 0;
    for (let at = current.parentElement; at && at.id !== 'tree'; at = at.parentElement) {
      if (at.classList.contains('node')) {
        if (at.getAttribute('aria-expanded') !== 'true' || at.querySelector(':scope > .kids').hidden) return { closed: true };
        expanded += 1;
      }
    }
    const rect = current.getBoundingClientRect();
    return {
      name: current.querySelector(':scope > .row .name').title,
      mark: current.querySelector(':scope > .row mark')?.textContent,
      expanded, visible: rect.top >= 0 && rect.bottom <= window.innerHeight,
      status: document.getElementById('search-status').textContent,
    };
  });
  if (found.closed) throw new Error('an ancestor of the match is collapsed');
  if (found.name !== deepName) throw new Error(`current match ${found.name}`);
  if (found.mark?.toUpperCase() !== query) throw new Error(`highlighted ${JSON.stringify(found.mark)}`);
  if (found.expanded < deepest - 1) throw new Error(`${found.expanded} ancestors expanded, the match is at depth >= ${deepest}`);
  if (!found.visible) throw new Error('the match is not scrolled into view');
  await big.screenshot({ path: join(JP_WORK, 'html-tree-search.png') });
  return `${found.status}; ${found.expanded} ancestors expanded; screenshot html-tree-search.png`;
});

await check('Enter moves to the next match', async () => {
  // A frame with several contexts: the first in the file.
  const counts = new Map();
  for (const { frame } of nodes) counts.set(frame, (counts.get(frame) || 0) + 1);
  const [frame, many] = [...counts].filter(([, n]) => n > 3 && n < 40)[0];
  const name = fullForm(frames.get(frame));
  await big.fill('#search', name);
  await big.press('#search', 'Enter');
  await big.waitForFunction(() => /\(at 1\)/.test(document.getElementById('search-status').textContent));
  const first = await big.$eval('#tree .node.current', (node) => node.dataset.id);
  await big.press('#search', 'Enter');
  await big.waitForFunction(() => /\(at 2\)/.test(document.getElementById('search-status').textContent));
  const second = await big.$eval('#tree .node.current', (node) => node.dataset.id);
  if (first === second) throw new Error('the same context twice');
  const marks = await big.locator('#tree mark').count();
  if (marks < 2) throw new Error(`${marks} highlighted names`);
  return `${many} contexts of ${name}; ${marks} highlighted`;
});

await check('the flame graph draws on its canvas', async () => {
  await big.fill('#search', '');
  await big.press('#search', 'Enter');
  await big.click('#tab-flame');
  const drawn = await big.evaluate(() => {
    const canvas = document.getElementById('flame');
    const pixels = canvas.getContext('2d').getImageData(0, 0, canvas.width, Math.min(canvas.height, 400)).data;
    let painted = 0;
    for (let i = 3; i < pixels.length; i += 4) if (pixels[i] !== 0) painted += 1;
    return { painted, width: canvas.width, height: canvas.height, css: canvas.style.width };
  });
  if (drawn.painted < drawn.width * 50) throw new Error(JSON.stringify(drawn));
  await big.screenshot({ path: join(JP_WORK, 'html-flame.png') });
  return `${drawn.painted} painted pixels on a ${drawn.width}x${drawn.height} canvas; screenshot html-flame.png`;
});

await check('hovering a frame shows its name, self and total', async () => {
  const box = await big.locator('#flame').boundingBox();
  await big.mouse.move(box.x + 5, box.y + 17 * 1.5);
  await big.waitForSelector('#tooltip:not([hidden])', { timeout: 5000 });
  const text = await big.innerText('#tooltip');
  if (!/total: [\d,]+ bytecodes \([\d.]+% of all\)/.test(text) || !/self: /.test(text) || !text.includes('com.example.')) {
    throw new Error(JSON.stringify(text));
  }
  return JSON.stringify(text.split('\n')[0]);
});

await check('clicking a frame zooms into it, and Reset zoom goes back', async () => {
  const box = await big.locator('#flame').boundingBox();
  const name = (await big.innerText('#tooltip')).split('\n')[0];
  await big.mouse.click(box.x + 5, box.y + 17 * 2.5);
  await big.waitForSelector('#flame-reset', { timeout: 5000 });
  const crumbs = await big.$$eval('#crumbs .crumb', (buttons) => buttons.map((button) => button.textContent));
  // The tooltip: the short name, then the package.
  if (crumbs.length !== 2 || !name.startsWith(`${crumbs[0]} com.example.`)) throw new Error(`crumbs ${JSON.stringify(crumbs)}, hovered ${name}`);
  await big.mouse.move(box.x + box.width - 5, box.y + 17 * 2.5);
  const tip = await big.innerText('#tooltip');
  if (!/of the zoomed frame/.test(tip)) throw new Error(`tooltip when zoomed: ${tip}`);
  await big.screenshot({ path: join(JP_WORK, 'html-flame-zoomed.png') });
  await big.click('#flame-reset');
  if (await big.locator('#flame-reset').count()) throw new Error('still zoomed');
  return `zoomed into ${crumbs.map((crumb) => crumb.split('(')[0]).join(' > ')}; screenshot html-flame-zoomed.png`;
});

await check('the metric switch redraws the graph and renumbers the tree', async () => {
  await big.click('#tab-tree');
  const before = await topLevel(big);
  await big.selectOption('#metric', 'calls');
  const after = await topLevel(big);
  if (before[0][1] === after[0][1]) throw new Error(`first row total ${before[0][1]} in both metrics`);
  // The first row is now the top-level context with the most calls under it.
  const calls = new Map();
  for (const node of nodes) calls.set(node.top, (calls.get(node.top) || 0) + node.calls);
  const [top, most] = [...calls].sort((a, b) => b[1] - a[1])[0];
  if (after[0][0] !== fullForm(frames.get(top)) || number(after[0][1]) !== most) {
    throw new Error(`first row ${after[0][0]} ${after[0][1]}, expected ${fullForm(frames.get(top))} ${most}`);
  }
  await big.click('#tab-flame');
  await big.selectOption('#metric', 'bytecodes');
  return `first row ${before[0][1]} bytecodes -> ${after[0][1]} calls`;
});

await check('the graph is drawn at the device pixel ratio and follows the window size', async () => {
  const { page: sharp } = await open(browser, join(JP_WORK, 'deep-100k.html'), { deviceScaleFactor: 2 });
  await sharp.click('#tab-flame');
  const size = () => sharp.$eval('#flame', (canvas) => [canvas.width, canvas.getBoundingClientRect().width]);
  const [pixels, css] = await size();
  if (Math.abs(pixels - 2 * css) > 2) throw new Error(`${pixels} canvas pixels for ${css} CSS pixels at ratio 2`);
  await sharp.setViewportSize({ width: 900, height: 700 });
  await sharp.waitForFunction((before) => document.getElementById('flame').getBoundingClientRect().width < before - 300, css);
  const [smallerPixels, smallerCss] = await size();
  if (Math.abs(smallerPixels - 2 * smallerCss) > 2) throw new Error(`${smallerPixels} canvas pixels for ${smallerCss} after resizing`);
  noErrors(sharp);
  await sharp.close();
  return `${css} CSS px as ${pixels} canvas px, then ${smallerCss} as ${smallerPixels}`;
});

await check('a threshold report says what it left out', async () => {
  const { page: pruned } = await open(browser, report([generated], 'deep-100k-pruned.html', '--threshold', '0.5'));
  const note = await pruned.innerText('#note');
  if (!/^[\d,]+ contexts left out by --threshold 0.5: /.test(note)) throw new Error(note);
  const rows = await pruned.evaluate(() => window.jpReport.contexts);
  if (rows >= 100_001) throw new Error(`${rows} contexts kept`);
  noErrors(pruned);
  await pruned.close();
  return `${note.split(':')[0]}; ${rows - 1} kept`;
});

await check('no console errors, warnings or exceptions on the 100,000-context page', () => noErrors(big));

await browser.close();
finish();

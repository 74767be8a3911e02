// The HTML report's method views and graph controls in headless Chromium: the back-traces and the
// callers and callees of a method, each count compared with what the jpprof files say (read by
// profiles.mjs, independently of jp); the regex search and its matched share; n/N stepping
// through matches in the graph; the flame/icicle switch. Screenshots go to $JP_WORK.
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { check, finish, launch, noErrors, openReport as open } from './browser.mjs';
import { contexts, generate, readable } from './profiles.mjs';

const { JP, JP_PROFILES, JP_WORK } = process.env;
const SEP = '\0';
const number = (text) => Number(text.replaceAll(',', ''));
const share = (part, whole) => `${((part * 100) / whole).toFixed(1)}%`;

function report(profiles, name) {
  const out = join(JP_WORK, name);
  execFileSync(JP, ['report', ...profiles, '--format', 'html', '--out', out]);
  return out;
}

// Per merged path: its own [calls, bytecodes] and its subtree's.
function withTotals(merged) {
  const paths = [...merged.keys()];
  const totals = new Map();
  for (const path of paths) {
    const sum = [0, 0];
    for (const other of paths) {
      if (other === path || other.startsWith(path + SEP)) {
        sum[0] += merged.get(other)[0];
        sum[1] += merged.get(other)[1];
      }
    }
    totals.set(path, sum);
  }
  return totals;
}
const framesOf = (path) => path.split(SEP);
const last = (path) => framesOf(path).at(-1);

const small = [join(JP_PROFILES, 'a.jpprof'), join(JP_PROFILES, 'b.jpprof')];
const merged = contexts(small);
const totals = withTotals(merged);
const MAIN = 'demo.Main.main([Ljava/lang/String;)V';
const WORK = 'demo.Main.work(I)J';
// The top of a thread, as a caller.
const TOP = '';
const callerOf = (frames) => (frames.length > 1 ? readable(frames.at(-2)) : TOP);

const browser = await launch();
const { page } = await open(browser, report(small, 'views.html'));

// The rows of the back-traces as built: [level, frame title, value, share].
const traceRowsOf = (page) => page.$$eval('#backtraces .node', (nodes) => nodes.filter((node) => node.offsetParent !== null).map((node) => {
  const row = node.firstChild;
  return [Number(node.getAttribute('aria-level')), row.querySelector('.name').title, row.querySelector('.num').textContent, row.querySelector('.pct').textContent];
}));
const traceRows = () => traceRowsOf(page);

await check('back-traces of a method reached by two paths show both paths with their shares, in both metrics', async () => {
  await page.click('#tab-hot');
  await page.locator('#hot tbody tr', { hasText: 'Main.main(String[])' }).click();
  await page.waitForSelector('#view-method:not([hidden]) #backtraces .node');
  // Expected: each context of main (none recursive here), its subtree total, by its caller.
  const reaching = [...merged.keys()].filter((path) => last(path) === MAIN);
  if (reaching.length !== 2) throw new Error(`the profile has ${reaching.length} paths to main`);
  const details = [];
  for (const [metric, index] of [['bytecodes', 1], ['calls', 0]]) {
    await page.selectOption('#metric', metric);
    const whole = reaching.reduce((sum, path) => sum + totals.get(path)[index], 0);
    const expected = reaching.map((path) => [2, callerOf(framesOf(path)), totals.get(path)[index]])
      .sort((a, b) => b[2] - a[2]).map(([level, name, value]) => [level, name, value.toLocaleString('en-US'), share(value, whole)]);
    expected.unshift([1, readable(MAIN), whole.toLocaleString('en-US'), '100.0%']);
    const rows = await traceRows();
    if (JSON.stringify(rows) !== JSON.stringify(expected)) throw new Error(`${metric}: ${JSON.stringify(rows)}, expected ${JSON.stringify(expected)}`);
    details.push(`${metric}: ${rows.slice(1).map((row) => `${row[1].split('(')[0] || 'top of a thread'} ${row[3]}`).join(', ')}`);
  }
  await page.selectOption('#metric', 'bytecodes');
  // From the keyboard: Enter on the test's line expands it to its caller, the top of the thread.
  await page.locator('#backtraces .node[aria-level="2"] > .row', { hasText: 'MainTest' }).focus();
  await page.keyboard.press('Enter');
  const deeper = (await traceRows()).filter((row) => row[0] === 3);
  if (JSON.stringify(deeper) !== JSON.stringify([[3, TOP, '24', '3.0%']])) throw new Error(`after Enter: ${JSON.stringify(deeper)}`);
  await page.screenshot({ path: join(JP_WORK, 'views-callers.png'), fullPage: true });
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.screenshot({ path: join(JP_WORK, 'views-callers-dark.png'), fullPage: true });
  await page.emulateMedia({ colorScheme: 'light' });
  noErrors(page);
  return `${details.join('; ')}; Enter expands a line; screenshots views-callers.png, views-callers-dark.png`;
});

await check('the callers and callees of a method are merged over its contexts with their calls and bytecodes', async () => {
  const table = (id) => page.$$eval(`#${id} tbody tr`, (trs) => trs.map((tr) => [tr.cells[0].textContent, tr.cells[1].textContent, tr.cells[3].title]));
  // Expected from the profile: per caller (or callee) frame, the calls of the contexts of main
  // (or under it) and their subtree bytecodes.
  const expect = (pick) => {
    const rows = new Map();
    for (const path of merged.keys()) {
      const found = pick(framesOf(path));
      if (found === null) continue;
      const row = rows.get(found) || [0, 0, found];
      row[0] += merged.get(path)[0];
      row[1] += totals.get(path)[1];
      rows.set(found, row);
    }
    return [...rows.values()].sort((a, b) => b[1] - a[1]).map(([calls, bytecodes, frame]) => [calls.toLocaleString('en-US'), bytecodes.toLocaleString('en-US'), frame]);
  };
  const callers = expect((frames) => (frames.at(-1) === MAIN ? callerOf(frames) : null));
  const callees = expect((frames) => (frames.at(-2) === MAIN ? readable(frames.at(-1)) : null));
  if (callers.length !== 2) throw new Error(`the profile has ${callers.length} callers of main`);
  const shownCallers = await table('callers');
  const shownCallees = await table('callees');
  if (JSON.stringify(shownCallers) !== JSON.stringify(callers)) throw new Error(`callers ${JSON.stringify(shownCallers)}, expected ${JSON.stringify(callers)}`);
  if (JSON.stringify(shownCallees) !== JSON.stringify(callees)) throw new Error(`callees ${JSON.stringify(shownCallees)}, expected ${JSON.stringify(callees)}`);
  // A callee's row moves the focus to it: main is then its caller.
  await page.click('#callees tbody tr');
  const focused = await page.getAttribute('#method-name', 'title');
  const back = await table('callers');
  if (focused !== readable(WORK) || back[0][2] !== readable(MAIN)) throw new Error(`after the click: ${focused}, callers ${JSON.stringify(back)}`);
  return `callers ${shownCallers.map((row) => `${row[2].split('(')[0] || 'top of a thread'} ${row[0]} calls ${row[1]} bytecodes`).join(', ')}; callees ${shownCallees.map((row) => `${row[2].split('(')[0]} ${row[0]} calls`).join(', ')}`;
});

await check('b on a row of the call tree opens its back-traces', async () => {
  await page.click('#tab-tree');
  const row = page.locator('#tree .node', { has: page.locator(':scope > .row .name', { hasText: 'Main.main(String[])' }) }).first();
  await row.focus();
  await page.keyboard.press('b');
  const title = await page.getAttribute('#method-name', 'title');
  if (!(await page.isVisible('#view-method')) || title !== readable('demo.Main.main([Ljava/lang/String;)V')) throw new Error(`view method ${await page.isVisible('#view-method')}, ${title}`);
  return title;
});

await check('the flame/icicle switch puts the root at the top or at the bottom of the graph', async () => {
  await page.click('#tab-flame');
  const tipAt = async (y) => {
    const box = await page.locator('#flame').boundingBox();
    await page.mouse.move(box.x + 5, box.y + (y < 0 ? box.height + y : y));
    return page.textContent('#tooltip .tip-name');
  };
  const icicleTop = await tipAt(8);
  await page.selectOption('#orientation', 'flame');
  const flameBottom = await tipAt(-8);
  const flameTop = await tipAt(8);
  await page.screenshot({ path: join(JP_WORK, 'views-flame.png') });
  await page.selectOption('#orientation', 'icicle');
  if (icicleTop !== 'all threads' || flameBottom !== 'all threads' || flameTop === 'all threads') throw new Error(`icicle top ${icicleTop}; flame bottom ${flameBottom}, top ${flameTop}`);
  noErrors(page);
  return `icicle: root at the top; flame: root at the bottom, ${flameTop} at the top; screenshot views-flame.png`;
});

// The regex search on a generated profile of a few thousand contexts, with recursion.
const generated = join(JP_WORK, 'generated.jpprof');
generate(generated);
const many = contexts([generated]);
const { page: big } = await open(browser, report([generated], 'views-generated.html'));
const PATTERN = '\\.m1\\d\\(|Odd';
const matcher = new RegExp(PATTERN, 'i');

await check('a regex search counts its matching contexts and the share they hold, nested matches once', async () => {
  await big.check('#regex');
  await big.fill('#search', PATTERN);
  await big.press('#search', 'Enter');
  await big.waitForFunction(() => /\(at 1\)/.test(document.getElementById('search-status').textContent));
  const status = await big.textContent('#search-status');
  // Independently: a context matches by its own frame; the matched bytecodes are the own bytecodes
  // of every context with a match anywhere on its path.
  const paths = [...many.keys()];
  const matching = paths.filter((path) => matcher.test(last(path))).length;
  let matched = 0;
  let all = 0;
  for (const path of paths) {
    all += many.get(path)[1];
    if (framesOf(path).some((frame) => matcher.test(frame))) matched += many.get(path)[1];
  }
  const nested = paths.filter((path) => matcher.test(last(path)) && framesOf(path).slice(0, -1).some((frame) => matcher.test(frame))).length;
  const wanted = `${matching.toLocaleString('en-US')} contexts match, ${share(matched, all)} of bytecodes (${matched.toLocaleString('en-US')})`;
  if (!status.startsWith(wanted)) throw new Error(`status ${JSON.stringify(status)}, expected it to start with ${JSON.stringify(wanted)}`);
  if (nested === 0) throw new Error('no nested matches: the check would not tell');
  const marks = await big.$$eval('#tree mark', (list) => list.map((mark) => mark.textContent));
  if (!marks.length || !marks.every((text) => matcher.test(text))) throw new Error(`marks ${JSON.stringify(marks.slice(0, 5))}`);
  await big.screenshot({ path: join(JP_WORK, 'views-regex.png') });
  return `${status}; ${nested} matches nested in others; screenshot views-regex.png`;
});

await check('an invalid regex says so', async () => {
  await big.fill('#search', 'm1(');
  await big.press('#search', 'Enter');
  const status = await big.textContent('#search-status');
  if (status !== 'not a regular expression') throw new Error(`status ${JSON.stringify(status)}`);
  await big.fill('#search', PATTERN);
  await big.press('#search', 'Enter');
  return status;
});

// Opens method `name` (a jpprof frame) in the Callers view: searched for, then b on its row.
async function openByKey(name) {
  await big.uncheck('#regex');
  await big.click('#tab-tree');
  await big.fill('#search', `.${name.split('.').at(-1).split('(')[0]}(`);
  await big.press('#search', 'Enter');
  await big.locator('#tree .node.current').focus();
  await big.keyboard.press('b');
  const title = await big.getAttribute('#method-name', 'title');
  if (title !== readable(name)) throw new Error(`b opened ${title}, not ${readable(name)}`);
}

// The back-traces expected from the profile: the contexts of `name` with no call of it above
// them, their subtree bytecodes grouped by the caller `levels` frames out ('' for the top of a
// thread) among those whose callers nearer out are `through`; sorted as the page sorts them.
function expectedTraces(name, manyTotals, through, levels) {
  const groups = new Map();
  for (const path of many.keys()) {
    const frames = framesOf(path);
    if (frames.at(-1) !== name || frames.slice(0, -1).includes(name)) continue;
    const callers = frames.slice(0, -1).reverse().map(readable);
    if (through.some((caller, i) => (callers[i] ?? TOP) !== caller)) continue;
    const key = callers[levels - 1] ?? TOP;
    groups.set(key, (groups.get(key) || 0) + manyTotals.get(path)[1]);
  }
  return [...groups].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
}

await check('back-traces two levels out of the method with the most contexts, and of a recursive method', async () => {
  const manyTotals = withTotals(many);
  const contextsBy = new Map();
  for (const path of many.keys()) contextsBy.set(last(path), (contextsBy.get(last(path)) || 0) + 1);
  // Of the methods of the random walk (not those of the recursion).
  const recursive = 'gen.p1.C1.m1(IJ)V';
  const busiest = [...contextsBy].filter(([name]) => !name.startsWith('gen.p1.C1.m1(') && !name.startsWith('gen.p2.C2.m2('))
    .sort((a, b) => b[1] - a[1])[0][0];
  await openByKey(busiest);
  const shown = (level) => big.$$eval('#backtraces .node', (nodes, wanted) => nodes
    .filter((node) => node.offsetParent !== null && Number(node.getAttribute('aria-level')) === wanted)
    .map((node) => [node.firstChild.querySelector('.name').title, Number(node.firstChild.querySelector('.num').textContent.replaceAll(',', ''))]), level);
  const second = expectedTraces(busiest, manyTotals, [], 1);
  const first = [[readable(busiest), second.reduce((sum, [, value]) => sum + value, 0)]];
  if (second.length < 2) throw new Error(`${readable(busiest)} has ${second.length} callers: the check would not tell`);
  if (JSON.stringify(await shown(1)) !== JSON.stringify(first)) throw new Error(`root ${JSON.stringify(await shown(1))}, expected ${JSON.stringify(first)}`);
  if (JSON.stringify(await shown(2)) !== JSON.stringify(second)) throw new Error(`callers ${JSON.stringify(await shown(2))}, expected ${JSON.stringify(second)}`);
  const out = second.find(([caller]) => caller !== TOP)[0];
  await big.locator('#backtraces .node[aria-level="2"] > .row', { has: big.locator(`.name[title="${out}"]`) }).click();
  const third = expectedTraces(busiest, manyTotals, [out], 2);
  if (JSON.stringify(await shown(3)) !== JSON.stringify(third)) throw new Error(`callers of ${out}: ${JSON.stringify(await shown(3))}, expected ${JSON.stringify(third)}`);
  await big.screenshot({ path: join(JP_WORK, 'views-backtraces.png') });
  // The recursion 300 deep alternates two methods: only the outermost call of each counts.
  await openByKey(recursive);
  const outer = expectedTraces(recursive, manyTotals, [], 1);
  const rows = await traceRowsOf(big);
  const wanted = [[1, readable(recursive), outer[0][1].toLocaleString('en-US'), '100.0%'], [2, TOP, outer[0][1].toLocaleString('en-US'), '100.0%']];
  if (outer.length !== 1 || outer[0][0] !== TOP) throw new Error(`the recursion's outermost calls: ${JSON.stringify(outer)}`);
  if (JSON.stringify(rows) !== JSON.stringify(wanted)) throw new Error(`recursive: ${JSON.stringify(rows)}, expected ${JSON.stringify(wanted)}`);
  noErrors(big);
  return `${readable(busiest)}: ${first[0][1]} bytecodes from ${second.length} callers, ${third.length} callers of ${out.split('(')[0]}; ${readable(recursive)}: ${outer[0][1]} once; screenshot views-backtraces.png`;
});

await big.check('#regex');
await big.fill('#search', PATTERN);
await big.press('#search', 'Enter');

await check('n and N step through the matches in the graph, which zooms to show each', async () => {
  await big.click('#tab-flame');
  const at = () => big.textContent('#search-status').then((text) => /\(at ([\d,]+)\)/.exec(text)[1]);
  const canvas = () => big.evaluate(() => document.getElementById('flame').toDataURL());
  const steps = [await at()];
  const drawn = [await canvas()];
  for (const key of ['n', 'n', 'N']) {
    await big.keyboard.press(key);
    steps.push(await at());
    drawn.push(await canvas());
  }
  if (steps.join() !== '1,2,3,2') throw new Error(`steps ${steps}`);
  // The outline moves with each step, and comes back with N.
  if (drawn[1] === drawn[0] || drawn[2] === drawn[1] || drawn[3] !== drawn[1]) throw new Error('the graph does not follow the steps');
  const crumbs = await big.$$eval('#crumbs .crumb', (list) => list.length);
  await big.screenshot({ path: join(JP_WORK, 'views-flame-step.png') });
  // b opens the callers of the match stepped to.
  const current = await big.evaluate(() => document.querySelector('#tree .node.current > .row .name').title);
  await big.keyboard.press('b');
  const opened = await big.getAttribute('#method-name', 'title');
  if (!(await big.isVisible('#view-method')) || opened !== current) throw new Error(`b opened ${opened}, the match is ${current}`);
  noErrors(big);
  return `at ${steps.join(' -> ')}; the graph zoomed ${crumbs} levels; b opened ${opened}; screenshot views-flame-step.png`;
});

await browser.close();
finish();

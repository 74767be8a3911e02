// The Tests view of `jp report --format html` in headless Chromium, on a written profile of a test
// run: three tests (one parameterized, with two invocations), a class-level context and a worker
// thread. The view lists the tests ranked by bytecodes and by calls, a click on a test shows its own
// call tree and focuses the flame graph on it, test frames show as badges and test ids in the tree,
// and search still finds them. Also: the folded report keeps each test frame first, with the `;` of
// a display name escaped, and a profile without tests has no Tests tab.
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { check, finish, launch, noErrors, openReport } from './browser.mjs';

const { JP, JP_PROFILES, JP_WORK } = process.env;

function report(profiles, name, ...flags) {
  const out = join(JP_WORK, name);
  execFileSync(JP, ['report', ...profiles, '--out', out, ...flags]);
  return out;
}

// [path of frames, calls, bytecodes]; the totals below follow from it.
const contexts = [
  [['[test] demo.ParserTest', 'demo.Parser.<clinit>()V'], 1, 30],
  [['[test] demo.ParserTest#large()', 'demo.Parser.parse(Ljava/lang/String;)I'], 2, 900],
  [['[test] demo.ParserTest#large()', 'demo.Parser.parse(Ljava/lang/String;)I', 'demo.Lexer.next()I'], 50, 400],
  [['[test] demo.ParserTest#small()', 'demo.Parser.parse(Ljava/lang/String;)I'], 1, 40],
  [['[test] demo.ParserTest#small()', 'demo.Lexer.next()I'], 70, 60],
  [['[test] demo.ParserTest#parses(String) > [1] "a;b"', 'demo.Parser.parse(Ljava/lang/String;)I'], 1, 150],
  [['[test] demo.ParserTest#parses(String) > [2] "c"', 'demo.Parser.parse(Ljava/lang/String;)I'], 1, 110],
  [['[test] demo.ParserTest#parses(String) > [2] "c"', 'demo.Parser.parse(Ljava/lang/String;)I', 'demo.Lexer.next()I'], 3, 20],
  [['demo.Worker.run()V'], 1, 500],
];
// test id, calls, bytecodes; by bytecodes, then by calls.
const byBytecodes = [
  ['demo.ParserTest#large()', 52, 1300],
  ['demo.ParserTest#parses(String) > [2] "c"', 4, 130],
  ['demo.ParserTest#parses(String) > [1] "a;b"', 1, 150],
  ['demo.ParserTest#small()', 71, 100],
  ['demo.ParserTest', 1, 30],
].sort((a, b) => b[2] - a[2] || (a[0] < b[0] ? -1 : 1));
const byCalls = [...byBytecodes].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));

function writeProfile(path, contexts) {
  const frames = new Map();
  const nodes = new Map();
  const lines = ['jp-profile 1', 'meta agent default'];
  const records = [];
  for (const [path, calls, bytecodes] of contexts) {
    let parent = 0;
    path.forEach((name, index) => {
      if (!frames.has(name)) {
        frames.set(name, frames.size + 1);
        lines.push(`frame ${frames.size} ${name}`);
      }
      const key = `${parent} ${frames.get(name)}`;
      if (!nodes.has(key)) {
        nodes.set(key, { id: nodes.size + 1, parent, frame: frames.get(name), calls: 0, bytecodes: 0 });
        records.push(nodes.get(key));
      }
      const node = nodes.get(key);
      if (index === path.length - 1) Object.assign(node, { calls, bytecodes });
      parent = node.id;
    });
  }
  for (const node of records) lines.push(`node ${node.id} ${node.parent} ${node.frame} ${node.calls} ${node.bytecodes}`);
  lines.push(`end ${records.length}`, '');
  writeFileSync(path, lines.join('\n'));
}

const profile = join(JP_WORK, 'tests.jpprof');
writeProfile(profile, contexts);
const browser = await launch();
const { page } = await openReport(browser, report([profile], 'tests.html', '--format', 'html'));

// The rows of the tests table: [rank, bytecodes, calls, badge, test id].
const testRows = () => page.$$eval('#tests tbody tr', (rows) => rows.map((row) => {
  const cells = [...row.cells];
  const badge = cells[5].querySelector('.badge').textContent;
  return [cells[0].textContent, cells[1].textContent, cells[3].textContent, badge, cells[5].textContent.slice(badge.length)];
}));
const expectRows = (rows, order, key) => {
  order.forEach(([id, calls, bytecodes], index) => {
    const wanted = [String(index + 1), bytecodes.toLocaleString('en-US'), calls.toLocaleString('en-US'), id.includes('#') ? 'test' : 'test class', id];
    if (JSON.stringify(rows[index]) !== JSON.stringify(wanted)) {
      throw new Error(`by ${key}, row ${index + 1} is ${JSON.stringify(rows[index])}, expected ${JSON.stringify(wanted)}`);
    }
  });
  if (rows.length !== order.length) throw new Error(`${rows.length} rows`);
};

await check('the Tests view lists every test and the class-level context, ranked by bytecodes', async () => {
  await page.click('#tab-tests');
  const rows = await testRows();
  expectRows(rows, byBytecodes, 'bytecodes');
  await page.screenshot({ path: join(JP_WORK, 'html-tests.png') });
  return `${rows.map((row) => `${row[0]}. ${row[4]} (${row[1]})`).join(', ')}; screenshot html-tests.png`;
});

await check('clicking calls ranks the tests by calls', async () => {
  await page.click('#tests th[data-key="calls"]');
  expectRows(await testRows(), byCalls, 'calls');
  await page.click('#tests th[data-key="bytecodes"]');
  return `first by calls: ${byCalls[0][0]}`;
});

await check('clicking a test shows its own call tree', async () => {
  const invocation = 'demo.ParserTest#parses(String) > [2] "c"';
  await page.locator('#tests tbody tr', { hasText: invocation }).click();
  await page.waitForSelector('#view-tree:not([hidden]) #tree-scope:not([hidden])', { timeout: 5000 });
  const tree = await page.evaluate(() => ({
    scope: document.getElementById('tree-scope-name').textContent,
    top: [...document.querySelectorAll('#tree > .node > .row .name')].map((name) => name.title),
    total: document.querySelector('#tree > .node > .row .num').textContent,
    kids: [...document.querySelectorAll('#tree > .node > .kids .node > .row .name')].map((name) => name.textContent),
  }));
  if (tree.scope !== `Call tree of test ${invocation}`) throw new Error(`scope line ${JSON.stringify(tree.scope)}`);
  if (tree.top.length !== 1 || tree.top[0] !== `[test] ${invocation}` || tree.total !== '130') throw new Error(JSON.stringify(tree));
  if (JSON.stringify(tree.kids) !== JSON.stringify(['Parser.parse(String) demo', 'Lexer.next() demo'])) {
    throw new Error(`the test's tree holds ${JSON.stringify(tree.kids)}`);
  }
  await page.screenshot({ path: join(JP_WORK, 'html-test-tree.png') });
  return `${tree.scope}: ${tree.kids.join(' > ')}; screenshot html-test-tree.png`;
});

await check('the flame graph is focused on the clicked test', async () => {
  await page.click('#tab-flame');
  const crumbs = await page.$$eval('#crumbs .crumb', (buttons) => buttons.map((button) => button.title));
  if (JSON.stringify(crumbs) !== JSON.stringify(['test demo.ParserTest#parses(String) > [2] "c"'])) throw new Error(`crumbs ${JSON.stringify(crumbs)}`);
  const box = await page.locator('#flame').boundingBox();
  await page.mouse.move(box.x + box.width / 2, box.y + 17 * 1.5);
  await page.waitForSelector('#tooltip:not([hidden])', { timeout: 5000 });
  const tip = await page.innerText('#tooltip');
  if (!tip.startsWith('test demo.ParserTest#parses(String) > [2] "c"\ntotal: 130 bytecodes')) throw new Error(JSON.stringify(tip));
  await page.screenshot({ path: join(JP_WORK, 'html-test-flame.png') });
  return `${JSON.stringify(tip.split('\n')[0])}; screenshot html-test-flame.png`;
});

await check('"Show the whole profile" goes back to every top-level context, tests shown with a badge', async () => {
  await page.click('#tab-tree');
  await page.click('#tree-all');
  const top = await page.$$eval('#tree > .node > .row .name', (spans) => spans.map((span) => span.textContent));
  if (top.length !== 6 || !(await page.isHidden('#tree-scope'))) throw new Error(`top level ${JSON.stringify(top)}`);
  if (top.some((text) => text.includes('[test]'))) throw new Error(`a raw test frame is shown: ${JSON.stringify(top)}`);
  if (!top.includes('test classdemo.ParserTest') || !top.includes('testdemo.ParserTest#large()')) throw new Error(JSON.stringify(top));
  return JSON.stringify(top);
});

await check('search finds a test by its display name and marks it', async () => {
  await page.fill('#search', '"a;b"');
  await page.press('#search', 'Enter');
  await page.waitForSelector('#tree .node.current', { timeout: 5000 });
  const found = await page.evaluate(() => ({
    name: document.querySelector('#tree .node.current > .row .name').title,
    mark: document.querySelector('#tree .node.current > .row mark')?.textContent,
    status: document.getElementById('search-status').textContent,
  }));
  if (found.name !== '[test] demo.ParserTest#parses(String) > [1] "a;b"' || found.mark !== '"a;b"') throw new Error(JSON.stringify(found));
  await page.fill('#search', '');
  await page.press('#search', 'Enter');
  return found.status;
});

await check('searching in a test\'s tree finds only what ran in that test', async () => {
  await page.click('#tab-tests');
  await page.locator('#tests tbody tr', { hasText: 'demo.ParserTest#small()' }).click();
  await page.fill('#search', 'Lexer.next');
  await page.press('#search', 'Enter');
  await page.waitForSelector('#tree .node.current', { timeout: 5000 });
  const status = await page.innerText('#search-status');
  // Lexer.next has three contexts, one of them in small().
  if (!status.startsWith('1 context matches')) throw new Error(status);
  noErrors(page);
  return status;
});

await check('the folded report keeps each test frame first, its ";" escaped', () => {
  const folded = execFileSync(JP, ['report', profile, '--format', 'folded'], { encoding: 'utf8' });
  const line = folded.split('\n').find((text) => text.includes('[1]'));
  const wanted = '[test] demo.ParserTest#parses(String) > [1] "a\\u{3b}b";demo.Parser.parse(java.lang.String):int 150';
  if (line !== wanted) throw new Error(JSON.stringify(line));
  const stacks = folded.trim().split('\n').map((text) => text.slice(0, text.lastIndexOf(' ')).split(';'));
  const tests = stacks.filter((frames) => frames[0].startsWith('[test] '));
  if (tests.length !== 8 || stacks.some((frames) => frames.slice(1).some((frame) => frame.startsWith('[test]')))) throw new Error(folded);
  return `${tests.length} of ${stacks.length} stacks start with a test frame`;
});

await check('a profile without tests has no Tests tab', async () => {
  const { page: plain } = await openReport(browser, report([join(JP_PROFILES, 'a.jpprof')], 'plain.html', '--format', 'html'));
  if (!(await plain.isHidden('#tab-tests'))) throw new Error('a Tests tab is shown');
  noErrors(plain);
  await plain.close();
});

await check('no console errors, warnings or exceptions on the Tests page', () => noErrors(page));

await check('a run of 450 tests is listed 200 rows at a time, by bytecodes', async () => {
  const many = [];
  for (let i = 0; i < 450; i++) many.push([[`[test] demo.ManyTest#t${i}()`, `demo.Work.run${i % 7}()V`], 1 + (i % 13), 1000 + i]);
  const file = join(JP_WORK, 'many-tests.jpprof');
  writeProfile(file, many);
  const { page: big, ms } = await openReport(browser, report([file], 'many-tests.html', '--format', 'html'));
  await big.click('#tab-tests');
  const rows = () => big.locator('#tests tbody tr').count();
  const before = await rows();
  const label = await big.textContent('#tests-more');
  await big.click('#tests-more');
  const after = await rows();
  const first = await big.$eval('#tests tbody tr', (tr) => tr.cells[5].textContent);
  if (before !== 200 || after !== 400 || first !== 'testdemo.ManyTest#t449()') throw new Error(`${before} rows, then ${after}; first ${first}`);
  noErrors(big);
  await big.close();
  return `ready in ${ms} ms; ${before} rows, "${label}", then ${after}`;
});

await browser.close();
finish();

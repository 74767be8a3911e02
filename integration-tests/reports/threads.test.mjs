// The thread switch of `jp report --format html` in headless Chromium, on a written profile of
// format version 3 with three thread groups: the switch lists every group with its threads and
// shares, a group shows its own contexts alone in the tree, the hot methods, the callers and the
// search, and "all threads" brings back the merged view. A profile of one group has no switch, and
// `jp report --thread` gives the same group's contexts in the folded format.
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { check, finish, launch, noErrors, openReport } from './browser.mjs';

const { JP, JP_WORK } = process.env;

const MAIN = 'demo.Main.main([Ljava/lang/String;)V';
const WORK = 'demo.Main.work(I)J';
const PARSE = 'demo.Parser.parse(Ljava/lang/String;)I';
const LOAD = 'demo.Loader.load()V';
// Per group: [name, threads, [path of frames, calls, bytecodes]...]. `work` runs in two groups,
// under `main` on the main thread and at the top of the pool's threads.
const groups = [
  ['main', 1, [[[MAIN], 1, 42], [[MAIN, WORK], 10, 5230], [[MAIN, WORK, PARSE], 10, 700]]],
  ['pool-#-thread-#', 4, [[[WORK], 40, 20920], [[WORK, PARSE], 40, 2800]]],
  ['loader-#', 1, [[[LOAD], 1, 90], [[LOAD, PARSE], 2, 140]]],
];

function writeProfile(path) {
  const frames = [MAIN, WORK, PARSE, LOAD];
  const lines = ['jp-profile 3', 'meta agent default', 'meta threads 6'];
  frames.forEach((name, index) => lines.push(`frame ${index + 1} ${name}`));
  let id = 0;
  for (const [name, threads, contexts] of groups) {
    lines.push(`thread ${threads} ${name}`);
    const ids = new Map();
    for (const [frames_, calls, bytecodes] of contexts) {
      const parent = frames_.length === 1 ? 0 : ids.get(frames_.slice(0, -1).join(';'));
      id += 1;
      ids.set(frames_.join(';'), id);
      lines.push(`node ${id} ${parent} ${frames.indexOf(frames_.at(-1)) + 1} ${calls} ${bytecodes}`);
    }
  }
  lines.push(`end ${id}`, '');
  writeFileSync(path, lines.join('\n'));
}

function report(profile, name, ...flags) {
  const out = join(JP_WORK, name);
  execFileSync(JP, ['report', profile, '--out', out, ...flags]);
  return out;
}

const profile = join(JP_WORK, 'threads.jpprof');
writeProfile(profile);
const browser = await launch();
const { page } = await openReport(browser, report(profile, 'threads.html', '--format', 'html'));

// The names as the page's titles give them (the full form).
const shown = { [MAIN]: 'demo.Main.main(java.lang.String[]):void', [WORK]: 'demo.Main.work(int):long', [PARSE]: 'demo.Parser.parse(java.lang.String):int', [LOAD]: 'demo.Loader.load():void' };
const topLevel = () => page.$$eval('#tree > .node > .row', (rows) => rows.map((row) => [row.querySelector('.name').title, row.querySelector('.num').textContent]));
const hotRows = () => page.$$eval('#hot tbody tr', (rows) => rows.map((row) => [row.cells[6].title, row.cells[0].textContent]));
const pick = async (label) => {
  const value = await page.$eval('#thread', (select, wanted) => [...select.options].find((option) => option.text.startsWith(wanted)).value, label);
  await page.selectOption('#thread', value);
};

await check('the switch lists every thread, then each group with its threads and shares, largest first', async () => {
  if (await page.isHidden('#thread-box')) throw new Error('no thread switch');
  const options = await page.$$eval('#thread option', (list) => list.map((option) => option.text));
  const wanted = [
    'all threads (7 contexts)',
    'pool-#-thread-# (4 threads; 79.3% of bytecodes, 76.9% of calls)',
    'main (1 thread; 20.0% of bytecodes, 20.2% of calls)',
    'loader-# (1 thread; 0.8% of bytecodes, 2.9% of calls)',
  ];
  if (JSON.stringify(options) !== JSON.stringify(wanted)) throw new Error(JSON.stringify(options));
  const top = await topLevel();
  if (JSON.stringify(top) !== JSON.stringify([[shown[WORK], '23,720'], [shown[MAIN], '5,972'], [shown[LOAD], '230']])) throw new Error(`merged top level ${JSON.stringify(top)}`);
  return options.join(' | ');
});

await check('a group alone: its own top-level contexts, totals and hot methods', async () => {
  await pick('main');
  const top = await topLevel();
  if (JSON.stringify(top) !== JSON.stringify([[shown[MAIN], '5,972']])) throw new Error(`top level ${JSON.stringify(top)}`);
  await page.click('#tab-hot');
  const hot = await hotRows();
  const wanted = [[shown[WORK], '5,230'], [shown[PARSE], '700'], [shown[MAIN], '42']];
  if (JSON.stringify(hot) !== JSON.stringify(wanted)) throw new Error(`hot methods ${JSON.stringify(hot)}`);
  const share = await page.$eval('#hot tbody tr', (row) => row.cells[1].textContent);
  if (share !== '87.6%') throw new Error(`work's share of the group ${share}`);
  await page.screenshot({ path: join(JP_WORK, 'html-thread-main.png') });
  return `${hot.map(([name, value]) => `${name} ${value}`).join(', ')}; screenshot html-thread-main.png`;
});

await check('the callers of a method in a group are that group\'s callers alone', async () => {
  await pick('loader-#');
  await page.click('#tab-hot');
  await page.locator('#hot tbody tr', { hasText: 'Parser.parse' }).click();
  await page.waitForSelector('#view-method:not([hidden]) #method-body:not([hidden])', { timeout: 5000 });
  const callers = await page.$$eval('#callers tbody tr', (rows) => rows.map((row) => [row.cells[0].textContent, row.cells[3].textContent]));
  if (JSON.stringify(callers) !== JSON.stringify([['2', 'Loader.load() demo']])) throw new Error(JSON.stringify(callers));
  return JSON.stringify(callers);
});

await check('search counts the matches of the group shown, and all threads bring the merged view back', async () => {
  await page.click('#tab-tree');
  await page.fill('#search', 'Parser.parse');
  await page.press('#search', 'Enter');
  await page.waitForSelector('#tree .node.current', { timeout: 5000 });
  const inLoader = await page.innerText('#search-status');
  if (!inLoader.startsWith('1 context matches, 60.9% of bytecodes (140)')) throw new Error(`in loader-#: ${inLoader}`);
  await page.selectOption('#thread', '-1');
  await page.waitForSelector('#tree .node.current', { timeout: 5000 });
  const inAll = await page.innerText('#search-status');
  if (!inAll.startsWith('3 contexts match, 12.2% of bytecodes (3,640)')) throw new Error(`in all threads: ${inAll}`);
  const top = await topLevel();
  if (top.length !== 3) throw new Error(`merged top level ${JSON.stringify(top)}`);
  noErrors(page);
  return `${inLoader} | ${inAll}`;
});

await check('the flame graph of a group draws its contexts alone', async () => {
  await page.fill('#search', '');
  await page.press('#search', 'Enter');
  await pick('pool-#-thread-#');
  await page.click('#tab-flame');
  const box = await page.locator('#flame').boundingBox();
  await page.mouse.move(box.x + box.width / 2, box.y + 17 * 1.5);
  await page.waitForSelector('#tooltip:not([hidden])', { timeout: 5000 });
  const tip = await page.innerText('#tooltip');
  if (!tip.startsWith('Main.work(int)') || !tip.includes('\ntotal: 23,720 bytecodes (100.0% of all)')) throw new Error(JSON.stringify(tip));
  const root = await page.evaluate(() => window.jpReport.rootLabel());
  if (root !== 'pool-#-thread-#') throw new Error(`the graph's root is labelled ${root}`);
  await page.screenshot({ path: join(JP_WORK, 'html-thread-flame.png') });
  noErrors(page);
  return `${JSON.stringify(tip.split('\n').slice(0, 2).join(' / '))}; screenshot html-thread-flame.png`;
});

await check('jp report --thread gives the group\'s contexts alone', () => {
  const folded = execFileSync(JP, ['report', profile, '--format', 'folded', '--thread', 'pool-#-thread-#'], { encoding: 'utf8' });
  const wanted = 'demo.Main.work(int):long 20920\ndemo.Main.work(int):long;demo.Parser.parse(java.lang.String):int 2800\n';
  if (folded !== wanted) throw new Error(JSON.stringify(folded));
  return folded.trim().split('\n').join(' | ');
});

await check('a profile of one thread group has no switch', async () => {
  const one = join(JP_WORK, 'one.jpprof');
  writeFileSync(one, `jp-profile 3\nframe 1 ${MAIN}\nthread 1 main\nnode 1 0 1 1 5\nend 1\n`);
  const { page: single } = await openReport(browser, report(one, 'one.html', '--format', 'html'));
  if (!(await single.isHidden('#thread-box'))) throw new Error('a thread switch is shown');
  noErrors(single);
  await single.close();
});

await browser.close();
finish();

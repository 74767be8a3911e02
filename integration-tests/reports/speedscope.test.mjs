// `jp report --format speedscope`: the files validate against the schema that the speedscope
// package publishes, hold the profile's values, and load in the speedscope app itself (served from
// node_modules/speedscope/dist/release on 127.0.0.1) in headless Chromium, with both profiles
// selectable and the frames listed in the Sandwich view. `jp report --format folded` goes through
// speedscope's own importer of collapsed stacks: every frame arrives whole, named as docs/cli.md
// says, with the profile's self values. Screenshots go to $JP_WORK.
import { execFileSync } from 'node:child_process';
import { createReadStream, readFileSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import { dirname, extname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';
import Ajv from 'ajv';
import { check, finish, launch, openPage } from './browser.mjs';
import { contexts, generate, ODD, readable } from './profiles.mjs';

const { JP, JP_PROFILES, JP_WORK } = process.env;
const app = join(dirname(fileURLToPath(import.meta.url)), 'node_modules/speedscope/dist/release');
const schema = JSON.parse(readFileSync(join(app, 'file-format-schema.json'), 'utf8'));
const validate = new Ajv({ allErrors: true }).compile(schema);

function report(profiles, out, ...flags) {
  execFileSync(JP, ['report', ...profiles, '--format', 'speedscope', '--out', out, ...flags]);
  return JSON.parse(readFileSync(out, 'utf8'));
}

function folded(profiles, out) {
  execFileSync(JP, ['report', ...profiles, '--format', 'folded', '--metric', 'bytecodes', '--out', out]);
}

function valid(file) {
  if (!validate(file)) throw new Error(JSON.stringify(validate.errors.slice(0, 3)));
}

// Replays one evented profile: path -> own value (its span less its children's), for the
// contexts with a value of their own; throws when events do not nest or go back in time.
function ownValues(file, index) {
  const names = file.shared.frames.map((frame) => frame.name);
  const { events, endValue } = file.profiles[index];
  const stack = [];
  const own = new Map();
  let last = 0;
  for (const { type, frame, at } of events) {
    if (at < last) throw new Error(`event at ${at} after ${last}`);
    last = at;
    if (type === 'O') {
      stack.push({ frame, at, inner: 0 });
      continue;
    }
    const key = stack.map((open) => names[open.frame]).join('\0');
    const open = stack.pop();
    if (!open || open.frame !== frame) throw new Error(`closes ${names[frame]}, not the top frame`);
    if (at - open.at - open.inner > 0) own.set(key, at - open.at - open.inner);
    if (stack.length) stack[stack.length - 1].inner += at - open.at;
  }
  if (stack.length || last !== endValue) throw new Error(`ends at ${last} with ${stack.length} open, endValue ${endValue}`);
  return own;
}

// Compares own values with the profile's, per metric (0 calls, 1 bytecodes).
function sameValues(file, index, expected, metric) {
  const own = ownValues(file, index);
  const wanted = [...expected].filter(([, values]) => values[metric] > 0);
  if (own.size !== wanted.length) throw new Error(`${own.size} contexts with a value, expected ${wanted.length}`);
  for (const [path, values] of wanted) {
    if (own.get(path) !== values[metric]) {
      throw new Error(`${path.replaceAll('\0', ';')}: ${own.get(path)}, expected ${values[metric]}`);
    }
  }
  return `${own.size} contexts`;
}

const small = [join(JP_PROFILES, 'a.jpprof'), join(JP_PROFILES, 'b.jpprof')];
const generated = join(JP_WORK, 'generated.jpprof');
generate(generated);
let smallFile;
let bigFile;

await check('a.jpprof + b.jpprof export validates against the speedscope schema', () => {
  smallFile = report(small, join(JP_WORK, 'a.speedscope.json'));
  valid(smallFile);
  const names = smallFile.profiles.map((profile) => `${profile.name}:${profile.type}`).join(', ');
  if (names !== 'bytecodes:evented, calls:evented') throw new Error(`profiles ${names}`);
  if (smallFile.activeProfileIndex !== 0) throw new Error(`activeProfileIndex ${smallFile.activeProfileIndex}`);
  return `${smallFile.shared.frames.length} frames, profiles ${names}`;
});

await check('a.jpprof + b.jpprof export holds the merged own values of both metrics', () => {
  const expected = contexts(small);
  return `calls ${sameValues(smallFile, 1, expected, 0)}, bytecodes ${sameValues(smallFile, 0, expected, 1)}`;
});

await check('a generated profile of 3000 contexts exports valid, with its values and names', () => {
  bigFile = report([generated], join(JP_WORK, 'generated.speedscope.json'));
  valid(bigFile);
  const expected = contexts([generated]);
  if (!bigFile.shared.frames.some((frame) => frame.name === ODD)) throw new Error('the odd name is lost');
  if (bigFile.name !== 'gen.Main --generated') throw new Error(`name ${bigFile.name}`);
  return `calls ${sameValues(bigFile, 1, expected, 0)}, bytecodes ${sameValues(bigFile, 0, expected, 1)}`;
});

await check('--metric calls --threshold --max-depth export validates and shows calls first', () => {
  const file = report([generated], join(JP_WORK, 'pruned.speedscope.json'), '--metric', 'calls', '--threshold', '0.5', '--max-depth', '8');
  valid(file);
  if (file.activeProfileIndex !== 1) throw new Error(`activeProfileIndex ${file.activeProfileIndex}`);
  const kept = ownValues(file, 1).size;
  if (kept === 0 || kept >= ownValues(bigFile, 1).size) throw new Error(`${kept} contexts kept`);
  return `${kept} contexts with calls kept of ${ownValues(bigFile, 1).size}`;
});

// The speedscope app and the exports, on 127.0.0.1 only.
const types = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css', '.json': 'application/json', '.wasm': 'application/wasm' };
const server = createServer((request, response) => {
  const path = normalize(decodeURIComponent(new URL(request.url, 'http://localhost').pathname));
  const file = path.startsWith('/profiles/') ? join(JP_WORK, path.slice('/profiles/'.length)) : join(app, path);
  try {
    if (!statSync(file).isFile()) throw new Error('not a file');
  } catch {
    response.writeHead(404).end();
    return;
  }
  response.writeHead(200, { 'content-type': types[extname(file)] || 'application/octet-stream' });
  createReadStream(file).pipe(response);
});
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const base = `http://127.0.0.1:${server.address().port}`;

// Opens an export in speedscope and waits until it is drawn (the profile selector says "(1/2)").
async function open(browser, name) {
  const page = await openPage(browser);
  await page.goto(`${base}/index.html#profileURL=${encodeURIComponent(`${base}/profiles/${name}`)}`);
  await page.waitForFunction(() => /\(1\/2\)|went wrong|rror/.test(document.body.innerText), null, { timeout: 60_000 });
  if (!(await page.getByText('(1/2)').count())) throw new Error(`not loaded: ${await page.innerText('body')}`);
  return page;
}

// The Sandwich view's rows: name -> [total, self] as shown (the numbers before the percentages).
async function sandwich(page) {
  await page.getByText('Sandwich').click();
  await page.getByText('Symbol Name').waitFor();
  // The header is a table of its own; the rows follow in the next one, drawn a frame or more
  // after the header (as they scroll in): wait until it holds rows.
  const handle = await page.waitForFunction(() => {
    const tables = [...document.querySelectorAll('table')];
    const header = tables.findIndex((table) => table.tHead?.innerText.includes('Symbol Name'));
    const body = header < 0 ? undefined : tables[header + 1];
    return body?.rows.length ? [...body.rows].map((tr) => [...tr.cells].map((td) => td.innerText)) : null;
  }, null, { timeout: 60_000 });
  const rows = await handle.jsonValue();
  const number = (text) => Number(text.split(' ')[0].replaceAll(',', ''));
  return new Map(rows.filter((cells) => cells.length === 3).map(([total, self, name]) => [name, [number(total), number(self)]]));
}

// Each method's own value summed over its contexts, per metric (0 calls, 1 bytecodes).
function methodSelf(expected, metric) {
  const self = new Map();
  for (const [path, values] of expected) {
    const name = path.split('\0').pop();
    self.set(name, (self.get(name) || 0) + values[metric]);
  }
  return self;
}

function sameSelf(rows, expected, metric) {
  const wanted = [...methodSelf(expected, metric)].filter(([, value]) => value > 0);
  for (const [name, value] of wanted) {
    if (!rows.has(name)) throw new Error(`${name} missing from the Sandwich table`);
    if (rows.get(name)[1] !== value) throw new Error(`${name}: self ${rows.get(name)[1]}, expected ${value}`);
  }
  return wanted.length;
}

const browser = await launch();
let page;
await check('speedscope loads a.speedscope.json and shows the bytecodes profile first', async () => {
  page = await open(browser, 'a.speedscope.json');
  const title = await page.title();
  if (title !== 'JP profile - speedscope') throw new Error(`title ${title}`);
  await page.getByText('bytecodes (1/2)').waitFor({ timeout: 5000 });
  await page.waitForTimeout(300);
  await page.screenshot({ path: join(JP_WORK, 'speedscope-time-order.png') });
  return 'screenshot speedscope-time-order.png';
});

await check('speedscope lists both profiles, and the calls profile can be selected', async () => {
  await page.getByText('(1/2)').click();
  const listed = await page.$$eval('tr[title]', (rows) => rows.map((row) => row.getAttribute('title')));
  if (listed.join() !== 'bytecodes,calls') throw new Error(`listed ${listed}`);
  await page.locator('tr[title="calls"]').click();
  await page.getByText('calls (2/2)').waitFor({ timeout: 5000 });
  return `listed ${listed.join(', ')}`;
});

await check("speedscope's Sandwich view lists the frames with the profile's own values", async () => {
  const expected = contexts(small);
  const calls = await sandwich(page);
  if (!calls.has('demo.Main.work(I)J')) throw new Error(`rows ${[...calls.keys()]}`);
  const checkedCalls = sameSelf(calls, expected, 0);
  await page.screenshot({ path: join(JP_WORK, 'speedscope-sandwich.png') });
  await page.getByText('(2/2)').click();
  await page.locator('tr[title="bytecodes"]').click();
  await page.getByText('bytecodes (1/2)').waitFor({ timeout: 5000 });
  const bytecodes = await sandwich(page);
  const checkedBytecodes = sameSelf(bytecodes, expected, 1);
  if (bytecodes.get('demo.Main.main([Ljava/lang/String;)V')[0] !== 798) throw new Error('main total is not 798');
  return `${checkedCalls} methods by calls, ${checkedBytecodes} by bytecodes; screenshot speedscope-sandwich.png`;
});

await check('speedscope raised no errors on a.speedscope.json', () => {
  if (page.errors.length) throw new Error(page.errors.join('; '));
});

await check('speedscope loads the generated export and shows the escaped name', async () => {
  const big = await open(browser, 'generated.speedscope.json');
  const rows = await sandwich(big);
  const top = [...rows.keys()][0];
  if (!top.startsWith('gen.Odd.say "hi" \\ to ünïcødé → 😀')) throw new Error(`first row ${JSON.stringify(top)}`);
  if (rows.get(top)[1] !== 10_000_000) throw new Error(`its self is ${rows.get(top)[1]}`);
  await big.screenshot({ path: join(JP_WORK, 'speedscope-generated.png') });
  if (big.errors.length) throw new Error(big.errors.join('; '));
  return 'screenshot speedscope-generated.png';
});

// Opens a folded file in speedscope, which imports it as collapsed stacks (one profile, named
// after the file).
async function openFolded(browser, name) {
  const page = await openPage(browser);
  await page.goto(`${base}/index.html#profileURL=${encodeURIComponent(`${base}/profiles/${name}`)}`);
  await page.waitForFunction((name) => document.title.startsWith(name) || /went wrong|rror/.test(document.body.innerText), name, { timeout: 60_000 });
  if (!(await page.title()).startsWith(name)) throw new Error(`not loaded: ${await page.innerText('body')}`);
  return page;
}

// The Sandwich rows of an imported folded file against the jpprof files it came from: every row
// is a whole frame of the profile, and each method's self value is the profile's own bytecodes
// summed over its contexts. The table draws only the rows in view, so `complete` (a table that
// fits) also asks for every method and for selves that add up to the profile's total.
async function sameFoldedImport(page, profiles, complete) {
  const expected = new Map();
  let total = 0;
  for (const [path, [, bytecodes]] of contexts(profiles)) {
    const name = readable(path.split('\0').pop());
    expected.set(name, (expected.get(name) || 0) + bytecodes);
    total += bytecodes;
  }
  const rows = await sandwich(page);
  for (const [name, [, self]] of rows) {
    if (!expected.has(name)) throw new Error(`${JSON.stringify(name)} is not a frame of the profile`);
    if (self !== expected.get(name)) throw new Error(`${name}: self ${self}, expected ${expected.get(name)}`);
  }
  if (page.errors.length) throw new Error(page.errors.join('; '));
  if (!complete) return `${rows.size} rows in view, all whole frames with their self values`;
  const missing = [...expected].filter(([name, self]) => self > 0 && !rows.has(name));
  if (missing.length) throw new Error(`missing from the Sandwich table: ${missing.map(([name]) => name).join(', ')}`);
  const sum = [...rows.values()].reduce((s, [, self]) => s + self, 0);
  if (sum !== total) throw new Error(`selves add up to ${sum}, the profile's total is ${total}`);
  return `${rows.size} frames, ${sum} bytecodes`;
}

await check("speedscope's folded importer reads a.jpprof + b.jpprof's folded report: whole frames, merged self values", async () => {
  folded(small, join(JP_WORK, 'a.folded'));
  const page = await openFolded(browser, 'a.folded');
  const detail = await sameFoldedImport(page, small, true);
  const rows = await sandwich(page);
  for (const name of ['demo.Main.main(java.lang.String[]):void', 'demo.Main.work(int):long', 'demo.MainTest.main works twice():void']) {
    if (!rows.has(name)) throw new Error(`${name} missing`);
  }
  await page.screenshot({ path: join(JP_WORK, 'speedscope-folded.png') });
  return `${detail}; screenshot speedscope-folded.png`;
});

await check("speedscope's folded importer reads the generated profile's folded report, the escaped name included", async () => {
  folded([generated], join(JP_WORK, 'generated.folded'));
  const page = await openFolded(browser, 'generated.folded');
  const detail = await sameFoldedImport(page, [generated], false);
  const odd = readable(ODD);
  if (!odd.includes('\\u{a}more(java.lang.String):void')) throw new Error(`odd name ${odd}`);
  const top = [...(await sandwich(page))][0];
  if (top[0] !== odd || top[1][1] !== 10_000_000) throw new Error(`first row ${JSON.stringify(top)}`);
  return detail;
});

await browser.close();
server.close();
finish();

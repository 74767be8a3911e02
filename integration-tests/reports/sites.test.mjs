// Contexts split by call site (`jp instrument --call-sites`) in `jp report --format html`, in
// headless Chromium: the call tree names each of a method's contexts with its site after the
// method (` @ line 21`, or ` @ bci 9` where the caller has no line), and the one called from no
// site without one.
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { check, finish, launch, noErrors, openReport } from './browser.mjs';

const { JP, JP_PROFILES, JP_WORK } = process.env;

const out = join(JP_WORK, 'call_sites.html');
execFileSync(JP, ['report', join(JP_PROFILES, 'call_sites.jpprof'), '--format', 'html', '--out', out]);
const browser = await launch();
const { page } = await openReport(browser, out);

await check('each of a method\'s contexts under one caller names its call site', async () => {
  const main = page.locator('#tree > .node', { hasText: 'Main.main(String[])' });
  if (await main.getAttribute('aria-expanded') === 'false') await main.locator('> .row').click();
  const children = main.locator('> .kids > .node > .row .name');
  await children.first().waitFor({ timeout: 5000 });
  const names = (await children.allTextContents()).sort();
  const wanted = ['Main.log(String) demo @ line 24', 'Main.square(int) demo', 'Main.square(int) demo @ line 21',
    'Main.square(int) demo @ line 22'];
  if (JSON.stringify(names) !== JSON.stringify(wanted)) throw new Error(JSON.stringify(names));
  const nested = main.locator('> .kids > .node', { hasText: '@ line 22' });
  await nested.locator('> .row').click();
  const below = await nested.locator('> .kids > .node > .row .name').allTextContents();
  if (JSON.stringify(below) !== JSON.stringify(['Main.log(String) demo @ bci 9'])) throw new Error(JSON.stringify(below));
  noErrors(page);
  return names.join(', ');
});

await browser.close();
finish();

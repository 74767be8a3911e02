// Shared by the browser tests: a headless Chromium through playwright-core, started the way this
// machine's closed network needs (no background connections), and PASS/FAIL bookkeeping.
import { pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';

export async function launch() {
  return chromium.launch({
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    args: [
      '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync',
    ],
    // No --user-data-dir: playwright-core refuses it in launch() and gives each launch a fresh
    // temporary profile of its own, removed on close.
  });
}

// A page that records console errors and uncaught exceptions in `errors`, and console warnings
// in `warnings`. `options` go to browser.newPage (a viewport, a deviceScaleFactor).
export async function openPage(browser, options = {}) {
  const page = await browser.newPage({ viewport: { width: 1400, height: 900 }, ...options });
  page.errors = [];
  page.warnings = [];
  page.on('console', (message) => {
    if (message.type() === 'error') page.errors.push(`console: ${message.text()}`);
    if (message.type() === 'warning') page.warnings.push(`console warning: ${message.text()}`);
  });
  page.on('pageerror', (error) => page.errors.push(`exception: ${error.message}`));
  return page;
}

// Opens a report from file:// and waits until the page says it is ready; returns the page and the
// time taken.
export async function openReport(browser, file, options) {
  const page = await openPage(browser, options);
  const started = Date.now();
  await page.goto(pathToFileURL(file).href);
  await page.waitForSelector('body[data-ready]', { timeout: 60_000 });
  return { page, ms: Date.now() - started };
}

// Throws with every console error, warning and exception the page recorded.
export function noErrors(page) {
  const problems = [...page.errors, ...page.warnings];
  if (problems.length) throw new Error(problems.join('; '));
}

// check(name, fn): runs one named check, prints PASS/FAIL, remembers failures; finish() exits.
let failures = 0;
export async function check(name, fn) {
  try {
    const detail = await fn();
    console.log(`PASS ${name}${detail ? `: ${detail}` : ''}`);
  } catch (error) {
    failures += 1;
    console.log(`FAIL ${name}: ${error.message}`);
  }
}

export function finish() {
  process.exit(failures === 0 ? 0 : 1);
}

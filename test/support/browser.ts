// A real Chromium for the web-page tests, which `npm ci` brings: the @sparticuz/chromium package ships
// it compressed, and playwright-core drives it. It is unpacked once per version into the machine's
// temp folder (about 7 s, more under load) and shared by every test process afterwards. There is no
// fallback and no skipping: if it cannot start, the test fails and says why.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import chromium, { inflate } from '@sparticuz/chromium';
import { chromium as playwright, type Browser, type Page } from 'playwright-core';

// The package exports only its code: find its folder from that (build/index.js).
const PACKAGE_ROOT = dirname(dirname(createRequire(import.meta.url).resolve('@sparticuz/chromium')));
const { version } = JSON.parse(readFileSync(join(PACKAGE_ROOT, 'package.json'), 'utf8')) as { version: string };
const PACKAGE_BIN = join(PACKAGE_ROOT, 'bin');
const UNPACKED = join(tmpdir(), `agent-marketplace-chromium-${version}`);

/**
 * The package's flags are made for AWS Lambda. These would make the browser unlike a user's: one
 * process for everything, and no same-origin policy or mixed-content blocking (a page's
 * Content-Security-Policy must be enforced as a user's browser would).
 */
const LAMBDA_ONLY_FLAGS = new Set(['--single-process', '--disable-web-security', '--allow-running-insecure-content', '--disable-site-isolation-trials']);
/** The machine has no network beyond the loopback: nothing may try to phone home. */
const OFFLINE_FLAGS = ['--disable-background-networking', '--disable-component-update', '--no-first-run', '--disable-sync', '--disable-quic'];

/**
 * The package's own executablePath() unpacks to a fixed /tmp/chromium that another process may be
 * halfway through writing. Here the binary and its SwiftShader libraries are unpacked into a folder
 * of this process's own, then renamed into place at once: a folder that exists is complete.
 */
async function unpackedChromium(): Promise<string> {
  const binary = join(UNPACKED, 'chromium');
  if (existsSync(binary)) return binary;
  mkdirSync(dirname(UNPACKED), { recursive: true });
  const staging = mkdtempSync(`${UNPACKED}.unpacking-`);
  // inflate() writes into os.tmpdir(), which it reads from TMPDIR when called.
  const previousTmpdir = process.env.TMPDIR;
  process.env.TMPDIR = staging;
  let unpacking: Promise<unknown>;
  try {
    unpacking = Promise.all([inflate(join(PACKAGE_BIN, 'chromium.br')), inflate(join(PACKAGE_BIN, 'swiftshader.tar.br'))]);
  } finally {
    if (previousTmpdir === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = previousTmpdir;
  }
  try {
    await unpacking;
    renameSync(staging, UNPACKED);
  } catch (error) {
    rmSync(staging, { recursive: true, force: true });
    if (!existsSync(binary)) throw error; // otherwise another process finished first: use its copy
  }
  return binary;
}

export async function launchBrowser(): Promise<Browser> {
  try {
    const executablePath = await unpackedChromium();
    return await playwright.launch({
      executablePath,
      args: [...chromium.args.filter((flag) => !LAMBDA_ONLY_FLAGS.has(flag)), ...OFFLINE_FLAGS],
      timeout: 120_000, // the first launch on a busy machine
    });
  } catch (error) {
    throw new Error(
      `Chromium (@sparticuz/chromium ${version}, unpacked in ${UNPACKED}) could not start: ${(error as Error).message}\n` +
        `Run npm ci; if that folder is damaged, delete it and run the test again.`,
      { cause: error },
    );
  }
}

export interface PageWatch {
  /** Console errors (a Content-Security-Policy violation is one) and uncaught exceptions. */
  problems: string[];
  /** Every request the page made to another origin (data: URIs make none). */
  foreignRequests: string[];
  /** Every request the page made, in order. */
  requests: string[];
}

/** Records what a page does wrong from now on; assert on it after the page has done its work. */
export function watchPage(page: Page, origin: string): PageWatch {
  const watch: PageWatch = { problems: [], foreignRequests: [], requests: [] };
  const own = new URL(origin).origin;
  page.on('console', (message) => {
    if (message.type() === 'error') watch.problems.push(`console error: ${message.text()}`);
  });
  page.on('pageerror', (error) => watch.problems.push(`uncaught: ${error.message}`));
  page.on('request', (request) => {
    const url = request.url();
    watch.requests.push(url);
    if (url.startsWith('data:')) return;
    if (new URL(url).origin !== own) watch.foreignRequests.push(url);
  });
  return watch;
}

/** Saves a screenshot under test-results/ (not committed) and prints where. */
export async function screenshot(page: Page, name: string, options: { fullPage?: boolean } = {}): Promise<string> {
  mkdirSync('test-results', { recursive: true });
  const path = join('test-results', `${name}.png`);
  await page.screenshot({ path, fullPage: options.fullPage ?? false });
  console.log(`screenshot: ${join(process.cwd(), path)}`);
  return path;
}

// The dashboard page (GET /dashboard), built at synth and at local start: its script is the browser
// code in functions/dashboard/page/*.ts (type-checked and linted like the rest), bundled by esbuild into
// one inline script; its style is style.css; both go into page.html and are allowed by their hashes in the
// Content-Security-Policy (no 'unsafe-inline', no other origin). The function serves the result as it is.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { buildSync } from 'esbuild';

const PAGE_DIR = path.resolve(import.meta.dirname, '..', 'functions', 'dashboard', 'page');

export interface DashboardPage {
  html: string;
  contentSecurityPolicy: string;
}

const hash = (text: string) => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;

/** The page's script: main.ts and what it imports, one minified IIFE for current browsers. */
export function dashboardScript(): string {
  const built = buildSync({
    entryPoints: [path.join(PAGE_DIR, 'main.ts')],
    bundle: true,
    write: false,
    format: 'iife',
    platform: 'browser',
    target: ['es2022'],
    minify: true,
    legalComments: 'none',
    charset: 'utf8',
  });
  const script = built.outputFiles[0]?.text ?? '';
  // Inline in a <script> element, the text must never close it.
  if (/<\/script/i.test(script)) throw new Error('The dashboard script contains "</script": it cannot be inlined');
  return script.trim();
}

export function buildDashboardPage(): DashboardPage {
  const style = readFileSync(path.join(PAGE_DIR, 'style.css'), 'utf8');
  const script = dashboardScript();
  const template = readFileSync(path.join(PAGE_DIR, 'page.html'), 'utf8');
  const html = template.replace('{{style}}', () => style).replace('{{script}}', () => script);
  const contentSecurityPolicy = [
    "default-src 'none'",
    `script-src ${hash(script)}`,
    `style-src ${hash(style)}`,
    "connect-src 'self'",
    "img-src 'self' data:",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
  return { html, contentSecurityPolicy };
}

// README.md, "A sale and a purchase, end to end", run as a reader runs it: its three shell blocks pasted
// in order into one bash, against the local runtime, with curl and jq (jq compiled to WebAssembly when
// the machine has no jq: test/support/jq.ts). Only the base URL is changed. Each block's own comments say
// what it prints; this checks that it does, and that the order reaches completed.
import { execFile } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { REPOSITORY_ROOT } from '../support/mcp.ts';

const run = promisify(execFile);
const baseUrl = inject('baseUrl');
const readme = readFileSync(path.join(REPOSITORY_ROOT, 'README.md'), 'utf8');

/** The shell block under `<!-- walk-through: name -->`. */
function block(name: string): string {
  const found = new RegExp(`<!-- walk-through: ${name} -->\\n\`\`\`sh\\n([\\s\\S]*?)\`\`\``).exec(readme);
  if (!found) throw new Error(`README.md has no block marked walk-through: ${name}`);
  return found[1] as string;
}

let dir: string;
let bin: string;
beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'readme-walk-'));
  // A `jq` first on PATH: the same program, so the test does not depend on the machine's packages.
  bin = path.join(dir, 'bin');
  mkdirSync(bin);
  writeFileSync(path.join(bin, 'jq'), `#!/bin/sh\nexec "${process.execPath}" "${path.join(REPOSITORY_ROOT, 'test/support/jq.ts')}" "$@"\n`);
  chmodSync(path.join(bin, 'jq'), 0o755);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('README.md: the walk-through', () => {
  it('registers a seller and a buyer, loads the template, negotiates under the list price and follows the order to completed', async () => {
    const script = ['seller', 'buyer', 'order'].map(block).join('\n');
    expect(script).toContain('BASE_URL=http://localhost:3000\n');
    expect(script).not.toMatch(/ofr_…|neg_…|ord_…|feed_…/); // every id comes from a variable
    const { stdout } = await run('bash', ['-c', `set -euo pipefail\n${script.replace('BASE_URL=http://localhost:3000', `BASE_URL=${baseUrl}`)}`], {
      cwd: dir,
      env: { ...process.env, PATH: `${bin}:${process.env.PATH ?? ''}` },
      timeout: 240_000,
    });
    const lines = stdout.split('\n');
    expect(lines[0]).toBe('completed'); // the feed
    const objects = [...stdout.matchAll(/^\{\n[\s\S]*?\n\}$/gm)].map((match) => JSON.parse(match[0]) as Record<string, unknown>);
    expect(objects).toEqual([
      { title: 'Nitrile examination gloves, size M, box of 100', packSize: 100, unitPrice: { amount: 1250, currency: 'USD' }, minQuantity: 10 },
      { status: 'open', turn: 'buyer', round: 2, unitPrice: 1250 },
      { status: 'accepted', unitPrice: 1200 },
      { status: 'pending', totalAmount: { amount: 60000, currency: 'USD' } },
    ]);
    const tail = lines.slice(lines.lastIndexOf('}') + 1).filter(Boolean);
    expect(tail).toEqual([
      'confirmed',
      'shipped',
      'delivered',
      'completed',
      'null → pending',
      'pending → confirmed',
      'confirmed → shipped',
      'shipped → delivered',
      'delivered → completed',
      'order.completed',
    ]);
  }, 300_000);
});

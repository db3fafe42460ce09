// npm run synth: synthesizes both stages offline, each into cdk.out/<stage>, with every function
// bundled by esbuild and cdk-nag's AwsSolutions checks; fails if either stage fails. The two synths
// run side by side; each one's output is shown only if it fails.
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { STAGES } from '../lib/stage-settings.ts';
import type { Stage } from '../shared/resources.ts';

const ROOT = path.resolve(import.meta.dirname, '..');
const CDK = path.join(ROOT, 'node_modules', '.bin', 'cdk');
/** A bundle above this is worth a look (cold start grows with what a function loads). */
const BUNDLE_BUDGET_BYTES = 250 * 1024;

interface SynthResult {
  stage: Stage;
  ok: boolean;
  seconds: number;
  output: string;
}

function synth(stage: Stage): Promise<SynthResult> {
  const outdir = path.join(ROOT, 'cdk.out', stage);
  rmSync(outdir, { recursive: true, force: true }); // no stale assets in the size summary
  const started = Date.now();
  const args = ['synth', '-c', `stage=${stage}`, '--quiet', '--no-notices', '--lookups=false', '--output', outdir];
  const child = spawn(CDK, args, {
    cwd: ROOT,
    env: {
      ...process.env,
      // cdk.json runs `node bin/app.ts`: make that the project's Node 24, whoever started us.
      PATH: [path.join(ROOT, 'node_modules', '.bin'), path.dirname(process.execPath), process.env.PATH].join(path.delimiter),
      // Offline: never wait for the EC2 metadata service while looking for credentials.
      AWS_EC2_METADATA_DISABLED: 'true',
    },
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return new Promise((resolve) => {
    child.on('error', (error) => resolve({ stage, ok: false, seconds: 0, output: String(error) }));
    child.on('close', (code) => resolve({ stage, ok: code === 0, seconds: (Date.now() - started) / 1000, output }));
  });
}

/** Sizes of the bundled handlers (index.mjs) of every function asset in the stage's cloud assembly. */
function bundleSizes(stage: Stage): number[] {
  const outdir = path.join(ROOT, 'cdk.out', stage);
  if (!existsSync(outdir)) return [];
  return readdirSync(outdir)
    .filter((name) => name.startsWith('asset.') && existsSync(path.join(outdir, name, 'index.mjs')))
    .map((asset) => statSync(path.join(outdir, asset, 'index.mjs')).size);
}

const kB = (bytes: number) => `${(bytes / 1024).toFixed(1)} kB`;

const results = await Promise.all(STAGES.map(synth));
for (const result of results) {
  if (result.ok) {
    const sizes = bundleSizes(result.stage);
    const largest = Math.max(0, ...sizes);
    const budget = largest > BUNDLE_BUDGET_BYTES ? ` (over the ${kB(BUNDLE_BUDGET_BYTES)} target)` : '';
    console.log(
      `✔ ${result.stage}: cdk.out/${result.stage} in ${result.seconds.toFixed(1)} s; ${sizes.length} functions bundled, ` +
        `largest ${kB(largest)}${budget}; cdk-nag AwsSolutions: no unacknowledged findings`,
    );
  } else {
    console.error(`✘ ${result.stage}: synth failed\n${result.output}`);
  }
}
if (results.some((result) => !result.ok)) process.exit(1);

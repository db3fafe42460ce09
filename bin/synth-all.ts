// npm run synth: synthesizes both stages offline, each into cdk.out/<stage>, with every function
// bundled by esbuild and cdk-nag's AwsSolutions checks; fails if either stage fails. The two synths
// run side by side; each one's output is shown only if it fails.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { routeList } from '../functions/registry.ts';
import { STAGES } from '../lib/stage-settings.ts';
import { DEFAULT_BUNDLE_BUDGET_KB } from '../shared/http/route-table.ts';
import { resourceNames, type Stage } from '../shared/resources.ts';

const ROOT = path.resolve(import.meta.dirname, '..');
const CDK = path.join(ROOT, 'node_modules', '.bin', 'cdk');

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

/**
 * Each function's bundle (index.mjs of its asset) with its budget: its route row's bundleBudgetKb, or
 * the default. A function's asset is named in its template's Code.S3Key; its row, by the route key
 * that begins its description (`POST /mcp: …`).
 */
function bundleSizes(stage: Stage): { name: string; bytes: number; budgetBytes: number }[] {
  const outdir = path.join(ROOT, 'cdk.out', stage);
  const templateFile = path.join(outdir, `${resourceNames(stage).stackName}.template.json`);
  if (!existsSync(templateFile)) return [];
  const template = JSON.parse(readFileSync(templateFile, 'utf8')) as { Resources: Record<string, { Type: string; Properties: { Code?: { S3Key?: string }; Description?: string } }> };
  const sizes: { name: string; bytes: number; budgetBytes: number }[] = [];
  for (const [name, resource] of Object.entries(template.Resources)) {
    const key = resource.Type === 'AWS::Lambda::Function' ? resource.Properties.Code?.S3Key : undefined;
    const bundle = key ? path.join(outdir, `asset.${key.replace(/\.zip$/, '')}`, 'index.mjs') : undefined;
    if (!bundle || !existsSync(bundle)) continue;
    const row = routeList.find((route) => resource.Properties.Description?.startsWith(`${route.method} ${route.path}:`));
    sizes.push({ name, bytes: statSync(bundle).size, budgetBytes: (row?.bundleBudgetKb ?? DEFAULT_BUNDLE_BUDGET_KB) * 1024 });
  }
  return sizes;
}

const kB = (bytes: number) => `${(bytes / 1024).toFixed(1)} kB`;

const results = await Promise.all(STAGES.map(synth));
for (const result of results) {
  if (result.ok) {
    const sizes = bundleSizes(result.stage);
    const largest = Math.max(0, ...sizes.filter((size) => size.budgetBytes === DEFAULT_BUNDLE_BUDGET_KB * 1024).map((size) => size.bytes));
    const raised = sizes.filter((size) => size.budgetBytes !== DEFAULT_BUNDLE_BUDGET_KB * 1024).map((size) => `${size.name} ${kB(size.bytes)} of ${kB(size.budgetBytes)}`);
    const over = sizes.filter((size) => size.bytes > size.budgetBytes).map((size) => `${size.name} ${kB(size.bytes)}`);
    console.log(
      `✔ ${result.stage}: cdk.out/${result.stage} in ${result.seconds.toFixed(1)} s; ${sizes.length} functions bundled, ` +
        `largest ${kB(largest)} of ${kB(DEFAULT_BUNDLE_BUDGET_KB * 1024)}${raised.length > 0 ? ` (own budgets: ${raised.join(', ')})` : ''}` +
        `${over.length > 0 ? `; OVER BUDGET: ${over.join(', ')}` : ''}; cdk-nag AwsSolutions: no unacknowledged findings`,
    );
  } else {
    console.error(`✘ ${result.stage}: synth failed\n${result.output}`);
  }
}
if (results.some((result) => !result.ok)) process.exit(1);

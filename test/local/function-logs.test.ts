// `npm start` runs every function in one process, many invocations at once: each log line still names
// the function and the invocation that wrote it (lib/local/lambda.ts; docs/decisions/local-invocation-context.md).
// Bursts of requests to two routes run while a feed file is processed (the feed worker, the stream
// workers after it, the request-log writer after every request); every request line's function is its
// route's, every worker line's is its worker's, and one invocation's lines all name one function.
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { fallbackRoute, routeList, workers } from '../../functions/registry.ts';
import { listeningUrl, spawnLocalCommand } from '../../lib/local/local-command.ts';
import { generatedCsv, uploadCsv } from '../support/catalog.ts';
import { registerAgent, TestClient } from '../support/http-client.ts';

const dataDir = mkdtempSync(join(tmpdir(), 'function-logs-'));
let child: ChildProcess | undefined;

afterAll(() => {
  child?.kill('SIGKILL');
  rmSync(dataDir, { recursive: true, force: true });
});

interface LogLine {
  message: string;
  function_name?: string;
  function_request_id?: string;
  route?: string;
}

/** The function (operationId) of each route, as a request line names it: `GET /v1/seller/feeds/{id}`. */
const functionOfRoute = new Map([...routeList, fallbackRoute].map((route) => [`${route.method} ${route.path}`, route.operationId]));

function workerId(handler: string): string {
  const worker = workers.find((row) => row.handler === handler);
  if (!worker) throw new Error(`no worker runs ${handler}`);
  return worker.id;
}

/** Lines only one worker writes. */
const functionOfWorkerMessage = new Map([
  ['Feed file processed', workerId('functions/seller-feeds/process-upload.worker.ts')],
  ['Search index log appended', workerId('functions/search/index-changes.worker.ts')],
  ['Events fanned out', workerId('functions/webhooks/fan-out.worker.ts')],
]);

function jsonLines(output: string): LogLine[] {
  return output
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as LogLine);
}

it('labels every log line with the function and invocation that wrote it while functions run at once', { timeout: 240_000 }, async () => {
  child = spawnLocalCommand({ DATA_DIR: dataDir, PORT: '0', LOG_LEVEL: 'DEBUG' });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const client = new TestClient(await listeningUrl(child));

  const seller = await registerAgent(client, { role: 'seller' });
  const uploaded = await uploadCsv(client, seller.apiKey, generatedCsv(300, 'LOGS'));
  expect(uploaded.status, uploaded.text).toBe(202);
  const feedPath = `/v1/seller/feeds/${uploaded.json.data.feedId as string}`;

  // Bursts to two routes until the feed's file is processed, and one more after it.
  const burst = () => Promise.all(Array.from({ length: 6 }, () => [client.get('/v1/agents/me', { apiKey: seller.apiKey }), client.get(feedPath, { apiKey: seller.apiKey })]).flat());
  const deadline = Date.now() + 120_000;
  while (!output.includes('"Feed file processed"') && Date.now() < deadline) await burst();
  await burst();

  const exited = new Promise((resolveExit) => child!.once('exit', resolveExit));
  child.kill('SIGINT');
  await exited;

  const lines = jsonLines(output).filter((line) => line.function_name !== undefined);
  const requests = lines.filter((line) => line.message === 'request');
  expect(requests.filter((line) => line.route === 'GET /v1/agents/me').length).toBeGreaterThanOrEqual(12);
  expect(requests.filter((line) => line.route === 'GET /v1/seller/feeds/{id}').length).toBeGreaterThanOrEqual(12);
  expect(lines.filter((line) => line.message === 'Feed file processed')).toHaveLength(1);

  const mislabelled = lines
    .map((line) => ({ message: line.message, route: line.route, expected: line.message === 'request' ? functionOfRoute.get(line.route ?? '') : functionOfWorkerMessage.get(line.message), labelled: line.function_name }))
    .filter((line) => line.expected !== undefined || line.message === 'request')
    .filter((line) => line.labelled !== line.expected);
  expect(mislabelled).toEqual([]);

  const functionsByInvocation = new Map<string, Set<string>>();
  for (const line of lines) {
    const names = functionsByInvocation.get(line.function_request_id!) ?? new Set();
    names.add(line.function_name!);
    functionsByInvocation.set(line.function_request_id!, names);
  }
  expect([...functionsByInvocation].filter(([, names]) => names.size > 1)).toEqual([]);
});

// vitest global setup: one local runtime (DynamoDB Local, fauxqs, scheduler emulator, gateway) for
// the whole run, on a fresh temporary data folder and free ports. Test workers reach it through
// what is provided here: the API's base URL, and the environment its handlers see (worker-env.ts
// copies that into each worker, so SDK clients and config() there talk to the same stack).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { startLocalRuntime } from '../../lib/local/runtime.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The local runtime's API, `http://127.0.0.1:<port>`. */
    baseUrl: string;
    /** STAGE, TABLE_NAME, AWS_ENDPOINT_URL_*, queue URLs… as the runtime's handlers see them. */
    env: Record<string, string>;
    /** The runtime's data folder (its runtime.json is what the operator command reads). */
    dataDir: string;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const dataDir = mkdtempSync(join(tmpdir(), 'agent-marketplace-test-'));
  // Webhook retries after 1, 2, 2 and 3 s instead of minutes and hours (the handlers read it at start).
  process.env.WEBHOOK_RETRY_DELAYS ??= '1,2,2,3';
  // A subscription failing every delivery for 20 s is disabled (5 days in a stack): longer than any other
  // test keeps a receiver failing, short enough for the test of it.
  process.env.WEBHOOK_DISABLE_AFTER_SECONDS ??= '20';
  // The house seller ships and delivers seconds after confirming instead of minutes.
  process.env.HOUSE_SHIP_AFTER_SECONDS ??= '2';
  process.env.HOUSE_DELIVER_AFTER_SECONDS ??= '2';
  // A request for quotes may close 2 s after it is made instead of 1 h, so that closing is tried in seconds.
  process.env.RFQ_MIN_CLOSE_SECONDS ??= '2';
  const runtime = await startLocalRuntime({ dataDir, port: 0, quiet: true });
  project.provide('baseUrl', runtime.baseUrl);
  project.provide('env', runtime.env);
  project.provide('dataDir', dataDir);
  return async () => {
    await runtime.stop();
    rmSync(dataDir, { recursive: true, force: true });
  };
}

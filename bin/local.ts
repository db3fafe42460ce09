// `npm start`: the whole API on this machine. DATA_DIR (default ./.data) keeps every record across
// restarts; PORT (default 3000) is the API's port. DYNAMODB_PORT, FAUXQS_PORT, SCHEDULER_PORT and UPLOAD_PORT pin
// the emulators' ports (default: free ones). Ctrl+C (SIGINT) or SIGTERM stops everything.
import { resolve } from 'node:path';
import { LocalRuntimeError } from '../lib/local/errors.ts';
import { startLocalRuntime, type LocalRuntime } from '../lib/local/runtime.ts';

function portFrom(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const port = Number(raw);
  if (!Number.isInteger(port) || port < 0 || port > 65_535) {
    console.error(`${name} must be a port number (0–65535), not ${raw}`);
    process.exit(1);
  }
  return port;
}

const EXAMPLE_REGISTRATION = JSON.stringify({
  name: 'My buyer agent',
  role: 'buyer',
  organization: { legalName: 'Acme Safety GmbH', country: 'DE' },
  contactEmail: 'procurement@acme.example',
});

function printWelcome(runtime: LocalRuntime): void {
  const url = runtime.baseUrl.replace('127.0.0.1', 'localhost');
  console.log(`Agent Marketplace (local sandbox) listening on ${url}`);
  console.log(`Data: ${runtime.dataDir}  ·  Reference: ${url}/docs  ·  OpenAPI: ${url}/v1/openapi.json  ·  Ctrl+C to stop`);
  console.log('');
  console.log('Register an agent (the response holds its API key, shown once):');
  console.log(`  curl -s -X POST ${url}/v1/agents/register -H 'Content-Type: application/json' -d '${EXAMPLE_REGISTRATION}'`);
  console.log('Then call the API with it:');
  console.log(`  curl -s ${url}/v1/agents/me -H 'Authorization: Bearer mk_test_…'`);
}

async function main(): Promise<void> {
  const dataDir = resolve(process.env.DATA_DIR ?? '.data');
  let runtime: LocalRuntime;
  try {
    runtime = await startLocalRuntime({
      dataDir,
      port: portFrom('PORT', 3000),
      dynamoPort: portFrom('DYNAMODB_PORT', 0),
      fauxqsPort: portFrom('FAUXQS_PORT', 0),
      schedulerPort: portFrom('SCHEDULER_PORT', 0),
      uploadPort: portFrom('UPLOAD_PORT', 0),
    });
  } catch (error) {
    if (error instanceof LocalRuntimeError) {
      console.error(`Cannot start the local runtime: ${error.message}`);
      process.exit(1);
    }
    throw error;
  }
  printWelcome(runtime);

  let stopping = false;
  const shutdown = (signal: NodeJS.Signals) => {
    if (stopping) {
      // A second Ctrl+C: leave now; the watchdog still stops DynamoDB Local.
      process.exit(130);
    }
    stopping = true;
    console.log(`\n${signal}: stopping… (again to force)`);
    runtime.stop().then(
      () => process.exit(0),
      (error: unknown) => {
        console.error('Error while stopping:', error);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', shutdown);
  process.on('SIGTERM', shutdown);
}

await main();

// The local runtime's lifecycle, through `npm start` (bin/local.ts) and startLocalRuntime: records
// survive a restart on the same data folder, a folder in use is refused, SIGINT and stop() leave no
// DynamoDB Local process behind, and start-up problems fail fast with one line.
import type { ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { dynamoDbLocalPidsFor } from '../../lib/local/dynamodb-local.ts';
import { LocalRuntimeError } from '../../lib/local/errors.ts';
import { startLocalRuntime } from '../../lib/local/runtime.ts';
import { listeningUrl, spawnLocalCommand } from '../../lib/local/local-command.ts';

const dataDir = mkdtempSync(join(tmpdir(), 'runtime-'));
const children: ChildProcess[] = [];

afterAll(() => {
  for (const child of children) child.kill('SIGKILL');
  rmSync(dataDir, { recursive: true, force: true });
});

function runLocalCommand(env: Record<string, string>): ChildProcess {
  const child = spawnLocalCommand(env);
  children.push(child);
  return child;
}

function exited(child: ChildProcess): Promise<{ code: number | null; stderr: string }> {
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolveExit) => child.once('exit', (code) => resolveExit({ code, stderr })));
}

const registration = {
  name: 'Restart test agent',
  role: 'seller',
  organization: { legalName: 'Restart GmbH', country: 'DE' },
  contactEmail: 'restart@example.com',
};

it('keeps every record across a restart on the same data folder, and leaves no Java process behind', async () => {
  const command = runLocalCommand({ DATA_DIR: dataDir, PORT: '0' });
  const baseUrl = await listeningUrl(command);
  const registered = await fetch(`${baseUrl}/v1/agents/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(registration),
  });
  expect(registered.status).toBe(201);
  const { data: agent } = (await registered.json()) as { data: { agentId: string; apiKey: string } };
  expect(existsSync(join(dataDir, 'runtime.json'))).toBe(true);
  await expect(startLocalRuntime({ dataDir, port: 0 })).rejects.toThrow(LocalRuntimeError); // in use

  const stopped = exited(command);
  command.kill('SIGINT');
  expect((await stopped).code).toBe(0);
  expect(dynamoDbLocalPidsFor(dataDir)).toEqual([]);
  expect(existsSync(join(dataDir, 'runtime.json'))).toBe(false);

  const restarted = await startLocalRuntime({ dataDir, port: 0, quiet: true });
  try {
    const me = await fetch(`${restarted.baseUrl}/v1/agents/me`, { headers: { authorization: `Bearer ${agent.apiKey}` } });
    expect(me.status).toBe(200);
    expect(((await me.json()) as { data: { agentId: string } }).data.agentId).toBe(agent.agentId);
  } finally {
    await restarted.stop();
  }
  expect(dynamoDbLocalPidsFor(dataDir)).toEqual([]);
  expect(existsSync(join(dataDir, 'runtime.json'))).toBe(false);
});

describe('start-up problems fail fast with one line', () => {
  it('a port in use', async () => {
    const blocker = createServer();
    await new Promise<void>((resolveListening) => blocker.listen(0, '127.0.0.1', resolveListening));
    const port = (blocker.address() as { port: number }).port;
    try {
      const result = await exited(runLocalCommand({ DATA_DIR: join(dataDir, 'port-in-use'), PORT: String(port) }));
      expect(result.code).toBe(1);
      expect(result.stderr.trim()).toBe(`Cannot start the local runtime: Port ${port} (API) is already in use; set PORT to use another one`);
    } finally {
      blocker.close();
    }
  });

  it('no Java', async () => {
    const result = await exited(runLocalCommand({ DATA_DIR: join(dataDir, 'no-java'), PORT: '0', PATH: '/nonexistent' }));
    expect(result.code).toBe(1);
    expect(result.stderr.trim()).toBe('Cannot start the local runtime: Java is not installed (no `java` on PATH); DynamoDB Local needs Java 17 or later');
  });
});

// The operator command (`npm run admin -- …`) against the running local runtime, as an operator
// would use it: set a plan, replace a lost key.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, inject, it } from 'vitest';
import { registerAgent } from '../support/http-client.ts';
import { newClient } from '../support/runtime.ts';
import { expectError } from '../support/assertions.ts';

const client = newClient();
const run = promisify(execFile);

async function admin(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, ['bin/admin.ts', ...args], {
      env: { ...process.env, DATA_DIR: inject('dataDir') },
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

describe('npm run admin', () => {
  it('set-plan moves an agent to another plan, and its limits follow', async () => {
    const { agentId, apiKey } = await registerAgent(client);
    const result = await admin('set-plan', agentId, 'pro');
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain(`${agentId} is now on the pro plan`);
    const me = await client.get('/v1/agents/me', { apiKey });
    expect(me.json.data.plan).toBe('pro');
    expect(me.headers['x-ratelimit-limit']).toBe('600');
  });

  it('replace-key prints a new key once, which works at once', async () => {
    const { agentId } = await registerAgent(client);
    const result = await admin('replace-key', agentId);
    expect(result.code, result.stderr).toBe(0);
    const newKey = /(mk_test_[0-9A-Za-z]{40})/.exec(result.stdout)?.[1];
    expect(newKey).toBeDefined();
    const me = await client.get('/v1/agents/me', { apiKey: newKey });
    expect(me.status).toBe(200);
    expect(me.json.data).toMatchObject({ agentId, apiKeyPrefix: newKey?.slice(0, 12) });
  });

  it('refuses unknown agents, plans and commands with a message and exit code 1', async () => {
    const { agentId } = await registerAgent(client);
    const unknownAgent = await admin('set-plan', 'agt_00000000000000000000000000', 'pro');
    expect(unknownAgent.code).toBe(1);
    expect(unknownAgent.stderr).toContain('No agent agt_00000000000000000000000000');
    const badPlan = await admin('set-plan', agentId, 'platinum');
    expect(badPlan.code).toBe(1);
    expect(badPlan.stderr).toContain('free, pro or enterprise');
    const badCommand = await admin('delete-everything', agentId);
    expect(badCommand.code).toBe(1);
    expect(badCommand.stderr).toContain('Unknown command');
    expect((await admin()).stderr).toContain('Usage');
  });

  it('refuses to run without a local runtime or a stage', async () => {
    const { stderr, code } = await run(process.execPath, ['bin/admin.ts', 'set-plan', 'agt_00000000000000000000000000', 'pro'], {
      env: { ...process.env, DATA_DIR: '/nonexistent-data-dir' },
    }).then(
      (ok) => ({ ...ok, code: 0 }),
      (error: { code: number; stderr: string }) => error,
    );
    expect(code).toBe(1);
    expect(stderr).toContain('No local runtime is running');
  });
});

describe('a replaced key', () => {
  it('is refused once the runtime has not served it recently', async () => {
    const { agentId, apiKey } = await registerAgent(client);
    // The old key was never served by the runtime since registration, so no cache holds it.
    await admin('replace-key', agentId);
    expectError(await client.get('/v1/agents/me', { apiKey }), 401, 'auth/invalid-key');
  });
});

// The operator command against a deployed stack (`--stage test|live`), which cannot reach AWS from
// here: the document client is mocked, so the tests see exactly which table and writes the command
// would use, and how AWS's refusals reach the operator.
import { ResourceNotFoundException, TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { GetCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { resetConfig } from '../../shared/config.ts';
import { documentClient } from '../../shared/data/client.ts';
import { runOperatorCommand } from '../../lib/operator-commands.ts';

const mock = mockClient(documentClient);
const savedEnv = { ...process.env };
const AGENT_ID = 'agt_01JF3Q5Z8X2C7V9B4N6M1K0PQR';

function agentItem(overrides: Record<string, unknown> = {}) {
  return {
    pk: `AGENT#${AGENT_ID}`,
    sk: 'AGENT',
    entity: 'agent',
    agentId: AGENT_ID,
    role: 'seller',
    name: 'Seller bot',
    organization: { legalName: 'Acme GmbH', country: 'DE' },
    contactEmail: 'ops@acme.example',
    plan: 'free',
    environment: 'live',
    apiKeyPrefix: 'mk_live_abcd',
    apiKeyHash: 'a'.repeat(64),
    webhookCount: 0,
    createdAt: '2026-11-01T00:00:00.000Z',
    updatedAt: '2026-11-01T00:00:00.000Z',
    ...overrides,
  };
}

async function run(...args: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runOperatorCommand(args, { log: (line) => out.push(line), error: (line) => err.push(line) });
  return { code, stdout: out.join('\n'), stderr: err.join('\n') };
}

beforeEach(() => mock.reset());
afterEach(() => {
  process.env = { ...savedEnv };
  resetConfig();
});
afterAll(() => mock.restore());

describe('npm run admin -- … --stage', () => {
  it('set-plan changes the plan on the profile and its key item in the live table, in one transaction', async () => {
    mock.on(GetCommand).resolves({ Item: agentItem() });
    mock.on(TransactWriteCommand).resolves({});
    const result = await run('set-plan', AGENT_ID, 'enterprise', '--stage', 'live');
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain(`${AGENT_ID} is now on the enterprise plan`);
    const [read] = mock.commandCalls(GetCommand);
    expect(read!.args[0].input).toMatchObject({ TableName: 'agent-marketplace-live', Key: { pk: `AGENT#${AGENT_ID}`, sk: 'AGENT' }, ConsistentRead: true });
    const [write] = mock.commandCalls(TransactWriteCommand);
    const items = write!.args[0].input.TransactItems!;
    expect(items.map((item) => item.Update?.TableName)).toEqual(['agent-marketplace-live', 'agent-marketplace-live']);
    expect(items[0]!.Update!.ConditionExpression).toContain('apiKeyHash');
    expect(items[1]!.Update!.Key).toEqual({ pk: `APIKEY#${'a'.repeat(64)}`, sk: 'APIKEY' });
  });

  it('replace-key swaps the key in the sandbox table and prints a sandbox key once', async () => {
    mock.on(GetCommand).resolves({ Item: agentItem({ environment: 'test', apiKeyPrefix: 'mk_test_abcd' }) });
    mock.on(TransactWriteCommand).resolves({});
    const result = await run('replace-key', AGENT_ID, '--stage', 'test');
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/mk_test_[0-9A-Za-z]{40}/);
    const items = mock.commandCalls(TransactWriteCommand)[0]!.args[0].input.TransactItems!;
    expect(items.every((item) => (item.Update ?? item.Delete ?? item.Put)!.TableName === 'agent-marketplace-test')).toBe(true);
    expect(items[1]!.Delete!.Key).toEqual({ pk: `APIKEY#${'a'.repeat(64)}`, sk: 'APIKEY' });
  });

  it('replace-key retries when a rotation races it, and says so when the agent does not exist', async () => {
    mock.on(GetCommand).resolvesOnce({ Item: agentItem() }).resolvesOnce({ Item: agentItem() }).resolves({ Item: agentItem({ apiKeyHash: 'b'.repeat(64) }) });
    mock
      .on(TransactWriteCommand)
      .rejectsOnce(
        new TransactionCanceledException({
          message: 'cancelled',
          $metadata: {},
          CancellationReasons: [{ Code: 'ConditionalCheckFailed' }, { Code: 'None' }, { Code: 'None' }],
        }),
      )
      .resolves({});
    const result = await run('replace-key', AGENT_ID, '--stage', 'live');
    expect(result.code, result.stderr).toBe(0);
    expect(mock.commandCalls(TransactWriteCommand)).toHaveLength(2);
    expect(mock.commandCalls(TransactWriteCommand)[1]!.args[0].input.TransactItems![1]!.Delete!.Key).toEqual({
      pk: `APIKEY#${'b'.repeat(64)}`,
      sk: 'APIKEY',
    });

    mock.reset();
    mock.on(GetCommand).resolves({});
    const missing = await run('replace-key', AGENT_ID, '--stage', 'live');
    expect(missing.code).toBe(1);
    expect(missing.stderr).toBe(`No agent ${AGENT_ID}.`);
  });

  it.each([
    [new ResourceNotFoundException({ message: 'Requested resource not found', $metadata: {} }), 'does not exist: is the stack deployed'],
    [Object.assign(new Error('Could not load credentials from any providers'), { name: 'CredentialsProviderError' }), 'No AWS credentials'],
    [Object.assign(new Error('User is not authorized'), { name: 'AccessDeniedException' }), 'check the credentials'],
  ])('explains %s to the operator, with exit code 1', async (error, explanation) => {
    mock.on(GetCommand).rejects(error);
    const result = await run('set-plan', AGENT_ID, 'pro', '--stage', 'live');
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(explanation);
    expect(result.stderr).toContain('agent-marketplace-live');
  });

  it('refuses a bad stage, a bad id and a bad plan before calling AWS', async () => {
    expect((await run('set-plan', AGENT_ID, 'pro', '--stage', 'prod')).stderr).toContain('--stage must be test or live');
    expect((await run('set-plan', 'agt_x', 'pro', '--stage', 'live')).stderr).toContain('An agent id');
    expect((await run('set-plan', AGENT_ID, 'gold', '--stage', 'live')).stderr).toContain('The plan must be');
    expect(mock.calls()).toHaveLength(0);
  });
});

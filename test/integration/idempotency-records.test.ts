// Idempotency records against DynamoDB Local: one claim wins, responses are sealed at rest.
import { randomUUID } from 'node:crypto';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { documentClient, tableName } from '../../shared/data/client.ts';
import {
  claim,
  complete,
  IdempotencyRecordEntity,
  IN_PROGRESS_LEASE_SECONDS,
  markCommitted,
  recordingRetryDelayMs,
  release,
} from '../../shared/data/idempotency-records.ts';

const now = new Date('2026-11-22T10:00:00.000Z');

describe('idempotency records', () => {
  it('lets exactly one of many concurrent claims win', async () => {
    const scope = `agt_${randomUUID()}`;
    const outcomes = await Promise.all(Array.from({ length: 10 }, () => claim(scope, 'k1', 'fp', now)));
    expect(outcomes.filter((outcome) => outcome.outcome === 'claimed')).toHaveLength(1);
    expect(outcomes.filter((outcome) => outcome.outcome === 'in-progress')).toHaveLength(9);
  });

  it('replays a completed response, refuses a different request, and seals what it stores', async () => {
    const scope = `agt_${randomUUID()}`;
    const secretKey = `mk_test_${'S'.repeat(40)}`;
    expect(await claim(scope, 'k2', 'fp-a', now)).toEqual({ outcome: 'claimed' });
    await complete(scope, 'k2', { status: 201, body: { apiKey: secretKey }, headers: {} });
    expect(await claim(scope, 'k2', 'fp-a', now)).toEqual({
      outcome: 'replay',
      response: { status: 201, body: { apiKey: secretKey }, headers: {} },
    });
    expect(await claim(scope, 'k2', 'fp-b', now)).toEqual({ outcome: 'mismatch' });

    const stored = await documentClient.send(new GetCommand({ TableName: tableName(), Key: IdempotencyRecordEntity.key({ scope, idempotencyKey: 'k2' }) }));
    const raw = JSON.stringify(stored.Item);
    expect(raw).not.toContain(secretKey);
    expect(raw).not.toContain('k2"');
  });

  it('forgets a released claim, so the retry runs', async () => {
    const scope = `agt_${randomUUID()}`;
    await claim(scope, 'k3', 'fp', now);
    await release(scope, 'k3');
    expect(await claim(scope, 'k3', 'fp', now)).toEqual({ outcome: 'claimed' });
  });

  it('lets a retry take over a claim abandoned by a request that died', async () => {
    const scope = `agt_${randomUUID()}`;
    await claim(scope, 'k4', 'fp', now);
    const later = new Date(now.getTime() + (IN_PROGRESS_LEASE_SECONDS + 1) * 1000);
    expect(await claim(scope, 'k4', 'other', later)).toEqual({ outcome: 'mismatch' });
    expect(await claim(scope, 'k4', 'fp', later)).toEqual({ outcome: 'claimed' });
  });

  it('treats a record older than 24 hours as free', async () => {
    const scope = `agt_${randomUUID()}`;
    await claim(scope, 'k5', 'fp', now);
    await complete(scope, 'k5', { status: 200, body: {}, headers: {} });
    const nextDay = new Date(now.getTime() + 24 * 3600 * 1000 + 1000);
    expect(await claim(scope, 'k5', 'different', nextDay)).toEqual({ outcome: 'claimed' });
  });

  it('never lets a retry take over a claim marked committed, not even after the lease, and never releases it', async () => {
    const scope = `agt_${randomUUID()}`;
    await claim(scope, 'k6', 'fp', now);
    await markCommitted(scope, 'k6');
    await release(scope, 'k6'); // refused: only an in-progress claim can be released
    expect(await claim(scope, 'k6', 'fp', now)).toEqual({ outcome: 'unrecorded' });
    const later = new Date(now.getTime() + (IN_PROGRESS_LEASE_SECONDS + 1) * 1000);
    expect(await claim(scope, 'k6', 'fp', later)).toEqual({ outcome: 'unrecorded' });
    expect(await claim(scope, 'k6', 'other', later)).toEqual({ outcome: 'mismatch' });
    const nextDay = new Date(now.getTime() + 24 * 3600 * 1000 + 1000);
    expect(await claim(scope, 'k6', 'fp', nextDay)).toEqual({ outcome: 'claimed' }); // the 24 h are over
  });

  it('does not mark a completed claim committed: its stored response stays replayable', async () => {
    const scope = `agt_${randomUUID()}`;
    await claim(scope, 'k7', 'fp', now);
    await complete(scope, 'k7', { status: 201, body: { ok: true }, headers: {} });
    await markCommitted(scope, 'k7');
    expect(await claim(scope, 'k7', 'fp', now)).toEqual({ outcome: 'replay', response: { status: 201, body: { ok: true }, headers: {} } });
  });
});

describe('recording retries', () => {
  it('wait about 50, 150 and 450 ms, with up to half again of jitter', () => {
    expect([1, 2, 3].map((attempt) => recordingRetryDelayMs(attempt, () => 0))).toEqual([50, 150, 450]);
    expect([1, 2, 3].map((attempt) => recordingRetryDelayMs(attempt, () => 1))).toEqual([75, 225, 675]);
  });
});

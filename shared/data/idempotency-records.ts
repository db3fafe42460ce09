// Idempotency records (contract §1): one item per (caller, Idempotency-Key). A conditional Put claims
// the key before the handler runs, so two concurrent requests with one key cannot both execute.
// Stored responses can hold an API key (registration, rotation), so the record keeps only a hash of
// the Idempotency-Key and seals the response with a key derived from it: the table alone never yields
// a usable API key, while the client that retries with its Idempotency-Key gets its response back.
import { createCipheriv, createDecipheriv, createHash, hkdfSync, randomBytes } from 'node:crypto';
import { DeleteCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient, tableName } from './client.ts';
import { isConditionFailure, oldItemOf } from './conditions.ts';

export const idempotencyKeys = {
  /** scope: the agent id, or `public` for requests made without a key (registration). */
  record: (scope: string, idempotencyKey: string) => ({
    pk: `IDEMPOTENCY#${scope}#${createHash('sha256').update(idempotencyKey).digest('base64url')}`,
    sk: 'IDEMPOTENCY',
  }),
};

function sealingKey(scope: string, idempotencyKey: string): Buffer {
  return Buffer.from(hkdfSync('sha256', idempotencyKey, scope, 'idempotency-response', 32));
}

function seal(scope: string, idempotencyKey: string, response: StoredResponse): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', sealingKey(scope, idempotencyKey), iv);
  const sealed = Buffer.concat([cipher.update(JSON.stringify(response), 'utf8'), cipher.final()]);
  return [iv, cipher.getAuthTag(), sealed].map((part) => part.toString('base64url')).join('.');
}

function open(scope: string, idempotencyKey: string, sealed: string): StoredResponse {
  const [iv, tag, body] = sealed.split('.').map((part) => Buffer.from(part, 'base64url'));
  const decipher = createDecipheriv('aes-256-gcm', sealingKey(scope, idempotencyKey), iv as Buffer);
  decipher.setAuthTag(tag as Buffer);
  return JSON.parse(Buffer.concat([decipher.update(body as Buffer), decipher.final()]).toString('utf8')) as StoredResponse;
}

/** A stored response is replayed for 24 hours. */
export const IDEMPOTENCY_TTL_SECONDS = 24 * 60 * 60;
/** A claim older than this is taken to belong to a request that died, and may be taken over. */
export const IN_PROGRESS_LEASE_SECONDS = 60;

export interface StoredResponse {
  status: number;
  /** The success `data`, or the error body fields for a stored 4xx. */
  body: unknown;
  headers: Record<string, string>;
}

export type ClaimOutcome =
  | { outcome: 'claimed' }
  | { outcome: 'replay'; response: StoredResponse }
  | { outcome: 'mismatch' }
  | { outcome: 'in-progress' };

interface RecordItem {
  status: 'in_progress' | 'completed';
  fingerprint: string;
  leaseUntil?: number;
  /** The sealed StoredResponse. */
  response?: string;
  expiresAt: number;
}

export async function claim(scope: string, idempotencyKey: string, fingerprint: string, now: Date, attempt = 1): Promise<ClaimOutcome> {
  const nowSeconds = Math.floor(now.getTime() / 1000);
  try {
    await documentClient.send(
      new PutCommand({
        TableName: tableName(),
        Item: {
          ...idempotencyKeys.record(scope, idempotencyKey),
          entity: 'idempotency',
          status: 'in_progress',
          fingerprint,
          leaseUntil: nowSeconds + IN_PROGRESS_LEASE_SECONDS,
          expiresAt: nowSeconds + IDEMPOTENCY_TTL_SECONDS,
        },
        // Free, expired (TTL deletion lags by up to days), or abandoned by a request that died.
        ConditionExpression:
          'attribute_not_exists(pk) OR expiresAt < :now OR (#status = :inProgress AND leaseUntil < :now AND fingerprint = :fingerprint)',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: { ':now': nowSeconds, ':inProgress': 'in_progress', ':fingerprint': fingerprint },
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      }),
    );
    return { outcome: 'claimed' };
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
    const existing = oldItemOf(error) as RecordItem | undefined;
    if (!existing) {
      // Released between our write and its condition check: try once more, then report a conflict.
      return attempt < 2 ? claim(scope, idempotencyKey, fingerprint, now, attempt + 1) : { outcome: 'in-progress' };
    }
    if (existing.fingerprint !== fingerprint) return { outcome: 'mismatch' };
    if (existing.status === 'completed' && existing.response) {
      return { outcome: 'replay', response: open(scope, idempotencyKey, existing.response) };
    }
    return { outcome: 'in-progress' };
  }
}

export async function complete(scope: string, idempotencyKey: string, response: StoredResponse): Promise<void> {
  await documentClient.send(
    new UpdateCommand({
      TableName: tableName(),
      Key: idempotencyKeys.record(scope, idempotencyKey),
      UpdateExpression: 'SET #status = :completed, #response = :response REMOVE leaseUntil',
      ExpressionAttributeNames: { '#status': 'status', '#response': 'response' },
      ExpressionAttributeValues: { ':completed': 'completed', ':response': seal(scope, idempotencyKey, response) },
    }),
  );
}

/** Forgets a claim whose request failed with a 5xx, so that a retry runs the request again. */
export async function release(scope: string, idempotencyKey: string): Promise<void> {
  await documentClient.send(
    new DeleteCommand({
      TableName: tableName(),
      Key: idempotencyKeys.record(scope, idempotencyKey),
      ConditionExpression: '#status = :inProgress',
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: { ':inProgress': 'in_progress' },
    }),
  ).catch((error: unknown) => {
    if (!isConditionFailure(error)) throw error;
  });
}

// Idempotency records (contract §1): one item per (caller, Idempotency-Key). A conditional Put claims
// the key before the handler runs, so two concurrent requests with one key cannot both execute.
// Stored responses can hold an API key (registration, rotation), so the record keeps only a hash of
// the Idempotency-Key and seals the response with a key derived from it: the table alone never yields
// a usable API key, while the client that retries with its Idempotency-Key gets its response back.
// A claim whose request committed its changes is never released: its response is recorded, or, when
// the store refuses that, the claim is marked `committed`, which no retry can take over.
import { setTimeout as sleep } from 'node:timers/promises';
import { createCipheriv, createDecipheriv, createHash, hkdfSync, randomBytes } from 'node:crypto';
import * as z from '../schemas/zod.ts';
import { ConditionRefused, defineEntity } from './entity.ts';

export const IdempotencyRecordEntity = defineEntity({
  name: 'idempotency',
  schema: z.object({
    /**
     * in_progress: the request runs (or died: its lease tells). completed: its response is stored.
     * committed: it ran and committed its changes, but its response could not be stored.
     */
    status: z.enum(['in_progress', 'committed', 'completed']),
    fingerprint: z.string(),
    /** Epoch seconds after which an in-progress claim counts as abandoned. */
    leaseUntil: z.optional(z.int()),
    /** The sealed StoredResponse. */
    response: z.optional(z.string()),
    expiresAt: z.int(),
  }),
  /** scope: the agent id, or `public#<address>` for requests made without a key (registration). */
  key: ({ scope, idempotencyKey }: { scope: string; idempotencyKey: string }) => ({
    pk: `IDEMPOTENCY#${scope}#${createHash('sha256').update(idempotencyKey).digest('base64url')}`,
    sk: 'IDEMPOTENCY',
  }),
});

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

const { and, eq, exists, lt, notExists, or } = IdempotencyRecordEntity.where;

export type ClaimOutcome =
  | { outcome: 'claimed' }
  | { outcome: 'replay'; response: StoredResponse }
  | { outcome: 'mismatch' }
  | { outcome: 'in-progress' }
  /** The request ran and committed, but its response was not stored: it must not run again, and cannot be replayed. */
  | { outcome: 'unrecorded' };

export async function claim(scope: string, idempotencyKey: string, fingerprint: string, now: Date, attempt = 1): Promise<ClaimOutcome> {
  const nowSeconds = Math.floor(now.getTime() / 1000);
  try {
    await IdempotencyRecordEntity.put(
      {
        status: 'in_progress',
        fingerprint,
        leaseUntil: nowSeconds + IN_PROGRESS_LEASE_SECONDS,
        expiresAt: nowSeconds + IDEMPOTENCY_TTL_SECONDS,
      },
      { scope, idempotencyKey },
      {
        // Free, expired (TTL deletion lags by up to days), or abandoned by a request that died.
        condition: or(
          notExists('pk'),
          lt('expiresAt', nowSeconds),
          and(eq('status', 'in_progress'), lt('leaseUntil', nowSeconds), eq('fingerprint', fingerprint)),
        ),
      },
    );
    return { outcome: 'claimed' };
  } catch (error) {
    if (!(error instanceof ConditionRefused)) throw error;
    const existing = error.current as z.output<typeof IdempotencyRecordEntity.schema> | undefined;
    if (!existing) {
      // Released between our write and its condition check: try once more, then report a conflict.
      return attempt < 2 ? claim(scope, idempotencyKey, fingerprint, now, attempt + 1) : { outcome: 'in-progress' };
    }
    if (existing.fingerprint !== fingerprint) return { outcome: 'mismatch' };
    if (existing.status === 'completed' && existing.response) {
      return { outcome: 'replay', response: open(scope, idempotencyKey, existing.response) };
    }
    if (existing.status === 'committed') return { outcome: 'unrecorded' };
    return { outcome: 'in-progress' };
  }
}

/** Stores the response of the request that holds the claim (a claim that vanished meanwhile stores nothing). */
export async function complete(scope: string, idempotencyKey: string, response: StoredResponse): Promise<void> {
  try {
    await IdempotencyRecordEntity.update(
      { scope, idempotencyKey },
      { set: { status: 'completed', response: seal(scope, idempotencyKey, response) }, remove: ['leaseUntil'] },
      { allow: ['status', 'response', 'leaseUntil'], condition: exists('pk') },
    );
  } catch (error) {
    if (!(error instanceof ConditionRefused)) throw error;
  }
}

/**
 * Marks the claim of a request that committed its changes but whose response could not be stored:
 * no retry may take it over, lease or not (a smaller write than the response, without it).
 */
export async function markCommitted(scope: string, idempotencyKey: string): Promise<void> {
  try {
    await IdempotencyRecordEntity.update(
      { scope, idempotencyKey },
      { set: { status: 'committed' }, remove: ['leaseUntil'] },
      {
        allow: ['status', 'leaseUntil'],
        condition: and(exists('pk'), eq('status', 'in_progress')),
      },
    );
  } catch (error) {
    if (!(error instanceof ConditionRefused)) throw error;
  }
}

/** What became of a committed request's claim: its response stored, only marked committed, or neither. */
export type RecordedOutcome = 'completed' | 'committed' | 'unrecorded';

/** Waits before the recording's attempts 2, 3…: about 50, 150, 450 ms, each with up to half again of jitter. */
export function recordingRetryDelayMs(attempt: number, random: () => number = Math.random): number {
  const base = 50 * 3 ** (attempt - 1);
  return Math.round(base * (1 + random() / 2));
}

/** A refusal that another attempt cannot change (the stored response too large, no permission): go straight to the fallback. */
export function isPermanentRefusal(error: unknown): boolean {
  const name = error instanceof Error ? error.name : '';
  return name === 'ValidationException' || name === 'AccessDeniedException' || name === 'ResourceNotFoundException';
}

async function withRetries(write: () => Promise<void>, attempts: number, deadline: number): Promise<boolean> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      await write();
      return true;
    } catch (error) {
      if (isPermanentRefusal(error) || attempt >= attempts) return false;
      const delay = recordingRetryDelayMs(attempt);
      if (Date.now() + delay > deadline) return false;
      await sleep(delay);
    }
  }
}

const COMPLETE_ATTEMPTS = 4;
const MARK_ATTEMPTS = 3;

/**
 * Records the outcome of a request that committed its changes (its handler returned): the response
 * (`undefined` when it cannot be stored), retried on transient refusals until `deadline` (epoch ms);
 * failing that, the claim is marked committed. Never throws and never releases the claim: the
 * request's work is done, and running it again is what Idempotency-Key exists to prevent.
 */
export async function recordCommittedOutcome(
  scope: string,
  idempotencyKey: string,
  response: StoredResponse | undefined,
  deadline: number,
): Promise<RecordedOutcome> {
  if (response && (await withRetries(() => complete(scope, idempotencyKey, response), COMPLETE_ATTEMPTS, deadline))) return 'completed';
  if (await withRetries(() => markCommitted(scope, idempotencyKey), MARK_ATTEMPTS, deadline)) return 'committed';
  return 'unrecorded';
}

/** Forgets a claim whose request failed with a 5xx, so that a retry runs the request again. */
export async function release(scope: string, idempotencyKey: string): Promise<void> {
  try {
    await IdempotencyRecordEntity.delete(
      { scope, idempotencyKey },
      { condition: eq('status', 'in_progress') },
    );
  } catch (error) {
    if (!(error instanceof ConditionRefused)) throw error;
  }
}

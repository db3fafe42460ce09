// Opaque pagination cursors: the DynamoDB LastEvaluatedKey plus the list it belongs to, sealed with
// AES-256-GCM under a key derived from CURSOR_SIGNING_KEY. A client sees random bytes (no table keys),
// and a cursor that was edited, or that belongs to another list or another caller, fails to open: 422.
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import { config } from '../config.ts';
import { fail } from '../failures.ts';

type Key = Record<string, unknown>;

const IV_BYTES = 12;
const TAG_BYTES = 16;

let derived: { secret: string; key: Buffer } | undefined;

function cursorKey(): Buffer {
  const secret = config().CURSOR_SIGNING_KEY;
  if (derived?.secret !== secret) derived = { secret, key: Buffer.from(hkdfSync('sha256', secret, 'agent-marketplace', 'pagination-cursor', 32)) };
  return derived.key;
}

/** `scope` names the list and the caller, e.g. `webhooks:agt_…`; it is bound to the cursor as associated data. */
export function encodeCursor(scope: string, lastEvaluatedKey: Key | undefined): string | null {
  if (!lastEvaluatedKey) return null;
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', cursorKey(), iv);
  cipher.setAAD(Buffer.from(scope));
  const sealed = Buffer.concat([cipher.update(JSON.stringify(lastEvaluatedKey), 'utf8'), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), sealed]).toString('base64url');
}

export function decodeCursor(scope: string, cursor: string | undefined): Key | undefined {
  if (cursor === undefined) return undefined;
  const invalid = () =>
    fail.invalid('The cursor is not valid for this list', [
      { path: 'cursor', message: 'Pass the nextCursor value of the previous page of this same list, unchanged' },
    ]);
  if (!/^[A-Za-z0-9_-]+$/.test(cursor)) throw invalid();
  const bytes = Buffer.from(cursor, 'base64url');
  if (bytes.length <= IV_BYTES + TAG_BYTES) throw invalid();
  try {
    const decipher = createDecipheriv('aes-256-gcm', cursorKey(), bytes.subarray(0, IV_BYTES));
    decipher.setAAD(Buffer.from(scope));
    decipher.setAuthTag(bytes.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
    const plain = Buffer.concat([decipher.update(bytes.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString('utf8');
    const key: unknown = JSON.parse(plain);
    if (typeof key !== 'object' || key === null || Array.isArray(key)) throw new Error('not a key');
    return key as Key;
  } catch {
    throw invalid();
  }
}

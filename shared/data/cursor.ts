// Opaque, tamper-evident pagination cursors: the DynamoDB LastEvaluatedKey plus the list it belongs to,
// HMAC-signed. A cursor from another list, another caller, or edited by hand is refused with 422.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { config } from '../config.ts';
import { errors } from '../http/errors.ts';

type Key = Record<string, unknown>;

function sign(payload: string): string {
  return createHmac('sha256', config().CURSOR_SIGNING_KEY).update(payload).digest('base64url');
}

/** `scope` names the list and the caller, e.g. `webhooks:agt_…`. */
export function encodeCursor(scope: string, lastEvaluatedKey: Key | undefined): string | null {
  if (!lastEvaluatedKey) return null;
  const payload = Buffer.from(JSON.stringify({ s: scope, k: lastEvaluatedKey })).toString('base64url');
  return `${payload}.${sign(payload)}`;
}

export function decodeCursor(scope: string, cursor: string | undefined): Key | undefined {
  if (cursor === undefined) return undefined;
  const invalid = () =>
    errors.invalid('The cursor is not valid for this list', [
      { path: 'cursor', message: 'Pass the nextCursor value of the previous page of this same list, unchanged' },
    ]);
  const [payload, signature, extra] = cursor.split('.');
  if (!payload || !signature || extra !== undefined) throw invalid();
  const expected = Buffer.from(sign(payload));
  const given = Buffer.from(signature);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) throw invalid();
  const decoded = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as { s?: unknown; k?: unknown };
  if (decoded.s !== scope || typeof decoded.k !== 'object' || decoded.k === null) throw invalid();
  return decoded.k as Key;
}

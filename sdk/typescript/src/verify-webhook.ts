// Verifies a webhook delivery by its Standard Webhooks headers: `webhook-signature` is
// `v1,<base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<raw body>">` keyed by the UTF-8 bytes
// of the subscription's secret (or, for a secret in the Standard Webhooks form `whsec_<base64>`, such
// as the one `agent-marketplace listen` prints, by the bytes it encodes), possibly several
// space-separated entries (any may match). The
// timestamp is covered by the signature, so a replayed old delivery is refused. node:crypto keeps
// this synchronous (Web Crypto's HMAC is async only) and gives timingSafeEqual.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { WebhookVerificationError } from './errors.ts';
import type { MarketplaceEvent } from './types.ts';

/** Request headers as a Headers object, or a plain object (any case; Node's IncomingHttpHeaders included). */
export type WebhookHeaders = Headers | Record<string, string | string[] | undefined>;

export interface VerifyWebhookInput {
  /** The raw request body exactly as received (string or bytes). Re-serialised JSON will not verify. */
  body: string | Uint8Array;
  headers: WebhookHeaders;
  /** The subscription's secret, as given when it was created; or a `whsec_…` secret (`agent-marketplace listen`'s). */
  secret: string;
  /** How far the timestamp may be from now, either way (default 300 s). */
  toleranceSeconds?: number;
  /** The time to check against (default: now); for tests. */
  now?: Date;
}

function header(headers: WebhookHeaders, name: string): string | undefined {
  if (typeof (headers as Headers).get === 'function' && typeof (headers as Headers).forEach === 'function') {
    return (headers as Headers).get(name) ?? undefined;
  }
  const values: string[] = [];
  for (const [key, value] of Object.entries(headers as Record<string, string | string[] | undefined>)) {
    if (key.toLowerCase() !== name || value === undefined) continue;
    values.push(...(Array.isArray(value) ? value : [value]));
  }
  // A repeated webhook-signature header adds signatures; a repeated id or timestamp must agree.
  if (values.length === 0) return undefined;
  if (name === 'webhook-signature') return values.join(' ');
  if (new Set(values).size > 1) throw new WebhookVerificationError(`The ${name} header appears more than once with different values`);
  return values[0];
}

/** The bytes the sender signed: `${id}.${timestamp}.` followed by the raw body. */
function signedContent(id: string, timestamp: string, body: string | Uint8Array): Buffer {
  const prefix = Buffer.from(`${id}.${timestamp}.`, 'utf8');
  const payload = typeof body === 'string' ? Buffer.from(body, 'utf8') : Buffer.from(body.buffer, body.byteOffset, body.byteLength);
  return Buffer.concat([prefix, payload]);
}

/**
 * Checks a delivery's signature (in constant time) and timestamp, and returns its event. Throws
 * WebhookVerificationError when anything is missing or wrong; never trust the body before this returns.
 */
export function verifyWebhook(input: VerifyWebhookInput): MarketplaceEvent {
  const { body, headers, secret } = input;
  const toleranceSeconds = input.toleranceSeconds ?? 300;
  if (typeof body !== 'string' && !(body instanceof Uint8Array)) {
    throw new WebhookVerificationError('body must be the raw request body (a string or bytes), not parsed JSON: re-serialised JSON does not verify');
  }
  if (typeof secret !== 'string' || secret === '') throw new WebhookVerificationError('secret must be the subscription secret (a non-empty string)');
  if (!headers || typeof headers !== 'object') throw new WebhookVerificationError('headers must be the request headers');

  const id = header(headers, 'webhook-id');
  const timestamp = header(headers, 'webhook-timestamp');
  const signatures = header(headers, 'webhook-signature');
  if (id === undefined || timestamp === undefined || signatures === undefined) {
    const missing = [id === undefined && 'webhook-id', timestamp === undefined && 'webhook-timestamp', signatures === undefined && 'webhook-signature'].filter(Boolean).join(', ');
    if (header(headers, 'x-marketplace-signature') !== undefined) {
      throw new WebhookVerificationError(
        `Missing ${missing}: X-Marketplace-Signature alone is not accepted, because it does not cover the timestamp and so cannot refuse a replayed delivery`,
      );
    }
    throw new WebhookVerificationError(`Missing ${missing} header${missing.includes(',') ? 's' : ''}`);
  }

  if (!/^\d{1,15}$/.test(timestamp)) throw new WebhookVerificationError('webhook-timestamp must be Unix seconds');
  const now = Math.floor((input.now ?? new Date()).getTime() / 1000);
  const age = now - Number(timestamp);
  if (age > toleranceSeconds) throw new WebhookVerificationError(`The webhook timestamp is too old (${age} s ago; tolerance ${toleranceSeconds} s)`);
  if (-age > toleranceSeconds) throw new WebhookVerificationError(`The webhook timestamp is too far in the future (${-age} s ahead; tolerance ${toleranceSeconds} s)`);

  // A secret in the Standard Webhooks form is the key it encodes; its own UTF-8 bytes stay a candidate,
  // for a subscription secret that merely starts with `whsec_`.
  const keys = [Buffer.from(secret, 'utf8')];
  if (/^whsec_[A-Za-z0-9+/]+={0,2}$/.test(secret)) keys.push(Buffer.from(secret.slice('whsec_'.length), 'base64'));
  const content = signedContent(id, timestamp, body);
  const expectations = keys.map((key) => createHmac('sha256', key).update(content).digest());
  let matched = false;
  // Entries are space-separated; a Headers object joins repeated headers with ", ", hence the trim.
  for (const entry of signatures.split(' ').map((part) => part.replace(/,$/, ''))) {
    const comma = entry.indexOf(',');
    if (comma < 0 || entry.slice(0, comma) !== 'v1') continue;
    const candidate = Buffer.from(entry.slice(comma + 1), 'base64');
    // timingSafeEqual needs equal lengths; a wrong length is a mismatch that reveals nothing of the key.
    for (const expected of expectations) if (candidate.length === expected.length && timingSafeEqual(candidate, expected)) matched = true;
  }
  if (!matched) throw new WebhookVerificationError('No webhook-signature matches: wrong secret, or the body was changed (verify the raw body)');

  let event: unknown;
  try {
    event = JSON.parse(typeof body === 'string' ? body : Buffer.from(body.buffer, body.byteOffset, body.byteLength).toString('utf8'));
  } catch {
    throw new WebhookVerificationError('The signed body is not JSON');
  }
  const envelope = event as Partial<MarketplaceEvent> | null;
  if (!envelope || typeof envelope !== 'object' || typeof envelope.id !== 'string' || typeof envelope.type !== 'string' || typeof envelope.timestamp !== 'string' || typeof envelope.data !== 'object') {
    throw new WebhookVerificationError('The signed body is not an event ({id, type, timestamp, data})');
  }
  return envelope as MarketplaceEvent;
}

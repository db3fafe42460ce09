// One signed POST to a subscriber: the exact body, HMAC-SHA-256 of it under the subscription's secret
// (the specification's X-Marketplace-Signature) and of `id.timestamp.body` (the Standard Webhooks
// headers, so the timestamp is signed and a receiver can refuse replays), one 10 s deadline for the
// whole exchange (name resolution included), no redirect followed, and the outcome classified the
// contract's way. The host is resolved here and the connection made to the addresses resolved; where
// private targets are not allowed (every deployed stack) every address is checked first, so a DNS
// answer that changes between the check and the connection (rebinding) cannot redirect the request.
import { createHmac } from 'node:crypto';
import http from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import type { DeliveryAttempt } from '../schemas/webhooks.ts';
import { isForbiddenAddress, systemResolver, type Resolver } from './webhook-urls.ts';

export const DELIVERY_TIMEOUT_MS = 10_000;
const RESPONSE_BODY_BYTES = 1024;
// No URL until the marketplace has a public site: a placeholder would point receivers at nobody.
export const USER_AGENT = 'AgentMarketplace-Webhooks/1.0';

/** X-Marketplace-Signature: `sha256=` and the hex HMAC-SHA-256 of the exact body, keyed by the secret's UTF-8 bytes. */
export function signatureOf(body: string, secret: string): string {
  return `sha256=${createHmac('sha256', secret).update(body, 'utf8').digest('hex')}`;
}

/**
 * The Standard Webhooks signature (webhook-signature): `v1,` and the base64 HMAC-SHA-256 of
 * `<webhook-id>.<webhook-timestamp>.<body>`, under the same key as X-Marketplace-Signature (the secret's
 * UTF-8 bytes). A Standard Webhooks library takes that key as `whsec_` + base64(UTF-8 secret).
 */
export function standardSignatureOf(eventId: string, timestamp: string, body: string, secret: string): string {
  return `v1,${createHmac('sha256', secret).update(`${eventId}.${timestamp}.${body}`, 'utf8').digest('base64')}`;
}

export type SendOutcome = Pick<DeliveryAttempt, 'statusCode' | 'error' | 'durationMs' | 'responseBody'> & {
  /** The response's Retry-After header, for the retry decision; null without a response or header. */
  retryAfter: string | null;
};

function errorClass(error: NodeJS.ErrnoException): NonNullable<DeliveryAttempt['error']> {
  const code = error.code ?? '';
  if (code === 'ECONNREFUSED') return 'connection-refused';
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN' || code === 'EAI_NONAME' || code === 'EAI_FAIL') return 'dns';
  if (code.startsWith('ERR_TLS') || code.startsWith('ERR_SSL') || code.includes('CERT') || code.includes('SIGNATURE') || /ssl|tls|certificate/i.test(error.message)) return 'tls';
  return 'connection-error';
}

class Timeout extends Error {}

export interface PostOptions {
  secret: string;
  eventId: string;
  /** Only the local runtime allows private, loopback and link-local targets. */
  allowPrivateAddresses: boolean;
  /** The whole exchange's limit: name resolution, connection, request and response. */
  timeoutMs?: number;
  now?: Date;
  /** Name resolution; the system's by default (tests inject a slow or failing one). */
  resolve?: Resolver;
}

/** `work`, or a Timeout when the deadline passes first (the work itself runs on, unobserved). */
function beforeDeadline<T>(work: Promise<T>, deadline: AbortSignal): Promise<T> {
  if (deadline.aborted) return Promise.reject(new Timeout('timeout'));
  return new Promise<T>((resolve, reject) => {
    const expire = () => reject(new Timeout('timeout'));
    deadline.addEventListener('abort', expire, { once: true });
    work.then(resolve, reject).finally(() => deadline.removeEventListener('abort', expire));
  });
}

export async function postSigned(url: string, body: string, options: PostOptions): Promise<SendOutcome> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  // One deadline from here: the sending slot's lease counts on an attempt ending within it.
  const deadline = new AbortController();
  const timer = setTimeout(() => deadline.abort(), options.timeoutMs ?? DELIVERY_TIMEOUT_MS);
  try {
    return await exchange(url, body, options, deadline.signal, elapsed);
  } finally {
    clearTimeout(timer);
  }
}

async function exchange(url: string, body: string, options: PostOptions, deadline: AbortSignal, elapsed: () => number): Promise<SendOutcome> {
  const target = new URL(url);
  const host = target.hostname.replace(/^\[|\]$/g, '');
  let addresses: { address: string; family: number }[];
  try {
    // A hung getaddrinfo keeps its thread-pool thread until the system gives up; the attempt does not wait for it.
    addresses = isIP(host) ? [{ address: host, family: isIP(host) }] : (await beforeDeadline((options.resolve ?? systemResolver)(host), deadline)).map((address) => ({ address, family: isIP(address) }));
  } catch (error) {
    return { statusCode: null, error: error instanceof Timeout ? 'timeout' : errorClass(error as NodeJS.ErrnoException), durationMs: elapsed(), responseBody: null, retryAfter: null };
  }
  const first = addresses[0];
  if (!first) return { statusCode: null, error: 'dns', durationMs: elapsed(), responseBody: null, retryAfter: null };
  if (!options.allowPrivateAddresses && addresses.some((entry) => isForbiddenAddress(entry.address))) return { statusCode: null, error: 'forbidden-address', durationMs: elapsed(), responseBody: null, retryAfter: null };
  // The connection goes to the addresses resolved (and checked) here, whatever a second lookup would say.
  const pinned: LookupFunction = (_hostname, lookupOptions, callback) => {
    if ((lookupOptions as { all?: boolean }).all) (callback as unknown as (error: null, addresses: { address: string; family: number }[]) => void)(null, addresses);
    else callback(null, first.address, first.family);
  };
  const timestamp = String(Math.floor((options.now ?? new Date()).getTime() / 1000));
  const transport = target.protocol === 'https:' ? https : http;
  return new Promise<SendOutcome>((resolve) => {
    let settled = false;
    const finish = (outcome: Omit<SendOutcome, 'durationMs'>) => {
      if (settled) return;
      settled = true;
      deadline.removeEventListener('abort', expire);
      resolve({ ...outcome, durationMs: elapsed() });
    };
    const request = transport.request(
      target,
      {
        method: 'POST',
        agent: false, // a fresh connection per attempt: no socket reuse across subscribers
        lookup: pinned,
        headers: {
          'content-type': 'application/json; charset=utf-8',
          'content-length': Buffer.byteLength(body),
          'user-agent': USER_AGENT,
          'x-marketplace-signature': signatureOf(body, options.secret),
          'x-marketplace-timestamp': timestamp,
          'x-marketplace-event-id': options.eventId,
          'webhook-id': options.eventId,
          'webhook-timestamp': timestamp,
          'webhook-signature': standardSignatureOf(options.eventId, timestamp, body, options.secret),
        },
      },
      (response) => {
        const status = response.statusCode ?? 0;
        const chunks: Buffer[] = [];
        let size = 0;
        const done = () => {
          const text = Buffer.concat(chunks).subarray(0, RESPONSE_BODY_BYTES).toString('utf8');
          const error = status >= 200 && status < 300 ? null : status >= 300 && status < 400 ? 'redirect' : 'non-2xx';
          const retryAfter = response.headers['retry-after'];
          finish({ statusCode: status, error, responseBody: text, retryAfter: error === null ? null : (retryAfter ?? null) });
          response.destroy();
        };
        response.on('data', (chunk: Buffer) => {
          if (size < RESPONSE_BODY_BYTES) chunks.push(chunk);
          size += chunk.length;
          if (size >= RESPONSE_BODY_BYTES) done(); // the rest is not needed
        });
        response.once('end', done);
        response.once('error', done);
      },
    );
    const expire = () => request.destroy(new Timeout('timeout'));
    if (deadline.aborted) expire();
    else deadline.addEventListener('abort', expire, { once: true });
    request.once('error', (error: NodeJS.ErrnoException) => {
      finish({ statusCode: null, error: error instanceof Timeout ? 'timeout' : errorClass(error), responseBody: null, retryAfter: null });
    });
    request.end(body);
  });
}

// One signed POST to a subscriber: the exact body, HMAC-SHA-256 of it under the subscription's secret
// (the specification's X-Marketplace-Signature) and of `id.timestamp.body` (the Standard Webhooks
// headers, so the timestamp is signed and a receiver can refuse replays), a 10 s limit on the whole exchange, no redirect followed, and the outcome classified the contract's
// way. Where private targets are not allowed (every deployed stack), the host is resolved here, every
// address checked, and the connection made to the checked address: a DNS answer that changes between
// the check and the connection (rebinding) cannot redirect the request.
import { createHmac } from 'node:crypto';
import { lookup } from 'node:dns/promises';
import http from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import type { DeliveryAttempt } from '../schemas/webhooks.ts';
import { isForbiddenAddress } from './webhook-urls.ts';

export const DELIVERY_TIMEOUT_MS = 10_000;
const RESPONSE_BODY_BYTES = 1024;
export const USER_AGENT = 'AgentMarketplace-Webhooks/1.0 (+https://docs.agent-marketplace.example/webhooks)';

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

export type SendOutcome = Pick<DeliveryAttempt, 'statusCode' | 'error' | 'durationMs' | 'responseBody'>;

function errorClass(error: NodeJS.ErrnoException): NonNullable<DeliveryAttempt['error']> {
  const code = error.code ?? '';
  if (code === 'ECONNREFUSED') return 'connection-refused';
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN' || code === 'EAI_NONAME' || code === 'EAI_FAIL') return 'dns';
  if (code.startsWith('ERR_TLS') || code.startsWith('ERR_SSL') || code.includes('CERT') || code.includes('SIGNATURE') || /ssl|tls|certificate/i.test(error.message)) return 'tls';
  return 'connection-error';
}

class Timeout extends Error {}

export async function postSigned(url: string, body: string, options: { secret: string; eventId: string; allowPrivateAddresses: boolean; timeoutMs?: number; now?: Date }): Promise<SendOutcome> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const target = new URL(url);
  const host = target.hostname.replace(/^\[|\]$/g, '');
  let pinned: LookupFunction | undefined;
  if (!options.allowPrivateAddresses) {
    let addresses: { address: string; family: number }[];
    try {
      addresses = isIP(host) ? [{ address: host, family: isIP(host) }] : await lookup(host, { all: true, verbatim: true });
    } catch (error) {
      return { statusCode: null, error: errorClass(error as NodeJS.ErrnoException), durationMs: elapsed(), responseBody: null };
    }
    const first = addresses[0];
    if (!first || addresses.some((entry) => isForbiddenAddress(entry.address))) return { statusCode: null, error: 'forbidden-address', durationMs: elapsed(), responseBody: null };
    pinned = (_hostname, lookupOptions, callback) => {
      if ((lookupOptions as { all?: boolean }).all) (callback as unknown as (error: null, addresses: { address: string; family: number }[]) => void)(null, [first]);
      else callback(null, first.address, first.family);
    };
  }
  const timestamp = String(Math.floor((options.now ?? new Date()).getTime() / 1000));
  const transport = target.protocol === 'https:' ? https : http;
  return new Promise<SendOutcome>((resolve) => {
    let settled = false;
    const finish = (outcome: Omit<SendOutcome, 'durationMs'>) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve({ ...outcome, durationMs: elapsed() });
    };
    const request = transport.request(
      target,
      {
        method: 'POST',
        agent: false, // a fresh connection per attempt: no socket reuse across subscribers
        ...(pinned ? { lookup: pinned } : {}),
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
          finish({ statusCode: status, error, responseBody: text });
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
    const timer = setTimeout(() => {
      request.destroy(new Timeout('timeout'));
    }, options.timeoutMs ?? DELIVERY_TIMEOUT_MS);
    request.once('error', (error: NodeJS.ErrnoException) => {
      finish({ statusCode: null, error: error instanceof Timeout ? 'timeout' : errorClass(error), responseBody: null });
    });
    request.end(body);
  });
}

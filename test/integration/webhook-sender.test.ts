// One signed POST (shared/domain/webhook-sender.ts) to a real receiver on loopback, with name
// resolution injected: the deadline covers resolution, connection and response together, the
// connection goes to the addresses resolved (and, where private targets are not allowed, checked),
// and a failed resolution is a `dns` error.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Receiver } from '../support/receiver.ts';
import { postSigned, type PostOptions } from '../../shared/domain/webhook-sender.ts';
import type { Resolver } from '../../shared/domain/webhook-urls.ts';

const receiver = new Receiver();
beforeAll(async () => {
  await receiver.start();
});
afterAll(async () => {
  await receiver.stop();
});

const BODY = JSON.stringify({ id: 'evt_01JF3Q5Z8X2C7V9B4N6M1K0PQR', type: 'webhook.test', timestamp: '2026-11-22T10:00:00.000Z', data: {} });
const options = (overrides: Partial<PostOptions>): PostOptions => ({ secret: 'sender-secret-0123456789', eventId: 'evt_01JF3Q5Z8X2C7V9B4N6M1K0PQR', allowPrivateAddresses: true, ...overrides });
/** A URL naming a host only the injected resolver knows, on the receiver's port. */
const hostUrl = (path: string) => `http://hooks.example.test:${receiver.port}${path}`;
/** Answers with `addresses` after `ms`. */
const resolverAfter = (ms: number, addresses: string[]): Resolver => () => new Promise((resolve) => setTimeout(() => resolve(addresses), ms));

describe('postSigned', () => {
  it('ends an attempt whose name resolution hangs as a timeout, at the deadline', async () => {
    // The resolver answers (with an address the check refuses) only well after the deadline.
    const outcome = await postSigned(hostUrl('/never'), BODY, options({ allowPrivateAddresses: false, timeoutMs: 300, resolve: resolverAfter(3_000, ['127.0.0.1']) }));
    expect(outcome).toMatchObject({ statusCode: null, error: 'timeout', responseBody: null });
    expect(receiver.at('/never')).toEqual([]);
  });

  it('counts resolution and the exchange against one deadline', async () => {
    // Each alone fits in the deadline; together they do not (with seconds to spare for the connection
    // on a loaded machine).
    receiver.on('/slow', { delayMs: 3_000, status: 200 });
    const outcome = await postSigned(hostUrl('/slow'), BODY, options({ timeoutMs: 4_000, resolve: resolverAfter(2_000, ['127.0.0.1']) }));
    expect(outcome).toMatchObject({ statusCode: null, error: 'timeout' });
    expect(receiver.at('/slow')).toHaveLength(1);
  });

  it('connects to the resolved address, and refuses a private one where private targets are not allowed', async () => {
    const resolve: Resolver = () => Promise.resolve(['127.0.0.1']);
    expect(await postSigned(hostUrl('/resolved'), BODY, options({ resolve }))).toMatchObject({ statusCode: 200, error: null });
    expect(receiver.at('/resolved')).toHaveLength(1);
    expect(await postSigned(hostUrl('/refused'), BODY, options({ allowPrivateAddresses: false, resolve }))).toMatchObject({ statusCode: null, error: 'forbidden-address' });
    expect(receiver.at('/refused')).toEqual([]);
  });

  it('classifies a failed resolution as dns', async () => {
    const resolve: Resolver = () => Promise.reject(Object.assign(new Error('getaddrinfo ENOTFOUND hooks.example.test'), { code: 'ENOTFOUND' }));
    expect(await postSigned(hostUrl('/unknown'), BODY, options({ resolve }))).toMatchObject({ statusCode: null, error: 'dns' });
  });
});

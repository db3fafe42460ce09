// verifyWebhook against the independent Standard Webhooks implementation (npm `standardwebhooks`):
// what it signs, we verify, and what we would accept, it verifies; and every way a delivery is refused.
import { createHmac } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { verifyWebhook, WebhookVerificationError } from '../src/index.ts';

const secret = 'a-subscription-secret-of-32-chars';
// Standard Webhooks keys are `whsec_` + base64 of the key bytes; ours are the UTF-8 bytes of the secret.
const reference = new Webhook(`whsec_${Buffer.from(secret, 'utf8').toString('base64')}`);
const event = { id: 'evt_01JF3Q5Z8X2C7V9B4N6M1K0PQR', type: 'order.created', timestamp: '2026-11-22T10:15:30.123Z', data: { orderId: 'ord_1', note: 'Grüße ✓' } };
const body = JSON.stringify(event);

function signed(options: { at?: Date; payload?: string; id?: string } = {}) {
  const at = options.at ?? new Date();
  const id = options.id ?? event.id;
  return {
    'webhook-id': id,
    'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
    'webhook-signature': reference.sign(id, at, options.payload ?? body),
  };
}

function refusal(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(WebhookVerificationError);
    return (error as Error).message;
  }
  throw new Error('verifyWebhook accepted it');
}

describe('verifyWebhook', () => {
  it('takes a secret in the Standard Webhooks form (whsec_ + base64 of the key), as agent-marketplace listen prints it', () => {
    const key = Buffer.from('0123456789abcdef0123456789abcdef', 'hex');
    const whsec = `whsec_${key.toString('base64')}`;
    const headers = { 'webhook-id': event.id, 'webhook-timestamp': String(Math.floor(Date.now() / 1000)), 'webhook-signature': new Webhook(whsec).sign(event.id, new Date(), body) };
    expect(verifyWebhook({ body, headers, secret: whsec })).toEqual(event);
    expect(refusal(() => verifyWebhook({ body, headers, secret: `whsec_${Buffer.from('another key').toString('base64')}` }))).toContain('No webhook-signature matches');
    // A subscription secret that merely starts with whsec_ still verifies by its own bytes.
    const literal = 'whsec_not-base64-but-a-subscription-secret';
    const literalSigned = new Webhook(`whsec_${Buffer.from(literal, 'utf8').toString('base64')}`);
    expect(verifyWebhook({ body, headers: { ...headers, 'webhook-signature': literalSigned.sign(event.id, new Date(), body) }, secret: literal })).toEqual(event);
  });

  it('verifies what standardwebhooks signs and returns the event', () => {
    expect(verifyWebhook({ body, headers: signed(), secret })).toEqual(event);
    expect(verifyWebhook({ body: Buffer.from(body), headers: signed(), secret })).toEqual(event);
    expect(verifyWebhook({ body: new TextEncoder().encode(body), headers: signed(), secret })).toEqual(event);
  });

  it('signs, by its definition, exactly what standardwebhooks verifies', () => {
    const timestamp = String(Math.floor(Date.now() / 1000));
    const signature = createHmac('sha256', secret).update(`${event.id}.${timestamp}.${body}`).digest('base64');
    const headers = { 'webhook-id': event.id, 'webhook-timestamp': timestamp, 'webhook-signature': `v1,${signature}` };
    expect(reference.verify(body, headers)).toEqual(event);
    expect(verifyWebhook({ body, headers, secret })).toEqual(event);
  });

  it('reads headers from a Headers object, any case, and Node’s arrays', () => {
    const headers = signed();
    expect(verifyWebhook({ body, headers: new Headers(headers), secret }).id).toBe(event.id);
    const upper = Object.fromEntries(Object.entries(headers).map(([name, value]) => [name.toUpperCase(), value]));
    expect(verifyWebhook({ body, headers: upper, secret }).id).toBe(event.id);
    expect(verifyWebhook({ body, headers: { ...headers, 'webhook-signature': ['v1,AAAA', headers['webhook-signature']] }, secret }).id).toBe(event.id);
    const repeated = new Headers({ 'webhook-id': headers['webhook-id'], 'webhook-timestamp': headers['webhook-timestamp'] });
    repeated.append('webhook-signature', 'v1,AAAA');
    repeated.append('webhook-signature', headers['webhook-signature']);
    expect(verifyWebhook({ body, headers: repeated, secret }).id).toBe(event.id);
  });

  it('accepts any matching entry among several signatures, and ignores other versions', () => {
    const headers = signed();
    const wrong = createHmac('sha256', 'another-secret-entirely').update('x').digest('base64');
    const several = { ...headers, 'webhook-signature': `v1,${wrong} v1a,${wrong} ${headers['webhook-signature']}` };
    expect(verifyWebhook({ body, headers: several, secret }).id).toBe(event.id);
    expect(refusal(() => verifyWebhook({ body, headers: { ...headers, 'webhook-signature': `v1,${wrong} v2,${headers['webhook-signature'].slice(3)}` }, secret }))).toMatch(/No webhook-signature matches/);
  });

  it('refuses a changed body, re-serialised JSON, a wrong secret and a signature of another id', () => {
    const headers = signed();
    expect(refusal(() => verifyWebhook({ body: body.replace('ord_1', 'ord_2'), headers, secret }))).toMatch(/No webhook-signature matches/);
    expect(refusal(() => verifyWebhook({ body: JSON.stringify(JSON.parse(body), null, 2), headers, secret }))).toMatch(/raw body/);
    expect(refusal(() => verifyWebhook({ body, headers, secret: 'the-wrong-secret-of-some-length' }))).toMatch(/wrong secret/);
    expect(refusal(() => verifyWebhook({ body, headers: { ...headers, 'webhook-id': 'evt_other' }, secret }))).toMatch(/No webhook-signature matches/);
    expect(refusal(() => verifyWebhook({ body, headers: { ...headers, 'webhook-signature': 'v1,' }, secret }))).toMatch(/No webhook-signature matches/);
    expect(refusal(() => verifyWebhook({ body: event as never, headers, secret }))).toMatch(/raw request body/);
  });

  it('refuses timestamps outside the tolerance, both ways, and honours toleranceSeconds', () => {
    const now = Date.now();
    const old = signed({ at: new Date(now - 301_000) });
    expect(refusal(() => verifyWebhook({ body, headers: old, secret }))).toMatch(/too old/);
    expect(verifyWebhook({ body, headers: old, secret, toleranceSeconds: 600 }).id).toBe(event.id);
    const future = signed({ at: new Date(now + 301_000) });
    expect(refusal(() => verifyWebhook({ body, headers: future, secret }))).toMatch(/too far in the future/);
    expect(verifyWebhook({ body, headers: signed({ at: new Date(now - 299_000) }), secret }).id).toBe(event.id);
    expect(verifyWebhook({ body, headers: signed({ at: new Date(now + 299_000) }), secret }).id).toBe(event.id);
    expect(refusal(() => verifyWebhook({ body, headers: { ...signed(), 'webhook-timestamp': '1e9' }, secret }))).toMatch(/Unix seconds/);
    // A replay of a genuine delivery a day later.
    const yesterday = signed({ at: new Date(now - 86_400_000) });
    expect(refusal(() => verifyWebhook({ body, headers: yesterday, secret }))).toMatch(/too old/);
  });

  it('refuses missing headers, naming them, and X-Marketplace-Signature alone, saying why', () => {
    const headers = signed();
    expect(refusal(() => verifyWebhook({ body, headers: { 'webhook-id': headers['webhook-id'] }, secret }))).toBe('Missing webhook-timestamp, webhook-signature headers');
    const { 'webhook-signature': _signature, ...unsigned } = headers;
    expect(refusal(() => verifyWebhook({ body, headers: unsigned, secret }))).toBe('Missing webhook-signature header');
    const legacy = { 'x-marketplace-signature': `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`, 'x-marketplace-timestamp': headers['webhook-timestamp'] };
    expect(refusal(() => verifyWebhook({ body, headers: legacy, secret }))).toMatch(/does not cover the timestamp/);
    expect(refusal(() => verifyWebhook({ body, headers: { ...headers, 'webhook-id': [event.id, 'evt_other'] }, secret }))).toMatch(/more than once/);
  });

  it('refuses a signed body that is not an event', () => {
    const payload = '{"hello":"world"}';
    expect(refusal(() => verifyWebhook({ body: payload, headers: signed({ payload }), secret }))).toMatch(/not an event/);
    expect(refusal(() => verifyWebhook({ body: 'not json', headers: signed({ payload: 'not json' }), secret }))).toMatch(/not JSON/);
  });
});

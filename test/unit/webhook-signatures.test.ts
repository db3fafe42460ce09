// The Standard Webhooks signature, checked against an independent implementation (the
// `standardwebhooks` package), beside the specification's X-Marketplace-Signature.
import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { signatureOf, standardSignatureOf } from '../../shared/domain/webhook-sender.ts';

describe('signatures', () => {
  const body = JSON.stringify({ id: 'evt_01JF3Q5Z8X2C7V9B4N6M1K0PQR', type: 'webhook.test', timestamp: '2026-11-22T10:00:00.000Z', data: { message: 'é' } });
  const secret = 'sécret-für-webhooks-0123456789';

  it('signs `id.timestamp.body` as a Standard Webhooks library does with whsec_ + base64(UTF-8 secret)', () => {
    const timestamp = 1_795_000_000;
    const library = new Webhook(`whsec_${Buffer.from(secret, 'utf8').toString('base64')}`);
    expect(standardSignatureOf('evt_01JF3Q5Z8X2C7V9B4N6M1K0PQR', String(timestamp), body, secret)).toBe(library.sign('evt_01JF3Q5Z8X2C7V9B4N6M1K0PQR', new Date(timestamp * 1000), body));
  });

  it('keeps the specification’s X-Marketplace-Signature unchanged beside it', () => {
    expect(signatureOf(body, secret)).toMatch(/^sha256=[0-9a-f]{64}$/);
    expect(standardSignatureOf('evt_01JF3Q5Z8X2C7V9B4N6M1K0PQR', '1', body, secret)).not.toBe(standardSignatureOf('evt_01JF3Q5Z8X2C7V9B4N6M1K0PQR', '2', body, secret));
  });
});

import { describe, expect, it } from 'vitest';
import { decodeCursor, encodeCursor } from '../../shared/data/cursor.ts';
import { ApiError } from '../../shared/http/errors.ts';

const key = { pk: 'AGENT#agt_1', sk: 'WEBHOOK#whk_2' };

describe('cursors', () => {
  it('round-trip within their list', () => {
    const cursor = encodeCursor('webhooks:agt_1', key);
    expect(cursor).not.toContain('AGENT');
    expect(decodeCursor('webhooks:agt_1', cursor ?? undefined)).toEqual(key);
    expect(encodeCursor('webhooks:agt_1', undefined)).toBeNull();
    expect(decodeCursor('webhooks:agt_1', undefined)).toBeUndefined();
  });

  it('are refused by another list or caller, and when edited', () => {
    const cursor = encodeCursor('webhooks:agt_1', key) as string;
    const [payload, signature] = cursor.split('.') as [string, string];
    const edited = Buffer.from(JSON.stringify({ s: 'webhooks:agt_1', k: { pk: 'AGENT#agt_9', sk: 'WEBHOOK#' } })).toString('base64url');
    for (const [scope, bad] of [
      ['webhooks:agt_2', cursor],
      ['webhooks:agt_1', `${edited}.${signature}`],
      ['webhooks:agt_1', `${payload}.${'A'.repeat(signature.length)}`],
      ['webhooks:agt_1', payload],
      ['webhooks:agt_1', `${cursor}.x`],
    ] as const) {
      try {
        decodeCursor(scope, bad);
        expect.unreachable(`accepted ${bad}`);
      } catch (error) {
        expect(error).toBeInstanceOf(ApiError);
        expect((error as ApiError).details?.[0]?.path).toBe('cursor');
      }
    }
  });
});

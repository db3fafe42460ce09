import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeCursor, encodeCursor } from '../../shared/data/cursor.ts';
import { Failure } from '../../shared/failures.ts';

const key = { pk: 'AGENT#agt_1', sk: 'WEBHOOK#whk_2' };

/** The cursor with one byte of its sealed content flipped. */
function flipped(cursor: string, at: number): string {
  const bytes = Buffer.from(cursor, 'base64url');
  bytes[at] = (bytes[at] as number) ^ 0x01;
  return bytes.toString('base64url');
}

describe('cursors', () => {
  it('round-trip within their list, and show nothing of the table keys', () => {
    const cursor = encodeCursor('webhooks:agt_1', key) as string;
    expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
    const readable = Buffer.from(cursor, 'base64url').toString('latin1');
    for (const fragment of ['AGENT', 'WEBHOOK', 'agt_1', 'whk_2', 'pk', 'sk']) expect(readable).not.toContain(fragment);
    expect(decodeCursor('webhooks:agt_1', cursor)).toEqual(key);
    expect(encodeCursor('webhooks:agt_1', key)).not.toBe(cursor); // a fresh IV every time
    expect(encodeCursor('webhooks:agt_1', undefined)).toBeNull();
    expect(decodeCursor('webhooks:agt_1', undefined)).toBeUndefined();
  });

  it('are refused by another list or caller, and when edited', () => {
    const cursor = encodeCursor('webhooks:agt_1', key) as string;
    const forged = Buffer.from(JSON.stringify({ pk: 'AGENT#agt_9', sk: 'WEBHOOK#' })).toString('base64url');
    for (const [scope, bad] of [
      ['webhooks:agt_2', cursor],
      ['webhooks:agt_1', flipped(cursor, 0)],
      ['webhooks:agt_1', flipped(cursor, 20)],
      ['webhooks:agt_1', flipped(cursor, Buffer.from(cursor, 'base64url').length - 1)],
      ['webhooks:agt_1', cursor.slice(0, -4)],
      ['webhooks:agt_1', forged],
      ['webhooks:agt_1', `${cursor}.x`],
      ['webhooks:agt_1', 'garbage'],
    ] as const) {
      try {
        decodeCursor(scope, bad);
        expect.unreachable(`accepted ${bad}`);
      } catch (error) {
        expect(error).toBeInstanceOf(Failure);
        expect((error as Failure).kind).toBe('invalid');
        expect((error as Failure).details?.[0]?.path).toBe('cursor');
      }
    }
  });

  it('round-trip any key within their scope, and are refused in any other scope (property)', () => {
    const keyValue = fc.oneof(fc.string(), fc.integer(), fc.constant(null), fc.boolean());
    fc.assert(
      fc.property(fc.dictionary(fc.string({ minLength: 1 }), keyValue, { minKeys: 1, maxKeys: 4 }), fc.string(), fc.string(), (lastKey, scope, otherScope) => {
        fc.pre(scope !== otherScope);
        const cursor = encodeCursor(scope, lastKey) as string;
        expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
        expect(decodeCursor(scope, cursor)).toEqual(lastKey);
        expect(() => decodeCursor(otherScope, cursor)).toThrow(Failure);
      }),
    );
  });

  it('are refused when any byte is changed, any byte is cut or added, or any text is sent instead (property)', () => {
    const cursor = encodeCursor('orders:agt_1', key) as string;
    const length = Buffer.from(cursor, 'base64url').length;
    const tampered = fc.oneof(
      fc.record({ at: fc.nat({ max: length - 1 }), mask: fc.integer({ min: 1, max: 255 }) }).map(({ at, mask }) => {
        const bytes = Buffer.from(cursor, 'base64url');
        bytes[at] = (bytes[at] as number) ^ mask;
        return bytes.toString('base64url');
      }),
      fc.nat({ max: length - 1 }).map((cut) => Buffer.from(cursor, 'base64url').subarray(0, cut).toString('base64url')),
      fc.uint8Array({ minLength: 1, maxLength: 8 }).map((extra) => Buffer.concat([Buffer.from(cursor, 'base64url'), extra]).toString('base64url')),
      fc.string(),
    );
    fc.assert(
      fc.property(tampered, (bad) => {
        fc.pre(bad !== cursor);
        try {
          decodeCursor('orders:agt_1', bad);
          expect.unreachable(`accepted ${bad}`);
        } catch (error) {
          expect(error).toBeInstanceOf(Failure);
          expect((error as Failure).kind).toBe('invalid');
        }
      }),
    );
  });
});

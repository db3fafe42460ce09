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
});

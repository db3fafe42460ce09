// The text validators every name, message, description and file name goes through: control
// characters, bidirectional controls and broken UTF-16 are refused with a message naming them; other
// Unicode (a literal U+FFFD, joiners, right-to-left letters and marks) is text like any other.
import { describe, expect, it } from 'vitest';
import { Filename, UploadFeedQuery } from '../../shared/schemas/catalog.ts';
import { text } from '../../shared/schemas/common.ts';
import { FeedProductRow } from '../../shared/schemas/feed-rows.ts';

const BIDI_CONTROLS = ['\u202A', '\u202B', '\u202C', '\u202D', '\u202E', '\u2066', '\u2067', '\u2068', '\u2069'];

function messages(result: { success: boolean; error?: { issues: readonly { message: string }[] } }): string[] {
  return result.success ? [] : (result.error?.issues ?? []).map((issue) => issue.message);
}

describe('text()', () => {
  const singleLine = text({ min: 1, max: 200 });
  const multiLine = text({ max: 5000, multiline: true });

  it.each(BIDI_CONTROLS.map((control) => [`U+${control.codePointAt(0)?.toString(16).toUpperCase()}`, control]))(
    'refuses the bidirectional control %s in single- and multi-line text, naming the range',
    (_name, control) => {
      for (const schema of [singleLine, multiLine]) {
        const problems = messages(schema.safeParse(`invoice${control}fdp.exe`));
        expect(problems).toEqual([expect.stringMatching(/bidirectional control characters \(U\+202A–U\+202E, U\+2066–U\+2069\)/)]);
      }
    },
  );

  it('keeps refusing C0 and C1 controls and lone surrogates, each with its own message', () => {
    expect(messages(singleLine.safeParse('Bot\u0000'))).toEqual(['Must be a single line without control characters']);
    expect(messages(multiLine.safeParse('a\u009bb'))).toEqual(['Must not contain control characters other than newline and tab']);
    expect(messages(singleLine.safeParse('x\ud800y'))).toEqual(['Must be valid Unicode (no lone surrogates)']);
  });

  it('accepts right-to-left text, its marks, joiners and a literal U+FFFD', () => {
    for (const value of ['שלום עולם', 'abc\u200Fdef', 'family 👨\u200D👩\u200D👧', 'replacement \uFFFD character']) {
      expect(singleLine.safeParse(value)).toEqual({ success: true, data: value });
    }
    expect(multiLine.safeParse('line one\nline\ttwo').success).toBe(true);
  });

  it('applies to feed rows’ titles, descriptions and brands', () => {
    const row = { sku: 'A-1', title: 'Gloves\u202Ecod.exe', price: { amount: 100, currency: 'USD' }, availableQuantity: 1, description: 'ok\u2067', brand: 'Acme\u202A' };
    const result = FeedProductRow.safeParse(row);
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((issue) => issue.path.join('.')).sort()).toEqual(['brand', 'description', 'title']);
  });
});

describe('file names', () => {
  it.each([
    ['a bidirectional override', 'catalog\u202Evsc.exe', /bidirectional control/],
    ['a lone surrogate', 'catalog\ud800.csv', /lone surrogates/],
    ['a control character', 'catalog\u0007.csv', /control characters/],
    ['a slash', 'dir/catalog.csv', /slashes/],
    ['a backslash', 'dir\\catalog.csv', /slashes/],
    ['nothing', '', /at least 1 character/],
  ])('refuse %s', (_name, name, message) => {
    expect(messages(Filename.safeParse(name))).toEqual([expect.stringMatching(message)]);
    expect(messages(UploadFeedQuery.safeParse({ filename: name }))).toEqual([expect.stringMatching(message)]);
  });

  it('accept Unicode names, a literal U+FFFD included', () => {
    for (const name of ['katalog-größe.csv', '目録.csv', 'export \uFFFD.csv', 'x'.repeat(255)]) expect(Filename.safeParse(name).success).toBe(true);
    expect(messages(Filename.safeParse('x'.repeat(256)))).toEqual(['Must be at most 255 characters']);
  });
});

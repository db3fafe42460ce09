// CsvRecordLimit finds CSV records where csv-parse does (quotes, "" escapes, line breaks inside
// quotes, \n, \r\n or \r) whatever the chunking, passes the records up to the limit on byte for byte
// and takes the larger ones out, with offsets that map csv-parse's counts back to the file.
import { Readable } from 'node:stream';
import { parse } from 'csv-parse/sync';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CsvRecordLimit, type CutRecord } from '../../shared/domain/csv-record-limit.ts';

async function run(chunks: Buffer[], limit: number, bom = true): Promise<{ passed: Buffer; cuts: CutRecord[]; bomBytes: number }> {
  const guard = new CsvRecordLimit(limit, { bom });
  const out: Buffer[] = [];
  await new Promise<void>((resolve, reject) => {
    Readable.from(chunks).pipe(guard).on('data', (piece: Buffer) => out.push(piece)).on('end', resolve).on('error', reject);
  });
  return { passed: Buffer.concat(out), cuts: guard.cuts, bomBytes: guard.bomBytes };
}

/** Splits a buffer at the given (sorted, deduplicated) positions. */
function chunked(file: Buffer, cutsAt: number[]): Buffer[] {
  const points = [...new Set(cutsAt.map((at) => at % (file.length + 1)))].sort((a, b) => a - b);
  const chunks: Buffer[] = [];
  let from = 0;
  for (const at of points) {
    chunks.push(file.subarray(from, at));
    from = at;
  }
  chunks.push(file.subarray(from));
  return chunks.filter((chunk) => chunk.length > 0);
}

/** A cell as a CSV writer writes it: quoted (quotes doubled) when it holds a comma, quote or line break. */
function written(cell: string): string {
  return /[",\r\n]/.test(cell) ? `"${cell.replaceAll('"', '""')}"` : cell;
}

const cellText = fc.string({ unit: fc.constantFrom('a', 'é', '目', ',', '"', '\n', '\r', ' ', 'x', '1'), maxLength: 12 });
const record = fc.array(cellText, { minLength: 1, maxLength: 4 }).filter((cells) => cells.join('') !== '');

describe('CsvRecordLimit', () => {
  it('passes every record up to the limit on unchanged and takes out exactly the larger ones, however the file is chunked', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(record, { minLength: 1, maxLength: 12 }),
        fc.constantFrom('\n', '\r\n', '\r'),
        fc.integer({ min: 4, max: 40 }),
        fc.array(fc.nat(), { maxLength: 6 }),
        fc.boolean(),
        async (records, lineBreak, limit, splits, bom) => {
          const lines = records.map((cells) => Buffer.from(cells.map(written).join(',')));
          const file = Buffer.concat([...(bom ? [Buffer.from([0xef, 0xbb, 0xbf])] : []), ...lines.flatMap((line) => [line, Buffer.from(lineBreak)])]);
          const { passed, cuts, bomBytes } = await run(chunked(file, splits), limit);

          const kept: Buffer[] = [];
          const expectedCuts: CutRecord[] = [];
          let offset = bom ? 3 : 0;
          let passedBytes = 0;
          for (const line of lines) {
            const end = offset + line.length + lineBreak.length;
            if (line.length > limit) expectedCuts.push({ at: passedBytes, bytes: line.length, start: offset, end });
            else {
              kept.push(line, Buffer.from(lineBreak));
              passedBytes += line.length + lineBreak.length;
            }
            offset = end;
          }
          expect(bomBytes).toBe(bom ? 3 : 0);
          expect(cuts).toEqual(expectedCuts);
          expect(passed.equals(Buffer.concat(kept))).toBe(true);
          // csv-parse reads what is passed on as the records that were kept.
          const parsed: string[][] = parse(passed, { relax_column_count: true, skip_empty_lines: true });
          expect(parsed).toEqual(records.filter((_cells, index) => (lines[index] as Buffer).length <= limit));
        },
      ),
      { numRuns: 400 },
    );
  });

  it('takes out a last record without a line break, and one that runs on from a quote never closed', async () => {
    const file = Buffer.from('sku,title\nA,"short"\nB,"never closed,\nC,so this is all one record\n');
    const { passed, cuts } = await run([file], 30);
    expect(passed.toString()).toBe('sku,title\nA,"short"\n');
    expect(cuts).toEqual([{ at: 20, bytes: file.length - 20, start: 20, end: file.length }]);

    const trailing = Buffer.from(`sku\nA\n${'x'.repeat(50)}`);
    expect((await run([trailing], 10)).cuts).toEqual([{ at: 6, bytes: 50, start: 6, end: trailing.length }]);
  });

  it('reads a quote inside an unquoted cell as content, as csv-parse reads its line (and refuses it)', async () => {
    const file = Buffer.from('sku,title\nA,5" screen\nB,fine\n');
    const { passed, cuts } = await run([file], 100);
    expect(cuts).toEqual([]);
    expect(passed.equals(file)).toBe(true);
  });

  it('keeps a lone \\r inside a \\n file as content, and a lone \\n inside a \\r\\n file', async () => {
    const lf = Buffer.from(`a,b\nc\rd,${'e'.repeat(20)}\nf,g\n`);
    expect((await run([lf], 10)).cuts).toEqual([{ at: 4, bytes: 24, start: 4, end: 29 }]);
    const crlf = Buffer.from(`a,b\r\nc\nd,${'e'.repeat(20)}\r\nf,g\r\n`);
    expect((await run([crlf], 10)).cuts).toEqual([{ at: 5, bytes: 24, start: 5, end: 31 }]);
  });
});

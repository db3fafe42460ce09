// Reading stored feed files (fauxqs S3) row by row: a row over 1 MiB is reported and the rows after it
// are read; a cell that is not UTF-8 is reported, a literal U+FFFD is text; every row's checkpoint
// offset is the file offset just after it, so a run resumed from any row reads exactly the rest.
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { putFeedFile } from '../../shared/data/feed-files.ts';
import { MAX_ROW_BYTES, openFeedSource, UnreadableFeed, type SourceRow } from '../../shared/domain/feed-sources.ts';

async function readAll(source: { rows: AsyncIterable<SourceRow> }): Promise<SourceRow[]> {
  const rows: SourceRow[] = [];
  for await (const row of source.rows) rows.push(row);
  return rows;
}

/** Stored outside feeds/, so that no feed run is notified. */
async function stored(content: Buffer, format: 'csv' | 'json'): Promise<string> {
  const key = `test-feed-sources/${randomUUID()}.${format}`;
  await putFeedFile(key, content, format);
  return key;
}

describe('CSV feed files', () => {
  const header = Buffer.from('\uFEFFsku,title,description,price,currency,available_quantity\r\n');
  const bigDescription = `"${'Long, "quoted" text\r\nover lines. '.repeat(Math.ceil((MAX_ROW_BYTES + 1000) / 33)).replaceAll('"q', '""q').replaceAll('d"', 'd""')}"`;
  const lines = [
    Buffer.from('R-1,First,,1.00,USD,1'),
    Buffer.from(`R-2,Too long,${bigDescription},1.00,USD,1`),
    Buffer.concat([Buffer.from('R-3,Caf'), Buffer.from([0xe9]), Buffer.from(' latin-1,,1.00,USD,1')]),
    Buffer.from('R-4,Literal \uFFFD replacement,,1.00,USD,1'),
    Buffer.from(`R-5,Unquoted and too long,${'x'.repeat(MAX_ROW_BYTES)},1.00,USD,1`),
    Buffer.from('R-6,Last,"with ""quotes"", and a comma",1.00,USD,1'),
  ];
  const file = Buffer.concat([header, ...lines.flatMap((line) => [line, Buffer.from('\r\n')])]);
  /** The file offset just after each data line. */
  const ends = lines.reduce<number[]>((offsets, line) => [...offsets, (offsets.at(-1) ?? header.length) + line.length + 2], []);

  it('reports rows over 1 MiB and cells that are not UTF-8, reads the rows after them, and checkpoints at each row’s end', async () => {
    const key = await stored(file, 'csv');
    const source = await openFeedSource(key, 'csv', null);
    expect(source.columns).toEqual(['sku', 'title', 'description', 'price', 'currency', 'available_quantity']);
    const rows = await readAll(source);
    expect(rows.map((row) => [row.row, row.kind])).toEqual([[1, 'csv'], [2, 'oversize'], [3, 'csv'], [4, 'csv'], [5, 'oversize'], [6, 'csv']]);
    expect(rows.map((row) => ('byteOffset' in row ? row.byteOffset : undefined))).toEqual(ends);
    expect(rows[1]).toMatchObject({ bytes: (lines[1] as Buffer).length });
    expect(rows[2]).toMatchObject({ undecodable: ['title'], cells: { sku: 'R-3', description: '', price: '1.00' } });
    expect(rows[3]).toMatchObject({ undecodable: [], cells: { title: 'Literal \uFFFD replacement' } });
    expect(rows[5]).toMatchObject({ cells: { description: 'with "quotes", and a comma' } });
  });

  it('resumes from any row’s checkpoint with exactly the rows after it', async () => {
    const key = await stored(file, 'csv');
    const all = await readAll(await openFeedSource(key, 'csv', null));
    const columns = ['sku', 'title', 'description', 'price', 'currency', 'available_quantity'];
    for (const [index, row] of all.entries()) {
      const resumed = await readAll(await openFeedSource(key, 'csv', { rowsRead: row.row, byteOffset: ends[index] as number, columns }));
      expect(resumed).toEqual(all.slice(index + 1));
    }
  });

  it('fails a file whose header row is over 1 MiB, or that is not UTF-8 text', async () => {
    const longHeader = await stored(Buffer.from(`sku,${'x'.repeat(MAX_ROW_BYTES)}\nA,1\n`), 'csv');
    await expect(openFeedSource(longHeader, 'csv', null)).rejects.toThrow(/header row is 1,048,580 bytes; a row may have at most 1,048,576 bytes/);
    const utf16 = await stored(Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('sku,title,price,currency,available_quantity\n', 'utf16le')]), 'csv');
    await expect(openFeedSource(utf16, 'csv', null)).rejects.toThrow(UnreadableFeed);
    await expect(openFeedSource(utf16, 'csv', null)).rejects.toThrow(/not a CSV text file in UTF-8/);
  });
});

describe('JSON feed files', () => {
  it('reports a product over 1 MiB of JSON and reads the products after it', async () => {
    const products = [
      { sku: 'J-1', title: 'Small' },
      { sku: 'J-2', title: 'Large', notes: 'é'.repeat(MAX_ROW_BYTES / 2) },
      { sku: 'J-3', title: 'After' },
    ];
    const key = await stored(Buffer.from(JSON.stringify({ products })), 'json');
    const rows = await readAll(await openFeedSource(key, 'json', null));
    expect(rows.map((row) => [row.row, row.kind])).toEqual([[1, 'json'], [2, 'oversize'], [3, 'json']]);
    expect(rows[1]).toMatchObject({ bytes: Buffer.byteLength(JSON.stringify(products[1])), byteOffset: null });
    expect(rows[2]).toMatchObject({ value: products[2] });
    // Resumed: the rows already read are skipped.
    expect((await readAll(await openFeedSource(key, 'json', { rowsRead: 2, byteOffset: null, columns: null }))).map((row) => row.row)).toEqual([3]);
  });

  it('fails a file that is not UTF-8, saying so', async () => {
    const key = await stored(Buffer.concat([Buffer.from('{"products": [{"sku": "J-1", "title": "Caf'), Buffer.from([0xe9]), Buffer.from('"}]}')]), 'json');
    const source = await openFeedSource(key, 'json', null);
    await expect(readAll(source)).rejects.toThrow(/not UTF-8/);
  });
});

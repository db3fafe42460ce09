// Reading a stored feed file as a stream of rows, from a checkpoint on. CSV goes through csv-parse
// (records as arrays, so that the header maps columns and a short or long row is reported as such);
// its per-record byte counts are the checkpoint offsets, and a resumed run parses from there with a
// ranged GET. JSON goes through @streamparser/json (each element of `products` emitted, then dropped
// from the parser's memory); a resumed run re-parses and skips the rows already read. Neither ever
// holds the whole file.
import type { Readable } from 'node:stream';
import { parse as parseCsv } from 'csv-parse';
import JSONParser from '@streamparser/json/jsonparser.js';
import { openFeedFile } from '../data/feed-files.ts';
import type { FeedCheckpoint } from '../data/feeds.ts';
import { REQUIRED_CSV_COLUMNS } from '../schemas/feed-rows.ts';
import { KNOWN_CSV_COLUMNS } from './feed-rows.ts';

/** A file the feed cannot be read from at all: the feed fails with this reason. */
export class UnreadableFeed extends Error {
  constructor(reason: string) {
    super(reason);
    this.name = 'UnreadableFeed';
  }
}

export type SourceRow =
  | { kind: 'csv'; row: number; cells: Record<string, string>; cellCount: number; byteOffset: number }
  | { kind: 'json'; row: number; value: unknown };

export interface FeedSource {
  /** The CSV header's columns (null for JSON). */
  columns: string[] | null;
  /** CSV columns the feed does not know (each is one warning). */
  unknownColumns: string[];
  rows: AsyncIterable<SourceRow>;
  close(): void;
}

/** `Available Quantity`, `available-quantity`, `availableQuantity` → available_quantity. */
export function normaliseColumn(name: string): string {
  return name
    .trim()
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .toLowerCase()
    .replace(/[\s-]+/g, '_');
}

const describe = (error: unknown) => (error instanceof Error ? error.message : String(error));

export async function openFeedSource(objectKey: string, format: 'csv' | 'json', checkpoint: FeedCheckpoint | null): Promise<FeedSource> {
  try {
    return await (format === 'csv' ? openCsv(objectKey, checkpoint) : openJson(objectKey, checkpoint?.rowsRead ?? 0));
  } catch (error) {
    if (error instanceof Error && (error.name === 'NoSuchKey' || error.name === 'NotFound')) {
      throw new UnreadableFeed('The stored file is missing; retry the feed with the file in the request (or a presigned upload)');
    }
    throw error;
  }
}

async function openCsv(objectKey: string, checkpoint: FeedCheckpoint | null): Promise<FeedSource> {
  const resuming = checkpoint !== null && checkpoint.columns !== null && checkpoint.byteOffset !== null;
  const startOffset = resuming ? (checkpoint.byteOffset as number) : 0;
  const body = await openFeedFile(objectKey, startOffset);
  const parser = parseCsv({ bom: !resuming, info: true, relax_column_count: true, skip_empty_lines: true, max_record_size: 1024 * 1024 });
  body.on('error', (error) => parser.destroy(error));
  body.pipe(parser);
  const records = parser[Symbol.asyncIterator]() as AsyncIterator<{ record: string[]; info: { bytes: number } }>;
  const next = async () => {
    try {
      return await records.next();
    } catch (error) {
      throw new UnreadableFeed(`The file is not valid CSV: ${describe(error)}`);
    }
  };

  let columns: string[];
  if (resuming) columns = checkpoint.columns as string[];
  else {
    const first = await next();
    if (first.done) throw new UnreadableFeed('The file is empty: it needs a header row naming the columns, then one row per product');
    const header = first.value.record;
    if (header.some((cell) => cell.includes('\u0000'))) throw new UnreadableFeed('The file is not a CSV text file (it contains binary data)');
    columns = header.map(normaliseColumn);
    const known = columns.filter((column) => KNOWN_CSV_COLUMNS.has(column));
    if (known.length === 0) {
      throw new UnreadableFeed(`The first line must be a header row naming the columns (${REQUIRED_CSV_COLUMNS.join(', ')} and optional ones); found none of them`);
    }
    const missing = REQUIRED_CSV_COLUMNS.filter((column) => !columns.includes(column));
    if (missing.length > 0) throw new UnreadableFeed(`The header lacks the required column${missing.length > 1 ? 's' : ''} ${missing.join(', ')}`);
    const repeated = columns.filter((column, index) => columns.indexOf(column) !== index);
    if (repeated.length > 0) throw new UnreadableFeed(`The header names the column ${repeated[0]} twice`);
  }
  const unknownColumns = resuming ? [] : columns.filter((column) => column !== '' && !KNOWN_CSV_COLUMNS.has(column));

  let row = checkpoint?.rowsRead ?? 0;
  async function* rows(): AsyncIterable<SourceRow> {
    for (;;) {
      const result = await next();
      if (result.done) return;
      row++;
      const cells: Record<string, string> = {};
      result.value.record.forEach((value, index) => {
        const column = columns[index];
        if (column !== undefined && column !== '') cells[column] = value;
      });
      yield { kind: 'csv', row, cells, cellCount: result.value.record.length, byteOffset: startOffset + result.value.info.bytes };
    }
  }
  return { columns, unknownColumns, rows: rows(), close: () => body.destroy() };
}

async function openJson(objectKey: string, skipRows: number): Promise<FeedSource> {
  const body: Readable = await openFeedFile(objectKey);

  async function* rows(): AsyncIterable<SourceRow> {
    // Push-based parser: each chunk's completed elements are queued, then yielded before the next
    // chunk is read, so at most one chunk's worth of rows is held.
    const parser = new JSONParser({ paths: ['$.products.*'], keepStack: false });
    const pending: { key: unknown; value: unknown }[] = [];
    parser.onValue = ({ key, value }) => pending.push({ key, value });
    let row = 0;
    const drain = function* (): Generator<SourceRow> {
      for (const element of pending.splice(0)) {
        if (typeof element.key !== 'number') throw new UnreadableFeed('products must be an array: a JSON feed is {"products": [{…}, …]}');
        row++;
        if (row > skipRows) yield { kind: 'json', row, value: element.value };
      }
    };
    try {
      for await (const chunk of body as AsyncIterable<Buffer>) {
        parser.write(chunk);
        yield* drain();
      }
      // The parser ends by itself after the root value; end() reports a document cut short.
      if (!parser.isEnded) parser.end();
      yield* drain();
    } catch (error) {
      if (error instanceof UnreadableFeed) throw error;
      throw new UnreadableFeed(`The file is not valid JSON of the form {"products": [...]}: ${describe(error)}`);
    }
    if (row === 0) throw new UnreadableFeed('The file has no products: a JSON feed is an object with a products array, {"products": [{…}, …]}');
  }
  return { columns: null, unknownColumns: [], rows: rows(), close: () => body.destroy() };
}

// Reading a stored feed file as a stream of rows, from a checkpoint on. CSV goes through csv-parse
// (records as arrays, so that the header maps columns and a short or long row is reported as such),
// behind CsvRecordLimit, which takes rows over 1 MiB out (each is reported, and the rows after it are
// read); cells arrive as bytes and a cell that is not UTF-8 is reported, never decoded to U+FFFD. The
// per-record byte counts, mapped back over what was taken out, are the checkpoint offsets, and a
// resumed run parses from there with a ranged GET. JSON goes through @streamparser/json's tokenizer
// and token parser (each element of `products` emitted, then dropped from the parser's memory, and
// measured by the offsets of its first and last token); a resumed run re-parses and skips the rows
// already read. Neither ever holds the whole file.
import { isUtf8 } from 'node:buffer';
import type { Readable } from 'node:stream';
import { parse as parseCsv } from 'csv-parse';
import Tokenizer from '@streamparser/json/tokenizer.js';
import TokenParser from '@streamparser/json/tokenparser.js';
import TokenType from '@streamparser/json/utils/types/tokenType.js';
import { openFeedFile } from '../data/feed-files.ts';
import type { FeedCheckpoint } from '../data/feeds.ts';
import { REQUIRED_CSV_COLUMNS } from '../schemas/feed-rows.ts';
import { CsvRecordLimit } from './csv-record-limit.ts';
import { KNOWN_CSV_COLUMNS } from './feed-rows.ts';

/** Most bytes one row may have: a CSV record (its line break aside) or a JSON product's text. */
export const MAX_ROW_BYTES = 1024 * 1024;

/** A file the feed cannot be read from at all: the feed fails with this reason. */
export class UnreadableFeed extends Error {
  constructor(reason: string) {
    super(reason);
    this.name = 'UnreadableFeed';
  }
}

export type SourceRow =
  /** `undecodable`: the columns whose cells are not UTF-8 (left out of `cells`). */
  | { kind: 'csv'; row: number; cells: Record<string, string>; undecodable: string[]; cellCount: number; byteOffset: number }
  | { kind: 'json'; row: number; value: unknown }
  /** A row over MAX_ROW_BYTES, not read; `byteOffset` is just after it (CSV). */
  | { kind: 'oversize'; row: number; bytes: number; byteOffset: number | null };

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
  const limit = new CsvRecordLimit(MAX_ROW_BYTES, { bom: !resuming });
  // Bytes in, bytes out (encoding null): cells are decoded here, so that bytes that are not UTF-8 are
  // found. The limit has taken the byte-order mark off; max_record_size only backs it up.
  const parser = parseCsv({ bom: false, encoding: null, info: true, relax_column_count: true, skip_empty_lines: true, max_record_size: MAX_ROW_BYTES });
  body.on('error', (error) => limit.destroy(error));
  limit.on('error', (error) => parser.destroy(error));
  body.pipe(limit).pipe(parser);
  const records = parser[Symbol.asyncIterator]() as AsyncIterator<{ record: Buffer[]; info: { bytes: number } }>;
  const next = async () => {
    try {
      return await records.next();
    } catch (error) {
      throw new UnreadableFeed(`The file is not valid CSV: ${describe(error)}`);
    }
  };
  /** The file offset (from the start of the file) of a point csv-parse counted `parsed` bytes to, given the bytes taken out before it. */
  let removed = 0;
  const fileOffset = (parsed: number) => startOffset + limit.bomBytes + parsed + removed;

  let columns: string[];
  if (resuming) columns = checkpoint.columns as string[];
  else {
    const first = await next();
    const headerCut = limit.cuts[0];
    if (headerCut !== undefined && (first.done || headerCut.at < first.value.info.bytes)) {
      throw new UnreadableFeed(`The header row is ${headerCut.bytes.toLocaleString('en-US')} bytes; a row may have at most ${MAX_ROW_BYTES.toLocaleString('en-US')} bytes (1 MiB). The first line must name the columns`);
    }
    if (first.done) throw new UnreadableFeed('The file is empty: it needs a header row naming the columns, then one row per product');
    const header = first.value.record;
    if (header.some((cell) => !isUtf8(cell) || cell.includes(0))) {
      throw new UnreadableFeed('The file is not a CSV text file in UTF-8 (it contains binary data, or text in another encoding); save it as CSV UTF-8');
    }
    columns = header.map((cell) => normaliseColumn(cell.toString('utf8')));
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
  let cutsReported = 0;
  /** Rows taken out before csv-parse's count reaches `parsed` (all that are left at the end). */
  function* oversizeBefore(parsed: number): Generator<SourceRow> {
    while (cutsReported < limit.cuts.length && (limit.cuts[cutsReported] as { at: number }).at < parsed) {
      const cut = limit.cuts[cutsReported++] as (typeof limit.cuts)[number];
      removed += cut.end - cut.start;
      yield { kind: 'oversize', row: ++row, bytes: cut.bytes, byteOffset: startOffset + cut.end };
    }
  }
  async function* rows(): AsyncIterable<SourceRow> {
    for (;;) {
      const result = await next();
      if (result.done) {
        yield* oversizeBefore(Number.POSITIVE_INFINITY);
        return;
      }
      yield* oversizeBefore(result.value.info.bytes);
      row++;
      const cells: Record<string, string> = {};
      const undecodable: string[] = [];
      result.value.record.forEach((value, index) => {
        const column = columns[index];
        if (column === undefined || column === '') return;
        if (isUtf8(value)) cells[column] = value.toString('utf8');
        else undecodable.push(column);
      });
      yield { kind: 'csv', row, cells, undecodable, cellCount: result.value.record.length, byteOffset: fileOffset(result.value.info.bytes) };
    }
  }
  return { columns, unknownColumns, rows: rows(), close: () => body.destroy() };
}

async function openJson(objectKey: string, skipRows: number): Promise<FeedSource> {
  const body: Readable = await openFeedFile(objectKey);

  async function* rows(): AsyncIterable<SourceRow> {
    // Push-based parser: each chunk's completed elements are queued, then yielded before the next
    // chunk is read, so at most one chunk's worth of rows is held. The tokenizer and token parser are
    // wired as JSONParser wires them, with the tokens' offsets watched on the way: an element of
    // products spans from its first token to its last (depth 2 is inside the products array).
    const tokenizer = new Tokenizer();
    const tokenParser = new TokenParser({ paths: ['$.products.*'], keepStack: false });
    let depth = 0;
    let elementStart: number | undefined;
    let lastOffset = 0;
    tokenizer.onToken = (parsed) => {
      const { token, offset } = parsed;
      if (token === TokenType.RIGHT_BRACE || token === TokenType.RIGHT_BRACKET) depth--;
      else if (depth === 2 && elementStart === undefined && token !== TokenType.COMMA) elementStart = offset;
      if (token === TokenType.LEFT_BRACE || token === TokenType.LEFT_BRACKET) depth++;
      if (depth < 2) elementStart = undefined; // left a container at the top of the document
      lastOffset = offset;
      tokenParser.write(parsed);
    };
    tokenizer.onEnd = () => {
      if (!tokenParser.isEnded) tokenParser.end();
    };
    tokenParser.onError = tokenizer.error.bind(tokenizer);
    tokenParser.onEnd = () => {
      if (!tokenizer.isEnded) tokenizer.end();
    };
    const pending: { key: unknown; value: unknown; bytes: number }[] = [];
    tokenParser.onValue = ({ key, value }) => {
      pending.push({ key, value, bytes: lastOffset + 1 - (elementStart ?? lastOffset) });
      elementStart = undefined;
    };
    let row = 0;
    const drain = function* (): Generator<SourceRow> {
      for (const element of pending.splice(0)) {
        if (typeof element.key !== 'number') throw new UnreadableFeed('products must be an array: a JSON feed is {"products": [{…}, …]}');
        row++;
        if (row <= skipRows) continue;
        yield element.bytes > MAX_ROW_BYTES ? { kind: 'oversize', row, bytes: element.bytes, byteOffset: null } : { kind: 'json', row, value: element.value };
      }
    };
    try {
      for await (const chunk of body as AsyncIterable<Buffer>) {
        tokenizer.write(chunk);
        yield* drain();
      }
      // The parser ends by itself after the root value; end() reports a document cut short.
      if (!tokenizer.isEnded) tokenizer.end();
      yield* drain();
    } catch (error) {
      if (error instanceof UnreadableFeed) throw error;
      if ((error as { code?: unknown }).code === 'ERR_ENCODING_INVALID_ENCODED_DATA') {
        throw new UnreadableFeed('The file is not UTF-8 text: a JSON feed must be UTF-8; save it as UTF-8');
      }
      throw new UnreadableFeed(`The file is not valid JSON of the form {"products": [...]}: ${describe(error)}`);
    }
    if (row === 0) throw new UnreadableFeed('The file has no products: a JSON feed is an object with a products array, {"products": [{…}, …]}');
  }
  return { columns: null, unknownColumns: [], rows: rows(), close: () => body.destroy() };
}

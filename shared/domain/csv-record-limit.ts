// Takes CSV records over a size limit out of a byte stream before csv-parse reads it, so that one
// oversize row is reported and the rows after it are still read: csv-parse's own max_record_size
// fails the whole stream. Records end where csv-parse ends them: at the first line break outside
// quotes (\r\n, \n or \r, whichever comes first in the file, as csv-parse detects it), where a quote
// opens quoting only at the start of a cell and "" inside quotes is a quote. A record is held until
// it ends or passes the limit (so at most the limit is held), then passed on whole or dropped whole;
// every drop is listed in `cuts`, with the offsets that map csv-parse's byte counts back to the file's.
import { Transform, type TransformCallback } from 'node:stream';

/** A record taken out of the stream. */
export interface CutRecord {
  /** Bytes passed on before it: where it would have been in the stream csv-parse reads. */
  at: number;
  /** Its size in the file, without its line break. */
  bytes: number;
  /** Its offset in the file (counted from where this stream started) and the offset just after its line break. */
  start: number;
  end: number;
}

const QUOTE = 0x22;
const COMMA = 0x2c;
const CR = 0x0d;
const LF = 0x0a;
const UTF8_BOM = Buffer.from([0xef, 0xbb, 0xbf]);

// Where the scan is in the current record.
const State = {
  FieldStart: 0,
  Unquoted: 1,
  Quoted: 2,
  /** A quote inside a quoted cell: the next byte says whether it was "" or the closing quote. */
  QuoteInQuoted: 3,
} as const;
type State = (typeof State)[keyof typeof State];

export class CsvRecordLimit extends Transform {
  /** Dropped records, in file order. */
  readonly cuts: CutRecord[] = [];
  /** A UTF-8 byte-order mark taken off the start of the file (0 or 3 bytes), which csv-parse never sees. */
  bomBytes = 0;

  private readonly maxRecordBytes: number;
  private bomPending: boolean;
  private bomProbe: Buffer = Buffer.alloc(0);
  private state: State = State.FieldStart;
  private lineBreak: 'lf' | 'crlf' | 'cr' | undefined;
  /** A \r outside quotes whose meaning (line break or content) the next byte decides. */
  private pendingCr = false;
  /** Bytes of the current record so far, its line break excluded. */
  private recordBytes = 0;
  private recordStartInFile = 0;
  private dropping = false;
  /** The current record's bytes from earlier chunks (never while dropping). */
  private held: Buffer[] = [];
  /** Bytes passed on so far, and file bytes before the current chunk. */
  private passed = 0;
  private consumed = 0;
  // The chunk being scanned: where its run of complete records not yet passed on starts, and where the current record starts (0 when in an earlier chunk).
  private chunk: Buffer = Buffer.alloc(0);
  private runStart = 0;
  private recordStart = 0;

  constructor(maxRecordBytes: number, options: { bom: boolean }) {
    super();
    this.maxRecordBytes = maxRecordBytes;
    this.bomPending = options.bom;
  }

  override _transform(data: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    if (this.bomPending) {
      // The mark may come split over the first chunks: wait for three bytes.
      this.bomProbe = Buffer.concat([this.bomProbe, data]);
      if (this.bomProbe.length >= UTF8_BOM.length) this.takeBomProbe();
    } else {
      this.scanChunk(data);
    }
    callback();
  }

  override _flush(callback: TransformCallback): void {
    if (this.bomPending) this.takeBomProbe();
    this.chunk = Buffer.alloc(0);
    this.runStart = 0;
    this.recordStart = 0;
    if (this.pendingCr) {
      this.pendingCr = false;
      if (this.lineBreak === undefined) this.endRecord(0);
      else this.content();
    }
    if (this.dropping) this.cut(this.consumed);
    else for (const piece of this.held.splice(0)) this.pass(piece);
    callback();
  }

  private takeBomProbe(): void {
    this.bomPending = false;
    let chunk = this.bomProbe;
    if (chunk.subarray(0, UTF8_BOM.length).equals(UTF8_BOM)) {
      this.bomBytes = UTF8_BOM.length;
      this.consumed = this.bomBytes;
      this.recordStartInFile = this.bomBytes;
      chunk = chunk.subarray(this.bomBytes);
    }
    this.scanChunk(chunk);
  }

  /** Scans a chunk, passing on the records it completes. */
  private scanChunk(chunk: Buffer): void {
    this.chunk = chunk;
    this.runStart = 0;
    this.recordStart = 0;
    for (let index = 0; index < chunk.length; index++) this.step(chunk[index] as number, index);
    if (!this.dropping) {
      this.pass(chunk.subarray(this.runStart, this.recordStart));
      this.held.push(chunk.subarray(this.recordStart));
    }
    this.consumed += chunk.length;
  }

  private step(byte: number, index: number): void {
    if (this.pendingCr) {
      this.pendingCr = false;
      if (byte === LF) {
        this.lineBreak ??= 'crlf';
        this.endRecord(index + 1);
        return;
      }
      if (this.lineBreak === undefined) {
        // A \r alone before any other line break: the file's line break is \r.
        this.lineBreak = 'cr';
        this.endRecord(index);
      } else {
        this.content(); // \r inside a \r\n file: part of the cell
        if (this.state === State.FieldStart) this.state = State.Unquoted;
      }
    }
    switch (this.state) {
      case State.Quoted:
        if (byte === QUOTE) this.state = State.QuoteInQuoted;
        this.content();
        return;
      case State.QuoteInQuoted:
        if (byte === QUOTE) {
          this.state = State.Quoted;
          this.content();
          return;
        }
        this.state = State.Unquoted; // the closing quote; what follows is read as outside quotes
        break;
      default:
        break;
    }
    if (byte === COMMA) {
      this.state = State.FieldStart;
      this.content();
    } else if (byte === LF && this.lineBreak !== 'cr' && this.lineBreak !== 'crlf') {
      this.lineBreak ??= 'lf';
      this.endRecord(index + 1);
    } else if (byte === CR && this.lineBreak !== 'lf') {
      if (this.lineBreak === 'cr') this.endRecord(index + 1);
      else this.pendingCr = true;
    } else {
      this.state = byte === QUOTE && this.state === State.FieldStart ? State.Quoted : State.Unquoted;
      this.content();
    }
  }

  /** One byte of the current record (not its line break). */
  private content(): void {
    this.recordBytes++;
    if (this.dropping || this.recordBytes <= this.maxRecordBytes) return;
    // Over the limit: pass on the complete records before it, forget what is held of it.
    this.pass(this.chunk.subarray(this.runStart, this.recordStart));
    this.runStart = this.recordStart;
    this.held = [];
    this.dropping = true;
  }

  /** The current record ends just before `end` (an index in the chunk, after its line break). */
  private endRecord(end: number): void {
    const endInFile = this.consumed + end;
    if (this.dropping) {
      this.cut(endInFile);
      this.runStart = end;
    } else {
      for (const piece of this.held.splice(0)) this.pass(piece);
    }
    this.recordStart = end;
    this.recordStartInFile = endInFile;
    this.recordBytes = 0;
    this.state = State.FieldStart;
  }

  private cut(endInFile: number): void {
    this.cuts.push({ at: this.passed, bytes: this.recordBytes, start: this.recordStartInFile, end: endInFile });
    this.dropping = false;
  }

  private pass(piece: Buffer): void {
    if (piece.length === 0) return;
    this.passed += piece.length;
    this.push(piece);
  }
}

// The feed in a request: what POST /v1/seller/feeds and its retry received, in whichever of the
// contract's four modes (CSV body, JSON products, multipart file, presigned request).
import { isUtf8 } from 'node:buffer';
import { decodeExtended, parse as parseDisposition } from 'content-disposition';
import type { FeedUpload } from '../domain/feeds.ts';
import { Filename, type CreateFeedJsonRequest, type FeedFormat } from '../schemas/catalog.ts';
import type { UploadedBody } from './api-state.ts';
import { errors } from './errors.ts';

const FORMATS: readonly FeedFormat[] = ['csv', 'json'];

/** The multipart file's format: the `format` field, else the file name's extension, else its content type, else its first character. */
function multipartFormat(upload: UploadedBody): FeedFormat {
  const declared = upload.fields.format;
  if (declared !== undefined) {
    if (!FORMATS.includes(declared as FeedFormat)) throw errors.invalid('format must be csv or json', [{ path: 'format', message: 'Must be csv or json' }]);
    return declared as FeedFormat;
  }
  const extension = /\.(csv|json)$/i.exec(upload.filename ?? '')?.[1]?.toLowerCase();
  if (extension) return extension as FeedFormat;
  if (/json/i.test(upload.partType ?? '')) return 'json';
  if (/csv/i.test(upload.partType ?? '')) return 'csv';
  const first = upload.bytes.subarray(0, 64).toString('utf8').replace(/^\uFEFF/, '').trimStart()[0];
  return first === '{' || first === '[' ? 'json' : 'csv';
}

function invalidFilename(source: string, message: string) {
  return errors.invalid(`The filename from ${source} cannot be used: ${message}`, [{ path: 'filename', message }]);
}

/**
 * A file name sent as raw bytes (a quoted `filename` parameter, a multipart part's name), which HTTP
 * hands over as Latin-1 characters. Clients send UTF-8 (curl, browsers) where RFC 6266 says ISO-8859-1:
 * the bytes are read as UTF-8 when they are UTF-8, as Latin-1 otherwise, so neither comes out garbled
 * and nothing is replaced by U+FFFD.
 */
function fromHeaderBytes(value: string): string {
  // eslint-disable-next-line no-control-regex
  if (/^[\x00-\x7F]*$/.test(value) || /[^\x00-\xFF]/.test(value)) return value; // ASCII, or text already decoded
  const bytes = Buffer.from(value, 'latin1');
  return isUtf8(bytes) ? bytes.toString('utf8') : value;
}

/** The name in a Content-Disposition header (RFC 6266): `filename*` (RFC 8187 percent-escapes) over `filename`. */
function dispositionFilename(header: string): string | undefined {
  const { parameters } = parseDisposition(header);
  const extended = parameters['filename*'];
  if (extended !== undefined) {
    const decoded = decodeExtended(extended);
    if (decoded === undefined) {
      throw invalidFilename(
        'Content-Disposition',
        "filename* must be UTF-8'' followed by the name's UTF-8 bytes, percent-encoded (such as filename*=UTF-8''gr%C3%B6%C3%9Fe.csv): a % must start two hex digits, and the bytes must be UTF-8",
      );
    }
    return decoded;
  }
  return parameters.filename === undefined ? undefined : fromHeaderBytes(parameters.filename);
}

/** A multipart part's name. The parser reads `filename` as Latin-1 and decodes `filename*` (which RFC 7578 forbids there) replacing bytes that are not UTF-8 with U+FFFD: such a name is refused. */
function multipartFilename(raw: string | null): string | undefined {
  if (raw === null || raw === '') return undefined;
  if (raw.includes('\uFFFD')) throw invalidFilename('the multipart file part', 'Must be UTF-8: send the name as filename="…" in UTF-8');
  return fromHeaderBytes(raw);
}

/** The name held to the rules of Filename (single-line text, no slashes), or the 422 that says what is wrong. */
function checkedFilename(name: string | undefined, source: string): string | undefined {
  if (name === undefined) return undefined;
  const parsed = Filename.safeParse(name);
  if (parsed.success) return parsed.data;
  throw invalidFilename(source, parsed.error.issues[0]?.message ?? 'Must be a file name');
}

/**
 * The feed the request carries; undefined when it carries none (a retry of the stored file).
 * `filename` is the query's, for bodies that have no name of their own.
 */
export function feedUploadFrom(upload: UploadedBody | undefined, body: CreateFeedJsonRequest | undefined, filename: string | undefined): FeedUpload | undefined {
  if (!upload) return undefined;
  if (upload.mediaType === 'text/csv') {
    const named = upload.contentDisposition === null ? undefined : checkedFilename(dispositionFilename(upload.contentDisposition), 'Content-Disposition');
    return { kind: 'inline', format: 'csv', bytes: upload.bytes, filename: filename ?? named ?? null };
  }
  if (upload.mediaType === 'multipart/form-data') {
    const unknown = Object.keys(upload.fields).filter((name) => name !== 'format');
    if (unknown.length > 0) {
      throw errors.invalid(`Unknown multipart field${unknown.length > 1 ? 's' : ''} ${unknown.join(', ')}; send a file part and optionally a format field`, unknown.map((name) => ({ path: name, message: 'Unknown field; remove it' })));
    }
    if (upload.bytes.length === 0) throw errors.invalid('The file part is empty', [{ path: 'file', message: 'Must not be empty' }]);
    const named = checkedFilename(multipartFilename(upload.filename), 'the multipart file part');
    return { kind: 'inline', format: multipartFormat(upload), bytes: upload.bytes, filename: named ?? filename ?? null };
  }
  if (!body) return undefined;
  if ('products' in body) return { kind: 'inline', format: 'json', bytes: upload.bytes, filename: body.filename ?? filename ?? null };
  return { kind: 'presigned', format: body.format, filename: body.filename ?? filename ?? null };
}

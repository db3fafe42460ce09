// The feed in a request: what POST /v1/seller/feeds and its retry received, in whichever of the
// contract's four modes (CSV body, JSON products, multipart file, presigned request).
import type { FeedUpload } from '../domain/feeds.ts';
import type { CreateFeedJsonRequest, FeedFormat } from '../schemas/catalog.ts';
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

/**
 * The feed the request carries; undefined when it carries none (a retry of the stored file).
 * `filename` is the query's, for bodies that have no name of their own.
 */
export function feedUploadFrom(upload: UploadedBody | undefined, body: CreateFeedJsonRequest | undefined, filename: string | undefined): FeedUpload | undefined {
  if (!upload) return undefined;
  if (upload.mediaType === 'text/csv') return { kind: 'inline', format: 'csv', bytes: upload.bytes, filename: filename ?? upload.filename };
  if (upload.mediaType === 'multipart/form-data') {
    const unknown = Object.keys(upload.fields).filter((name) => name !== 'format');
    if (unknown.length > 0) {
      throw errors.invalid(`Unknown multipart field${unknown.length > 1 ? 's' : ''} ${unknown.join(', ')}; send a file part and optionally a format field`, unknown.map((name) => ({ path: name, message: 'Unknown field; remove it' })));
    }
    if (upload.bytes.length === 0) throw errors.invalid('The file part is empty', [{ path: 'file', message: 'Must not be empty' }]);
    return { kind: 'inline', format: multipartFormat(upload), bytes: upload.bytes, filename: upload.filename ?? filename ?? null };
  }
  if (!body) return undefined;
  if ('products' in body) return { kind: 'inline', format: 'json', bytes: upload.bytes, filename: body.filename ?? filename ?? null };
  return { kind: 'presigned', format: body.format, filename: body.filename ?? filename ?? null };
}

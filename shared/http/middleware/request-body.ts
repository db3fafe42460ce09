// Body handling before the JSON parser: the size limit first (413, on the declared length and on the
// bytes received), then the routes that take files (a CSV body, a multipart upload, or a JSON body's
// bytes as well). What is left to parse as JSON is marked for json-body.ts. Bodies on GET and DELETE
// are ignored, as HTTP gives them no meaning; an absent body is left to validation, which says what is
// required.
import { DEFAULT_MAX_BODY_BYTES, MULTIPART_OVERHEAD_BYTES, type UploadMediaType } from '../route-table.ts';
import { ApiError, errors } from '../errors.ts';
import type { ApiMiddleware } from '../api-state.ts';
import type { MultipartParser } from '../multipart.ts';

/** `text/csv; charset=utf-8` → `text/csv`. */
function mediaTypeOf(contentType: string | undefined): string {
  return (contentType ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
}

/**
 * `multipart`: the multipart parser, passed in by the handlers of routes that accept multipart
 * uploads, so that no other bundle carries it.
 */
export function requestBody(options: { multipart?: MultipartParser } = {}): ApiMiddleware {
  return {
    name: 'requestBody',
    before: async ({ event, context: { api: state } }) => {
      const method = state.route.method;
      if (method === 'GET' || method === 'DELETE') return;

      const limit = state.route.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
      const uploads = state.route.uploads ?? [];
      const contentType = event.headers?.['content-type'];
      const mediaType = mediaTypeOf(contentType);
      const isUpload = uploads.includes(mediaType as UploadMediaType);
      // A multipart body wraps its file in boundaries and part headers: the limit is the file's.
      const bodyLimit = isUpload && mediaType === 'multipart/form-data' ? limit + MULTIPART_OVERHEAD_BYTES : limit;
      const tooLarge = () => errors.tooLarge(limit, state.route.tooLargeAdvice?.(event.rawPath));
      const declaredLength = Number(event.headers?.['content-length'] ?? 0);
      if (declaredLength > bodyLimit) throw tooLarge();
      const raw = event.body ?? '';
      const size = event.isBase64Encoded ? Buffer.byteLength(raw, 'base64') : Buffer.byteLength(raw, 'utf8');
      if (size > bodyLimit) throw tooLarge();
      if (uploads.length > 0 && size > 0 && !isUpload && mediaType !== 'application/json' && !mediaType.endsWith('+json')) {
        const accepted = ['application/json', ...uploads].join(', ');
        throw errors.invalid(`Send the body with one of these content types: ${accepted} (got ${mediaType || 'none'})`, [
          { path: 'Content-Type', message: `Must be one of ${accepted}` },
        ]);
      }
      if (size === 0) return;

      const bytes = () => Buffer.from(raw, event.isBase64Encoded ? 'base64' : 'utf8');
      if (isUpload && mediaType === 'multipart/form-data') {
        if (!options.multipart) throw new Error(`${state.route.operationId} accepts multipart/form-data but its handler passed no multipart parser`);
        const parsed = await options.multipart(bytes(), contentType ?? '', limit).catch((error: unknown) => {
          throw error instanceof ApiError && error.code === 'validation/too-large' ? tooLarge() : error;
        });
        if (!parsed.file) {
          throw errors.invalid('The multipart body has no file part; send the feed file in a part named file', [{ path: 'file', message: 'Required (a file part)' }]);
        }
        state.upload = { mediaType, bytes: parsed.file.bytes, filename: parsed.file.filename, contentDisposition: null, partType: parsed.file.contentType, fields: parsed.fields };
        return;
      }
      if (isUpload) {
        state.upload = { mediaType: 'text/csv', bytes: bytes(), filename: null, contentDisposition: event.headers?.['content-disposition'] ?? null, partType: null, fields: {} };
        return;
      }
      if (uploads.length > 0) {
        state.upload = { mediaType: 'application/json', bytes: bytes(), filename: null, contentDisposition: null, partType: null, fields: {} };
      }
      state.jsonBody = true;
    },
  };
}

// Body handling: size limit (413), JSON content type and syntax (422). Bodies on GET and DELETE are
// ignored, as HTTP gives them no meaning.
import type { MiddlewareObj } from '@middy/core';
import { DEFAULT_MAX_BODY_BYTES } from '../route-table.ts';
import { errors } from '../errors.ts';
import type { MiddyApiRequest } from '../api-state.ts';

const JSON_MEDIA_TYPE = /^application\/(?:[\w.+-]+\+)?json$/i;

export function parseBody(): MiddlewareObj {
  return {
    before: (request) => {
      const { event, context } = request as unknown as MiddyApiRequest;
      const state = context.api;
      const method = state.route.method;
      if (method === 'GET' || method === 'DELETE') return;

      const limit = state.route.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
      const declaredLength = Number(event.headers?.['content-length'] ?? 0);
      if (declaredLength > limit) throw errors.tooLarge(limit);
      const raw = event.body ?? '';
      const bytes = event.isBase64Encoded ? Buffer.from(raw, 'base64') : Buffer.from(raw, 'utf8');
      if (bytes.byteLength > limit) throw errors.tooLarge(limit);
      if (bytes.byteLength === 0) return; // absent body: validation says what is required

      const mediaType = (event.headers?.['content-type'] ?? '').split(';')[0]?.trim() ?? '';
      if (!JSON_MEDIA_TYPE.test(mediaType)) {
        throw errors.invalid(`Send the body as JSON with Content-Type: application/json (got ${mediaType || 'no Content-Type'})`, [
          { path: 'Content-Type', message: 'Must be application/json' },
        ]);
      }
      try {
        state.parsedBody = JSON.parse(bytes.toString('utf8'));
      } catch (error) {
        throw errors.invalid(`The body is not valid JSON: ${(error as Error).message}`);
      }
    },
  };
}

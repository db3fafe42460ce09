// Body handling: the size limit first (413, on the declared length and on the bytes received), then
// @middy/http-json-body-parser (JSON content types only, base64 bodies decoded, __proto__ refused);
// its 415 and 422 become the contract's 422 in the error shaper. Bodies on GET and DELETE are ignored,
// as HTTP gives them no meaning; an absent body is left to validation, which says what is required.
import type { MiddlewareObj } from '@middy/core';
import httpJsonBodyParser from '@middy/http-json-body-parser';
import { DEFAULT_MAX_BODY_BYTES } from '../route-table.ts';
import { errors } from '../errors.ts';
import type { MiddyApiRequest } from '../api-state.ts';

const jsonParser = httpJsonBodyParser();

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
      const size = event.isBase64Encoded ? Buffer.byteLength(raw, 'base64') : Buffer.byteLength(raw, 'utf8');
      if (size > limit) throw errors.tooLarge(limit);
      if (size === 0) return;

      // The parser replaces event.body with the parsed value; keep the event as API Gateway sent it.
      const parsing = { event: { ...event } };
      (jsonParser.before as (request: unknown) => void)(parsing);
      state.parsedBody = parsing.event.body;
    },
  };
}

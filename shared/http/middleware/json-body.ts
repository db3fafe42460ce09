// The JSON body: @middy/http-json-body-parser, on the bodies request-body.ts left to it (a body was
// sent, on a method that has one, and it is not a file). The library refuses what the API has always
// refused — a media type that is not JSON (`application/json`, `+json` types, with or without
// parameters: its 415), text that is not JSON, and a `__proto__` key or a `constructor` carrying a
// `prototype` anywhere in it (its 422s) — and decodes a base64-encoded body; errors.ts turns its
// refusals into the contract's 422 saying what to send instead. It replaces the event's body with the
// parsed value, which the state keeps for validation.
import httpJsonBodyParser from '@middy/http-json-body-parser';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import type { ApiMiddleware, ApiRequest } from '../api-state.ts';

const parser = httpJsonBodyParser<APIGatewayProxyEventV2>();
const parse = parser.before as unknown as (request: ApiRequest) => void;

export const jsonBody: ApiMiddleware = {
  name: 'jsonBody',
  before: (request) => {
    const state = request.context.api;
    if (!state.jsonBody) return;
    parse(request);
    state.parsedBody = request.event.body;
  },
};

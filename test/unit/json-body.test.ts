// JSON request bodies (middleware/json-body.ts: @middy/http-json-body-parser, its refusals mapped by
// errors.ts): which media types are JSON, and what is refused with which 422. Through a function's
// handler on the events API Gateway sends; a public route without a rate limit needs no table.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { invoke } from '../support/invoke.ts';
import { apiHandler } from '../../shared/http/handler.ts';
import { defineRoute } from '../../shared/http/route-table.ts';

const route = defineRoute({
  operationId: 'testJsonBody',
  method: 'POST',
  path: '/v1/test/json-body',
  handler: 'test/unit/json-body.test.ts',
  summary: 'test',
  description: 'Answers the body it was given.',
  tag: 'Operations',
  auth: 'public',
  roles: ['buyer', 'seller'],
  scope: null,
  rateLimited: false,
  request: { body: z.unknown() },
  response: { status: 200, description: 'ok' },
  handlerErrors: [],
  tableActions: [],
});
const handler = apiHandler(route, ({ body }) => Promise.resolve({ data: body }));

const send = (contentType: string | undefined, text: string) =>
  invoke(handler, route.path, { body: text, headers: contentType === undefined ? { 'content-type': '' } : { 'content-type': contentType } });

describe('JSON bodies', () => {
  it.each(['application/json', 'application/json; charset=utf-8', 'APPLICATION/JSON', 'application/merge-patch+json', 'application/vnd.api+json;charset=UTF-8'])(
    'reads %s',
    async (contentType) => {
      const response = await send(contentType, '{"a":[1,{"b":"ä"}]}');
      expect(response.status).toBe(200);
      expect(response.json.data).toEqual({ a: [1, { b: 'ä' }] });
    },
  );

  it.each([
    ['text/plain', 'text/plain'],
    ['application/jsonx', 'application/jsonx'],
    ['application/x-www-form-urlencoded', 'application/x-www-form-urlencoded'],
    [undefined, 'no Content-Type'],
  ])('refuses Content-Type %s with 422 naming what was sent', async (contentType, named) => {
    const response = await send(contentType, '{}');
    expect(response.status).toBe(422);
    expect(response.json).toMatchObject({
      code: 'validation/invalid',
      error: `Send the body as JSON with Content-Type: application/json (got ${named})`,
      details: [{ path: 'Content-Type', message: 'Must be application/json' }],
    });
  });

  it('refuses text that is not JSON with 422 at body', async () => {
    const response = await send('application/json', '{"a":');
    expect(response.status).toBe(422);
    expect(response.json.error).toBe('The body is not valid JSON: Invalid or malformed JSON was provided; send a JSON object');
    expect(response.json.details).toEqual([{ path: 'body', message: 'Must be valid JSON' }]);
  });

  it.each(['{"__proto__":{"admin":true}}', '{"a":{"__proto__":{}}}', '{"constructor":{"prototype":{"admin":true}}}', '[{"constructor":{"prototype":1}}]'])(
    'refuses a prototype key anywhere: %s',
    async (text) => {
      const response = await send('application/json', text);
      expect(response.status).toBe(422);
      expect(response.json.error).toBe('The body is not valid JSON: Forbidden key in JSON body; send a JSON object');
      expect(({} as Record<string, unknown>).admin).toBeUndefined();
    },
  );

  it('keeps a constructor field that is not a prototype carrier', async () => {
    const response = await send('application/json', '{"constructor":"Acme","nested":{"constructor":{"name":"x"}}}');
    expect(response.json.data).toEqual({ constructor: 'Acme', nested: { constructor: { name: 'x' } } });
  });
});

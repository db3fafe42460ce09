// JSON request bodies (shared/http/json-body.ts): which media types are JSON, and what is refused.
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../shared/http/errors.ts';
import { parseJsonBody } from '../../shared/http/json-body.ts';

function refusal(contentType: string | undefined, text: string): ApiError {
  try {
    parseJsonBody(contentType, text);
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
  throw new Error('the body was accepted');
}

describe('parseJsonBody', () => {
  it.each(['application/json', 'application/json; charset=utf-8', 'APPLICATION/JSON', 'application/merge-patch+json', 'application/vnd.api+json;charset=UTF-8'])(
    'reads %s',
    (contentType) => {
      expect(parseJsonBody(contentType, '{"a":[1,{"b":"ä"}]}')).toEqual({ a: [1, { b: 'ä' }] });
    },
  );

  it.each([
    ['text/plain', 'text/plain'],
    ['application/jsonx', 'application/jsonx'],
    ['application/x-www-form-urlencoded', 'application/x-www-form-urlencoded'],
    [undefined, 'no Content-Type'],
    ['', 'no Content-Type'],
  ])('refuses Content-Type %s with 422 naming what was sent', (contentType, named) => {
    const error = refusal(contentType, '{}');
    expect(error.status).toBe(422);
    expect(error.code).toBe('validation/invalid');
    expect(error.message).toBe(`Send the body as JSON with Content-Type: application/json (got ${named})`);
    expect(error.details).toEqual([{ path: 'Content-Type', message: 'Must be application/json' }]);
  });

  it('refuses text that is not JSON with 422 at body', () => {
    const error = refusal('application/json', '{"a":');
    expect(error.message).toBe('The body is not valid JSON: Invalid or malformed JSON was provided; send a JSON object');
    expect(error.details).toEqual([{ path: 'body', message: 'Must be valid JSON' }]);
  });

  it.each(['{"__proto__":{"admin":true}}', '{"a":{"__proto__":{}}}', '{"constructor":{"prototype":{"admin":true}}}', '[{"constructor":{"prototype":1}}]'])(
    'refuses a prototype key anywhere: %s',
    (text) => {
      const error = refusal('application/json', text);
      expect(error.message).toBe('The body is not valid JSON: Forbidden key in JSON body; send a JSON object');
      expect(({} as Record<string, unknown>).admin).toBeUndefined();
    },
  );

  it('keeps a constructor field that is not a prototype carrier', () => {
    expect(parseJsonBody('application/json', '{"constructor":"Acme","nested":{"constructor":{"name":"x"}}}')).toEqual({
      constructor: 'Acme',
      nested: { constructor: { name: 'x' } },
    });
  });
});

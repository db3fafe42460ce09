// A JSON request body, read as the API has always read it: JSON media types only (`application/json`,
// `+json` types, with or without parameters), and no `__proto__` key nor a `constructor` carrying a
// `prototype` anywhere in it, so that no body can reach an object's prototype through a later merge.
import { errors } from './errors.ts';

const JSON_MEDIA_TYPE = /^application\/([a-z0-9.+-]+\+)?json(;|$)/i;

class ForbiddenKey extends Error {}

function refusePrototypeKeys(key: string, value: unknown): unknown {
  if (key === '__proto__' || (key === 'constructor' && typeof value === 'object' && value !== null && Object.hasOwn(value, 'prototype'))) {
    throw new ForbiddenKey();
  }
  return value;
}

/** The parsed body, or the contract's 422 saying what to send instead. */
export function parseJsonBody(contentType: string | undefined, text: string): unknown {
  if (contentType === undefined || !JSON_MEDIA_TYPE.test(contentType)) {
    throw errors.invalid(`Send the body as JSON with Content-Type: application/json (got ${contentType || 'no Content-Type'})`, [
      { path: 'Content-Type', message: 'Must be application/json' },
    ]);
  }
  try {
    return JSON.parse(text, refusePrototypeKeys);
  } catch (error) {
    const reason = error instanceof ForbiddenKey ? 'Forbidden key in JSON body' : 'Invalid or malformed JSON was provided';
    throw errors.invalid(`The body is not valid JSON: ${reason}; send a JSON object`, [{ path: 'body', message: 'Must be valid JSON' }]);
  }
}

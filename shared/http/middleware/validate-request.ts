// Validates path parameters, query string and body against the route's zod schemas. Unknown fields
// are rejected everywhere, so an agent's typo never passes silently. All problems come back at once.
// A path id that cannot exist is answered like an unknown id (404), so ids stay opaque to callers.
import * as z from '../../schemas/zod.ts';
import { invalidFields, type FieldProblem } from '../../failures.ts';
import { zodProblems } from '../../schemas/problems.ts';
import { errors } from '../errors.ts';
import type { ApiMiddleware } from '../api-state.ts';

const NOTHING = z.strictObject({});

/** `%C3%A9` → é; undefined for what is not percent-encoded UTF-8 (`%E9`, `%FF`, `100%`, an encoded surrogate). */
function decodeStrictly(raw: string): string | undefined {
  try {
    return decodeURIComponent(raw.replaceAll('+', ' '));
  } catch {
    return undefined;
  }
}

/**
 * Query parameters whose raw form is not percent-encoded UTF-8. The gateway decodes the query string
 * for us, turning such bytes into U+FFFD (or leaving a stray % as it is), so they are found in the raw
 * string, where a literal U+FFFD (%EF%BF%BD) still differs from a byte that is not UTF-8.
 */
function undecodableQueryParameters(rawQueryString: string): FieldProblem[] {
  const problems: FieldProblem[] = [];
  for (const pair of rawQueryString.split('&')) {
    if (pair === '') continue;
    const separator = pair.indexOf('=');
    const rawName = separator === -1 ? pair : pair.slice(0, separator);
    const name = decodeStrictly(rawName);
    if (name === undefined || decodeStrictly(separator === -1 ? '' : pair.slice(separator + 1)) === undefined) {
      problems.push({ path: name ?? rawName, message: 'Must be percent-encoded UTF-8: each byte of a character that is not plain ASCII as %XX (é is %C3%A9), and a literal % as %25' });
    }
  }
  return problems;
}
const NO_BODY = z.optional(z.strictObject({}));

export const validateRequest: ApiMiddleware = {
  name: 'validateRequest',
  before: ({ event, context: { api: state } }) => {
    const schemas = state.route.request;
    const problems: FieldProblem[] = [];

    const params = (schemas.params ?? NOTHING).safeParse(event.pathParameters ?? {});
    if (!params.success) throw errors.notFound(`Nothing exists at ${event.rawPath}: the id is not one this API issued`);
    state.input.params = params.data;

    const undecodable = undecodableQueryParameters(event.rawQueryString ?? '');
    problems.push(...undecodable);
    const query = (schemas.query ?? NOTHING).safeParse(event.queryStringParameters ?? {});
    if (query.success) state.input.query = query.data;
    // A parameter that could not be decoded has been reported; what its garbled value fails too is noise.
    else problems.push(...zodProblems(query.error.issues).filter((problem) => !undecodable.some((reported) => reported.path === problem.path)));

    // An uploaded file is the handler's to read; a JSON body on an upload route is validated as usual.
    const takesBody = state.route.method !== 'GET' && state.route.method !== 'DELETE' && (state.upload?.mediaType ?? 'application/json') === 'application/json';
    if (takesBody) {
      const body = (schemas.body ?? NO_BODY).safeParse(state.parsedBody);
      if (body.success) state.input.body = body.data;
      else problems.push(...zodProblems(body.error.issues));
    }

    if (problems.length > 0) throw invalidFields(problems);
  },
};

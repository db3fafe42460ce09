// Validates path parameters, query string and body against the route's zod schemas. Unknown fields
// are rejected everywhere, so an agent's typo never passes silently. All problems come back at once.
// A path id that cannot exist is answered like an unknown id (404), so ids stay opaque to callers.
import type { MiddlewareObj } from '@middy/core';
import * as z from 'zod';
import { invalidFields, type FieldProblem } from '../../failures.ts';
import { zodProblems } from '../../schemas/problems.ts';
import { errors } from '../errors.ts';
import type { MiddyApiRequest } from '../api-state.ts';

const NOTHING = z.strictObject({});
const NO_BODY = z.strictObject({}).optional();

export function validateRequest(): MiddlewareObj {
  return {
    before: (request) => {
      const { event, context } = request as unknown as MiddyApiRequest;
      const state = context.api;
      const schemas = state.route.request;
      const problems: FieldProblem[] = [];

      const params = (schemas.params ?? NOTHING).safeParse(event.pathParameters ?? {});
      if (!params.success) throw errors.notFound(`Nothing exists at ${event.rawPath}: the id is not one this API issued`);
      state.input.params = params.data;

      const query = (schemas.query ?? NOTHING).safeParse(event.queryStringParameters ?? {});
      if (query.success) state.input.query = query.data;
      else problems.push(...zodProblems(query.error.issues));

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
}

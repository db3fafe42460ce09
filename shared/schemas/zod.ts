// zod as the functions use it: zod/mini (functions, not methods, so a bundle carries only what its
// schemas call; classic zod costs every cold start ~35 M instructions before any schema: see
// docs/decisions/zod-mini-in-functions.md), with the English messages classic zod would
// register by itself. Every validation message the API answers is zod's English text, so shared/ and
// functions/ import zod from here (lint enforces it), never from 'zod' or 'zod/mini' directly.
/* eslint-disable no-restricted-imports -- the one module that imports zod */
import * as z from 'zod/mini';
import en from 'zod/v4/locales/en.js';

z.config(en());

export * from 'zod/mini';
/* eslint-enable no-restricted-imports */

/**
 * A copy of `schema` carrying `metadata` (description, example, the OpenAPI component `id`, …), as
 * classic zod's `.meta()` makes it. Not `.check(z.meta(…))`: a check is copied onto every schema later
 * derived with `.check()`, and would give the derived schema the same component `id`.
 */
export function withMeta<T extends z.ZodMiniType>(schema: T, metadata: z.core.GlobalMeta): T {
  const copy = schema.clone();
  z.globalRegistry.add(copy, metadata);
  return copy;
}

/**
 * `schema` itself carrying `metadata`, for a schema built in the same expression (`z.object(…)`,
 * `z.string().check(…)`, `z.optional(X)`) that nothing else references: registered without the copy
 * withMeta makes, which is a second schema built at every cold start (about a fifth of what a route's
 * schemas cost at load: docs/performance.md). A schema used in more than one place gets withMeta.
 */
export function annotated<T extends z.ZodMiniType>(schema: T, metadata: z.core.GlobalMeta): T {
  z.globalRegistry.add(schema, metadata);
  return schema;
}

// Schemas shared by every resource: envelope, error body, pagination, timestamps, countries.
import * as z from 'zod';
import { COUNTRY_CODES } from './countries.ts';

/** Runs a refinement only when the value passed every other check, so one mistake gives one message. */
export const ONLY_IF_OTHERWISE_VALID = { when: (payload: { issues: readonly unknown[] }) => payload.issues.length === 0 };

/** A custom message for a schema, except when the field is absent (then validation says "Required"). */
export function unlessMissing(message: string) {
  return (issue: { input?: unknown }) => (issue.input === undefined ? undefined : message);
}

export const Timestamp = z.iso.datetime({ precision: 3 }).meta({
  description: 'ISO 8601 UTC timestamp with milliseconds',
  example: '2026-11-22T10:15:30.123Z',
});

export const CountryCode = z
  .string()
  .refine((code) => COUNTRY_CODES.has(code), 'Must be an assigned ISO 3166-1 alpha-2 country code in uppercase, such as DE')
  .meta({ description: 'ISO 3166-1 alpha-2 country code, uppercase', example: 'DE' });

export const RequestId = z.string().regex(/^req_[0-9A-Z]{26}$/).meta({ example: 'req_01JF3Q5Z8X2C7V9B4N6M1K0PQR' });

export const Meta = z
  .object({ requestId: RequestId, timestamp: Timestamp })
  .meta({ id: 'Meta', description: 'Present on every successful response' });

/** The success envelope around a data schema. */
export function envelope<T extends z.ZodType>(data: T) {
  return z.object({ data, meta: Meta });
}

export const ErrorDetail = z.object({
  path: z.string().meta({ description: 'Dot path of the offending field', example: 'organization.country' }),
  message: z.string(),
});

export const ErrorBody = z
  .object({
    error: z.string().meta({ description: 'Human-readable message that says what to fix' }),
    code: z.enum([
      'auth/invalid-key',
      'auth/forbidden',
      'not-found',
      'validation/invalid',
      'validation/too-large',
      'conflict',
      'idempotency/conflict',
      'rate-limit',
      'internal',
    ]),
    status: z.int(),
    requestId: RequestId,
    details: z.array(ErrorDetail).optional(),
  })
  .meta({ id: 'Error' });

/** Query parameters shared by every list endpoint. */
export const PaginationQuery = z.strictObject({
  limit: z.coerce
    .number({ error: unlessMissing('Must be an integer from 1 to 100') })
    .int('Must be an integer from 1 to 100')
    .min(1, 'Must be an integer from 1 to 100')
    .max(100, 'Must be an integer from 1 to 100')
    .default(20)
    .meta({ description: 'Page size, 1–100', example: 20 }),
  cursor: z.string().min(1).max(2048).optional().meta({ description: 'Opaque cursor from a previous page (nextCursor)' }),
});

/** A page of a list: `{items, nextCursor}`. */
export function page<T extends z.ZodType>(item: T) {
  return z.object({ items: z.array(item), nextCursor: z.string().nullable() });
}

export function idParam(pattern: RegExp, description: string) {
  return z.string().regex(pattern, `Must be ${description}`).meta({ description });
}

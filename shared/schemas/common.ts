// Field schemas shared by every resource: text, timestamps, countries, ids, query integers, pagination.
import * as z from 'zod';
import { COUNTRY_CODES } from './countries.ts';

/** Runs a refinement only when the value passed every other check, so one mistake gives one message. */
export const ONLY_IF_OTHERWISE_VALID = { when: (payload: { issues: readonly unknown[] }) => payload.issues.length === 0 };

/** A custom message for a schema, except when the field is absent (then validation says "Required"). */
export function unlessMissing(message: string) {
  return (issue: { input?: unknown }) => (issue.input === undefined ? undefined : message);
}

// C0 controls, DEL and C1 controls: matching them is the point of these two patterns.
// Tab and newline are allowed only in multi-line text.
/* eslint-disable no-control-regex */
export const CONTROLS_SINGLE_LINE = /[\u0000-\u001F\u007F-\u009F]/;
const CONTROLS_MULTI_LINE = /[\u0000-\u0008\u000B-\u001F\u007F-\u009F]/;
/* eslint-enable no-control-regex */
/**
 * Bidirectional embeddings, overrides and isolates: they reorder how the text around them is shown
 * (`invoice\u202Efdp.exe` reads as invoiceexe.pdf), so a name can pass for another. The marks (U+200E,
 * U+200F, U+061C) stay allowed: right-to-left text needs them and they reorder nothing.
 */
const BIDI_CONTROLS = /[\u202A-\u202E\u2066-\u2069]/;
const BIDI_CONTROLS_MESSAGE = 'Must not contain bidirectional control characters (U+202A–U+202E, U+2066–U+2069), which change the order in which text is displayed';

/** Problems of a text that a person or agent would read: control characters, bidirectional controls and broken UTF-16. */
export function textProblem(value: string, multiline: boolean): string | undefined {
  if ((multiline ? CONTROLS_MULTI_LINE : CONTROLS_SINGLE_LINE).test(value)) {
    return multiline
      ? 'Must not contain control characters other than newline and tab'
      : 'Must be a single line without control characters';
  }
  if (BIDI_CONTROLS.test(value)) return BIDI_CONTROLS_MESSAGE;
  if (!value.isWellFormed()) return 'Must be valid Unicode (no lone surrogates)';
  return undefined;
}

/**
 * Human-readable text: trimmed, `min`–`max` characters, no control characters (multi-line text may
 * hold newlines and tabs), no bidirectional controls and no lone surrogates.
 */
export function text(options: { min?: number; max: number; multiline?: boolean }) {
  const min = options.min ?? 0;
  const range = min > 0 ? `Must be ${min} to ${options.max} characters` : `Must be at most ${options.max} characters`;
  return z
    .string({ error: unlessMissing('Must be a string') })
    .trim()
    .min(min, range)
    .max(options.max, range)
    .superRefine((value, context) => {
      const problem = textProblem(value, options.multiline ?? false);
      if (problem) context.addIssue({ code: 'custom', message: problem });
    });
}

export const Timestamp = z.iso.datetime({ precision: 3 }).meta({
  description: 'ISO 8601 UTC timestamp with milliseconds',
  example: '2026-11-22T10:15:30.123Z',
});

export const CountryCode = z
  .string()
  .refine((code) => COUNTRY_CODES.has(code), 'Must be an assigned ISO 3166-1 alpha-2 country code in uppercase, such as DE')
  .meta({ description: 'ISO 3166-1 alpha-2 country code, uppercase', example: 'DE' });

/**
 * An integer in a query string: plain decimal digits only (no sign, exponent, hex, spaces or leading
 * zeros), within `min`–`max`.
 */
export function queryInteger(options: { min: number; max: number }) {
  const message = `Must be an integer from ${options.min} to ${options.max}, written in plain digits`;
  return z
    .string({ error: unlessMissing(message) })
    .regex(/^(0|[1-9][0-9]{0,15})$/, message)
    .transform(Number)
    .refine((value) => value >= options.min && value <= options.max, message);
}

/** Query parameters shared by every list endpoint. */
export const PaginationQuery = z.strictObject({
  limit: queryInteger({ min: 1, max: 100 })
    .default(20)
    .meta({ description: 'Page size, 1–100', example: 20, type: 'integer' }),
  cursor: z.string().min(1).max(2048).optional().meta({ description: 'Opaque cursor from a previous page (nextCursor)' }),
});

/** A page of a list: `{items, nextCursor}`. */
export function page<T extends z.ZodType>(item: T) {
  return z.object({ items: z.array(item), nextCursor: z.string().nullable() });
}

export function idParam(pattern: RegExp, description: string) {
  return z.string().regex(pattern, `Must be ${description}`).meta({ description });
}

// Field schemas shared by every resource: text, timestamps, countries, ids, query integers, pagination.
import * as z from './zod.ts';
import { ID_PREFIXES, idPattern, type IdKind } from '../ids.ts';
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

/**
 * The control-character and bidirectional-control rules of text(), as JSON Schema patterns for the API
 * document (lone surrogates, which a pattern cannot name, are refused too).
 */
export const TEXT_PATTERN_SINGLE_LINE = '^[^\\x00-\\x1F\\x7F-\\x9F\\u202A-\\u202E\\u2066-\\u2069]*$';
export const TEXT_PATTERN_MULTI_LINE = '^[^\\x00-\\x08\\x0B-\\x1F\\x7F-\\x9F\\u202A-\\u202E\\u2066-\\u2069]*$';

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
  return z.annotated(z.string({ error: unlessMissing('Must be a string') }).check(
    z.trim(),
    z.minLength(min, range),
    z.maxLength(options.max, range),
    z.superRefine((value, context) => {
      const problem = textProblem(value, options.multiline ?? false);
      if (problem) context.addIssue({ code: 'custom', message: problem });
    }),
  ), { pattern: options.multiline ? TEXT_PATTERN_MULTI_LINE : TEXT_PATTERN_SINGLE_LINE });
}


export const Timestamp = z.annotated(z.iso.datetime({ precision: 3 }), {
  id: 'Timestamp',
  maxLength: 24,
  description: 'ISO 8601 UTC timestamp with milliseconds',
  example: '2026-11-22T10:15:30.123Z',
});

export const CountryCode = z.annotated(
  z.string().check(z.refine((code) => COUNTRY_CODES.has(code), 'Must be an assigned ISO 3166-1 alpha-2 country code in uppercase, such as DE')),
  { description: 'ISO 3166-1 alpha-2 country code, uppercase', example: 'DE', maxLength: 2, pattern: '^[A-Z]{2}$' },
);

/**
 * An integer in a query string: plain decimal digits only (no sign, exponent, hex, spaces or leading
 * zeros), within `min`–`max`.
 */
export function queryInteger(options: { min: number; max: number }) {
  const message = `Must be an integer from ${options.min} to ${options.max}, written in plain digits`;
  const digits = z.string({ error: unlessMissing(message) }).check(z.regex(/^(0|[1-9][0-9]{0,15})$/, message));
  return z.annotated(z.pipe(digits, z.transform(Number)).check(z.refine((value) => value >= options.min && value <= options.max, message)), {
    // Documented as what it is on the wire: an integer within its bounds (a query string carries it
    // in decimal digits, which is what the pattern above enforces).
    override: ({ jsonSchema }) => {
      delete jsonSchema.pattern;
      Object.assign(jsonSchema, { type: 'integer', format: 'int32', minimum: options.min, maximum: options.max });
    },
  });
}

/** Longest cursor a list (other than search) returns or accepts. */
export const LIST_CURSOR_MAX = 2048;

/** Query parameters shared by every list endpoint. */
export const PaginationQuery = z.strictObject({
  limit: z.annotated(z._default(queryInteger({ min: 1, max: 100 }), 20), {
    description: 'Page size, 1–100',
    example: 20,
    param: { id: 'Limit' },
    // The document of a request omits defaults; this one is part of the contract.
    override: ({ jsonSchema }) => {
      jsonSchema.default = 20;
    },
  }),
  cursor: z.annotated(z.optional(z.string().check(z.minLength(1), z.maxLength(LIST_CURSOR_MAX))), {
    description: 'Opaque cursor from a previous page (nextCursor)',
    pattern: '^[A-Za-z0-9_-]+$',
    param: { id: 'Cursor' },
  }),
});

/** A page of a list: `{items, nextCursor}`, at most `maxItems` (a list's `limit` is at most 100). */
export function page<T extends z.ZodMiniType>(item: T, options: { maxItems?: number; cursorMaxLength?: number } = {}) {
  return z.object({
    items: z.annotated(z.array(item), { maxItems: options.maxItems ?? 100 }),
    nextCursor: z.annotated(z.nullable(z.string()), { maxLength: options.cursorMaxLength ?? LIST_CURSOR_MAX, pattern: '^[A-Za-z0-9_-]+$' }),
  });
}

export function idParam(pattern: RegExp, description: string, example?: string) {
  // Ids have a fixed length, so the example's is the limit; its prefix names the parameter component.
  const kind = example ? (Object.keys(ID_PREFIXES) as IdKind[]).find((name) => example.startsWith(ID_PREFIXES[name])) : undefined;
  return z.annotated(
    z.string().check(z.regex(pattern, `Must be ${description}`)),
    { description, ...(example ? { example, maxLength: example.length } : {}), ...(kind ? { param: { id: `${idComponentName(kind)}InPath` } } : {}) },
  );
}

/**
 * A string in a response, with the length its writer or the request's own schema enforces, stated for
 * clients. Reads of stored records do not re-check it (so the statement can never fail a read).
 */
export function bounded(maxLength: number, meta: { description?: string; example?: unknown; pattern?: string; format?: string } = {}) {
  return z.annotated(z.string(), { maxLength, ...meta });
}

/** An integer in a response, with the range its writer or the request's own schema enforces, stated for clients. */
export function boundedInt(minimum: number, maximum: number, meta: { description?: string; example?: unknown } = {}) {
  const format = minimum >= -(2 ** 31) && maximum <= 2 ** 31 - 1 ? 'int32' : 'int64';
  return z.annotated(z.int(), { ...meta, override: { minimum, maximum, format } });
}

/** `negotiation` → `NegotiationId`: the component each kind of id is documented as. */
const idComponentName = (kind: IdKind) => `${kind.charAt(0).toUpperCase()}${kind.slice(1)}Id`;

const idSchemas = new Map<IdKind, z.ZodMiniString>();

/** An id in a response, documented once per kind (its form and where it comes from) and referenced. */
export function idOf(kind: IdKind, meta: { description?: string; example?: string } = {}) {
  let schema = idSchemas.get(kind);
  if (!schema) {
    schema = z.withMeta(bounded(ID_PREFIXES[kind].length + 26, { pattern: idPattern(kind).source }), { id: idComponentName(kind) });
    idSchemas.set(kind, schema);
  }
  return Object.keys(meta).length > 0 ? z.withMeta(schema, meta) : schema;
}

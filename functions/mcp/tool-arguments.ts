// A tool's arguments, from the zod schemas of the route it calls: their JSON Schema (what tools/list
// shows a model) and their validation (what the tool checks before calling the API), with no second
// definition of any field. The result's schema is ./tool-results.ts.
//
// A route's query parameters arrive as strings (`limit=20`), so its query schemas parse text. A tool
// takes JSON, so `limit` is an integer in the tool's schema, and the tool validates an argument by
// writing it as the query string would carry it and parsing that with the route's own schema: the
// same checks, the same messages, the same dot paths as over HTTP.
import * as z from '../../shared/schemas/zod.ts';
import { invalidFields, type FieldProblem } from '../../shared/failures.ts';
import type { RouteDefinition } from '../../shared/http/route-table.ts';
import { TEXT_PATTERN_MULTI_LINE, TEXT_PATTERN_SINGLE_LINE } from '../../shared/schemas/common.ts';
import { zodProblems } from '../../shared/schemas/problems.ts';

export type JsonSchema = Record<string, unknown>;

/** A tool's argument object, as tools/list shows it. */
export interface ArgumentsSchema {
  type: 'object';
  properties: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties: false;
}

export type Parsed<T> = { ok: true; value: T } | { ok: false; problems: FieldProblem[] };

/** What a tool takes: its JSON Schema, and the check that turns arguments into what its call needs. */
export interface ToolInput<T> {
  readonly schema: ArgumentsSchema;
  parse(args: Record<string, unknown>): Parsed<T>;
}

/**
 * A tool input whose JSON Schema is built when first read. Only tools/list reads it, and building
 * every tool's (zod's JSON Schema conversion of every route's schemas) was a large part of the MCP
 * function's init: a cold start that serves initialize or a tools/call never builds them.
 */
export function toolInput<T>(schemaOf: () => ArgumentsSchema, parse: (args: Record<string, unknown>) => Parsed<T>): ToolInput<T> {
  let schema: ArgumentsSchema | undefined;
  return {
    get schema() {
      return (schema ??= schemaOf());
    },
    parse,
  };
}

/** The parts of one API request, checked with its route's schemas; values as the caller sent them. */
export interface RouteArguments {
  params: Record<string, string>;
  query: Record<string, unknown>;
  body: Record<string, unknown> | undefined;
  /** The POST's Idempotency-Key, when the caller gave one (the SDK makes one otherwise). */
  idempotencyKey: string | undefined;
}

/**
 * Keys that JSON Schema defines; anything else a zod `.meta()` adds (`example`, `id`, the OpenAPI
 * document's `param` and `header` components, its `override`, applied by argumentSchema) is rewritten or dropped.
 */
const ANNOTATION_RENAMES: Record<string, string | null> = { example: 'examples', id: null, $schema: null, param: null, header: null, override: null };
/** Keywords whose value maps names to schemas. */
const SCHEMA_MAPS = new Set(['properties', 'patternProperties', 'definitions', '$defs']);

/**
 * The JSON Schema (draft-07) of a zod schema's input side, self-contained: named components are
 * inlined (a model reads one schema per tool, not a document of references), `example` becomes
 * `examples`, and a query integer is an integer without the digits pattern of its text form.
 */
export function argumentSchema(schema: z.ZodMiniType): JsonSchema {
  const generated = z.toJSONSchema(schema, { target: 'draft-7', io: 'input', unrepresentable: 'any', override: applyDocumentOverride }) as JsonSchema;
  const definitions = (generated.definitions ?? {}) as Record<string, JsonSchema>;
  const { definitions: _definitions, $schema: _schema, ...root } = generated;
  return tidy(root, definitions, new Set()) as JsonSchema;
}

/**
 * The OpenAPI document's `override` of a schema (`.meta({ override })`: keywords, or a function that
 * edits the node, as zod-openapi applies it), applied here too: a query integer is documented as an
 * integer with its bounds, and so a model sees it.
 */
function applyDocumentOverride(context: { zodSchema: unknown; jsonSchema: JsonSchema }): void {
  const override = (z.globalRegistry.get(context.zodSchema as z.ZodMiniType) as { override?: unknown } | undefined)?.override;
  if (typeof override === 'function') (override as (context: { jsonSchema: JsonSchema; io: 'input' }) => void)({ jsonSchema: context.jsonSchema, io: 'input' });
  else if (override !== null && typeof override === 'object') Object.assign(context.jsonSchema, override);
}

function tidy(node: unknown, definitions: Record<string, JsonSchema>, resolving: Set<string>): unknown {
  if (Array.isArray(node)) return node.map((item) => tidy(item, definitions, resolving));
  if (node === null || typeof node !== 'object') return node;
  let object = node as JsonSchema;
  // `{allOf: [{$ref}]}` is how zod attaches a description to a reference: one schema, merged.
  if (Array.isArray(object.allOf) && object.allOf.length === 1 && Object.keys(object).every((key) => key === 'allOf' || key === 'description' || key === 'default')) {
    const { allOf, ...rest } = object;
    object = { ...(allOf[0] as JsonSchema), ...rest };
  }
  if (typeof object.$ref === 'string') {
    const name = decodeURIComponent(object.$ref.replace(/^#\/definitions\//, ''));
    const target = definitions[name];
    if (!target || resolving.has(name)) throw new Error(`Cannot inline ${object.$ref} in a tool's argument schema`);
    const { $ref: _ref, ...rest } = object;
    const inlined = tidy(target, definitions, new Set([...resolving, name])) as JsonSchema;
    return { ...inlined, ...(tidy(rest, definitions, resolving) as JsonSchema) };
  }
  const out: JsonSchema = {};
  for (const [key, value] of Object.entries(object)) {
    if (SCHEMA_MAPS.has(key) && value !== null && typeof value === 'object') {
      // Names of properties, not keywords: kept as they are, their schemas tidied.
      out[key] = Object.fromEntries(Object.entries(value).map(([name, schema]) => [name, tidy(schema, definitions, resolving)]));
      continue;
    }
    const renamed = key in ANNOTATION_RENAMES ? ANNOTATION_RENAMES[key] : key;
    if (renamed === null || renamed === undefined) continue;
    out[renamed] = renamed === 'examples' && key === 'example' ? [value] : tidy(value, definitions, resolving);
  }
  if (out.type === 'integer') delete out.pattern;
  // JSON Schema's default.
  if (out.minLength === 0) delete out.minLength;
  // The patterns that only refuse control characters say nothing to a model (the check still applies
  // them), and bounds of ±2^53 are no bounds: both only lengthen tools/list.
  if (out.pattern === TEXT_PATTERN_SINGLE_LINE || out.pattern === TEXT_PATTERN_MULTI_LINE) delete out.pattern;
  // A date or date-time's format says what its long pattern and its length do (the check still applies them).
  if (out.format === 'date-time' || out.format === 'date') {
    delete out.pattern;
    delete out.maxLength;
  }
  // An id's pattern (`^ord_…`, of a fixed length) says what its example, its length and a description
  // that only names the id's kind (`an order id (ord_…)`) would.
  if (typeof out.pattern === 'string' && /^\^[a-z]+_\[/.test(out.pattern)) {
    delete out.examples;
    delete out.maxLength;
    if (typeof out.description === 'string' && /^an? [\w ]+ id \([a-z]+_…\)$/.test(out.description)) delete out.description;
  }
  // An example that is the default says nothing more (a list's limit).
  if (Array.isArray(out.examples) && out.examples.length === 1 && 'default' in out && JSON.stringify(out.examples[0]) === JSON.stringify(out.default)) delete out.examples;
  if (out.minimum === Number.MIN_SAFE_INTEGER) delete out.minimum;
  // Upper bounds of a billion and more (quantities, amounts) bound nothing a model would send: the check
  // still applies them.
  if (typeof out.maximum === 'number' && out.maximum >= 1_000_000_000) delete out.maximum;
  // A pattern of a fixed length (`^[A-Z]{3}$`, a currency or a country code) says the length too.
  if (typeof out.pattern === 'string' && /^\^\[[^\]]+\]\{\d+\}\$$/.test(out.pattern)) delete out.maxLength;
  // A country code's pattern and its example say what the schema's description of ISO 3166-1 does.
  if (out.pattern === '^[A-Z]{2}$' && typeof out.description === 'string' && out.description.startsWith('ISO 3166-1 alpha-2')) delete out.description;
  // int32 and int64 are OpenAPI's formats, not JSON Schema's: the bounds say it to a model.
  if (out.format === 'int32' || out.format === 'int64') delete out.format;
  return out;
}

/** The keywords an outline keeps: names, types, what is required, enumerations. */
const OUTLINE_KEYWORDS = new Set(['type', 'properties', 'required', 'items', 'enum', 'const', 'anyOf', 'additionalProperties']);

/**
 * A JSON Schema reduced to its outline (OUTLINE_KEYWORDS), for an argument whose every field another
 * tool describes (a feed row: get_feed_template): the check still applies the whole schema.
 */
export function outline(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(outline);
  if (node === null || typeof node !== 'object') return node;
  const out: JsonSchema = {};
  for (const [key, value] of Object.entries(node)) {
    if (!OUTLINE_KEYWORDS.has(key)) continue;
    out[key] = key === 'properties' ? Object.fromEntries(Object.entries(value as JsonSchema).map(([name, schema]) => [name, outline(schema)])) : outline(value);
  }
  const members = out.anyOf as JsonSchema[] | undefined;
  // `anyOf: [{type: "integer"}, {type: "null"}]` is `type: ["integer", "null"]`.
  if (members?.every((member) => Object.keys(member).length === 1 && typeof member.type === 'string')) {
    const { anyOf: _anyOf, ...rest } = out;
    return { ...rest, type: members.map((member) => member.type) };
  }
  return out;
}

/** The properties and required names of an object schema's JSON Schema. */
function fieldsOf(schema: z.ZodMiniType): { properties: Record<string, JsonSchema>; required: string[] } {
  const json = argumentSchema(schema);
  if (json.type !== 'object') throw new Error('A tool argument part must be an object schema');
  return { properties: (json.properties ?? {}) as Record<string, JsonSchema>, required: (json.required ?? []) as string[] };
}

/**
 * A list's cursor as a model needs it: the nextCursor of the page before (the tools' descriptions say
 * so once each); its pattern and bounds, which only a forged cursor breaks, are left to the check.
 */
const CURSOR_ARGUMENT: JsonSchema = { type: 'string', description: 'nextCursor of the previous page' };

/** A list's limit: its bounds and default say what its description would. */
const pageLimit = (property: JsonSchema): JsonSchema => {
  const { description: _description, ...rest } = property;
  return rest;
};

/** One argument object from several parts (path, query, body, extras); a name may appear once. */
export function argumentsSchema(parts: readonly (z.ZodMiniType | undefined)[], extra: Record<string, JsonSchema> = {}): ArgumentsSchema {
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  for (const part of parts) {
    if (!part) continue;
    const fields = fieldsOf(part);
    for (const [name, property] of Object.entries(fields.properties)) {
      if (name in properties) throw new Error(`Argument ${name} is defined twice`);
      properties[name] = name === 'cursor' ? CURSOR_ARGUMENT : name === 'limit' ? pageLimit(property) : property;
    }
    required.push(...fields.required);
  }
  for (const [name, property] of Object.entries(extra)) {
    if (name in properties) throw new Error(`Argument ${name} is defined twice`);
    properties[name] = property;
  }
  return { type: 'object', properties, ...(required.length > 0 ? { required } : {}), additionalProperties: false };
}

/** The keys an object schema declares (a union: the keys of every member). */
export function keysOf(schema: z.ZodMiniType | undefined): Set<string> {
  if (!schema) return new Set();
  const def = (schema as unknown as { _zod: { def: { type: string; shape?: Record<string, unknown>; options?: z.ZodMiniType[]; innerType?: z.ZodMiniType } } })._zod.def;
  if (def.shape) return new Set(Object.keys(def.shape));
  if (def.options) return new Set(def.options.flatMap((option) => [...keysOf(option)]));
  if (def.innerType) return keysOf(def.innerType);
  return new Set();
}

/** A value as a query string carries it: arrays comma-separated (as API Gateway joins repeated parameters). */
function asQueryText(value: unknown): unknown {
  if (Array.isArray(value)) return (value as unknown[]).map((item) => (typeof item === 'string' || typeof item === 'number' || typeof item === 'boolean' ? String(item) : item)).join(',');
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return value;
}

const NOTHING = z.strictObject({});
const NO_BODY = z.optional(z.strictObject({}));

/** Parses one part with its schema; its problems, with dot paths, or nothing. */
function check(schema: z.ZodMiniType, value: unknown): FieldProblem[] {
  const result = schema.safeParse(value);
  return result.success ? [] : zodProblems(result.error.issues);
}

export const IdempotencyKeyArgument = {
  idempotencyKey: {
    type: 'string',
    minLength: 1,
    maxLength: 255,
    // What a repeat does is said once, in the server's instructions: this is short, since every change has it.
    description: 'Optional: a repeat with this key and arguments answers the first outcome, not a second act (24 h)',
  },
} as const satisfies Record<string, JsonSchema>;

export function parseIdempotencyKey(value: unknown): FieldProblem[] {
  if (value === undefined) return [];
  return typeof value === 'string' && value.length >= 1 && value.length <= 255
    ? []
    : [{ path: 'idempotencyKey', message: 'Must be a string of 1 to 255 characters' }];
}

/**
 * The argument name of a route's `{id}` path parameter: the API's own name for that id, as its records
 * and other tools' arguments spell it (`orderId`, not `id`), from the collection the path names.
 */
const ID_ARGUMENTS: Record<string, string> = {
  orders: 'orderId',
  rfqs: 'rfqId',
  offers: 'offerId',
  products: 'productId',
  feeds: 'feedId',
  webhooks: 'webhookId',
  events: 'eventId',
};

/** A route's path parameters by the names its tool takes them under (`{id}` of /v1/orders/{id} → orderId). */
export function pathArgumentNames(path: string): Record<string, string> {
  const names: Record<string, string> = {};
  for (const match of path.matchAll(/([\w-]+)\/\{(\w+)\}/g)) {
    const [, collection, parameter] = match as unknown as [string, string, string];
    names[parameter] = parameter === 'id' ? (ID_ARGUMENTS[collection] ?? parameter) : parameter;
  }
  return names;
}

/** Problems of a part checked under its route names, by the names the tool takes them under. */
const renamed = (problems: FieldProblem[], names: Record<string, string>): FieldProblem[] =>
  problems.map((problem) => {
    const [head, ...rest] = problem.path.split('.');
    const name = head === undefined ? undefined : names[head];
    return name === undefined ? problem : { ...problem, path: [name, ...rest].join('.') };
  });

/** An argument object's JSON Schema with some properties named otherwise. */
function withNames(schema: ArgumentsSchema, names: Record<string, string>): ArgumentsSchema {
  const rename = (name: string) => names[name] ?? name;
  return {
    ...schema,
    properties: Object.fromEntries(Object.entries(schema.properties).map(([name, property]) => [rename(name), property])),
    ...(schema.required ? { required: schema.required.map(rename) } : {}),
  };
}

/**
 * A tool that is one call of one route: its arguments are the route's path parameters (an `{id}` by
 * its API name: pathArgumentNames), query parameters and body fields side by side (a POST's also
 * `idempotencyKey`), checked with the route's schemas after the query values are written as text.
 */
export function routeInput(route: RouteDefinition): ToolInput<RouteArguments> {
  const { params, query, body } = route.request;
  const takesBody = route.method === 'POST' || route.method === 'PATCH';
  const acceptsKey = route.method === 'POST';
  const argumentNames = pathArgumentNames(route.path);
  const parameterOf = Object.fromEntries(Object.entries(argumentNames).map(([parameter, argument]) => [argument, parameter]));
  const queryKeys = keysOf(query);
  return toolInput(
    () => withNames(argumentsSchema([params, query, takesBody ? body : undefined], acceptsKey ? IdempotencyKeyArgument : {}), argumentNames),
    (args) => {
      const parts = { params: {} as Record<string, unknown>, query: {} as Record<string, unknown>, body: {} as Record<string, unknown> };
      let idempotencyKey: unknown;
      for (const [name, value] of Object.entries(args)) {
        if (acceptsKey && name === 'idempotencyKey') idempotencyKey = value;
        else if (parameterOf[name] !== undefined) parts.params[parameterOf[name]] = value;
        else if (queryKeys.has(name) || !takesBody) parts.query[name] = value;
        else parts.body[name] = value; // body fields, and unknown names (which the body schema refuses)
      }
      const problems: FieldProblem[] = [];
      const paramsText = Object.fromEntries(Object.entries(parts.params).map(([name, value]) => [name, typeof value === 'number' ? String(value) : value]));
      problems.push(...renamed(check(params ?? NOTHING, paramsText), argumentNames));
      problems.push(...check(query ?? NOTHING, Object.fromEntries(Object.entries(parts.query).map(([name, value]) => [name, asQueryText(value)]))));
      const bodyValue = Object.keys(parts.body).length > 0 ? parts.body : undefined;
      if (takesBody) problems.push(...check(body ?? NO_BODY, bodyValue));
      problems.push(...parseIdempotencyKey(idempotencyKey));
      if (problems.length > 0) return { ok: false, problems };
      return {
        ok: true,
        value: { params: paramsText as Record<string, string>, query: parts.query, body: bodyValue, idempotencyKey: idempotencyKey as string | undefined },
      };
    },
  );
}

/** The error a tool answers for arguments that fail their check: the API's own message and details. */
export function invalidArguments(problems: FieldProblem[]): { message: string; details: FieldProblem[] } {
  const failure = invalidFields(problems);
  return { message: failure.message, details: problems };
}

/** A zod error's issues as the API words them (dot paths under `prefix`). */
export function problemsOf(error: z.core.$ZodError, prefix: PropertyKey[] = []): FieldProblem[] {
  return zodProblems(error.issues, prefix);
}

/** One property of an object schema's argument JSON Schema (a composition reuses a route's field). */
export function propertyOf(schema: z.ZodMiniType, name: string): JsonSchema {
  const property = (argumentSchema(schema).properties as Record<string, JsonSchema> | undefined)?.[name];
  if (!property) throw new Error(`No argument ${name}`);
  return property;
}

// A tool's result schema: the route's `data`, as one object (MCP requires `type: "object"` at the root
// of a tool's outputSchema, and the client checks every structuredContent against it), written out
// compactly for tools/list (docs/decisions/mcp-compact-tool-list.md): the fields, their types, which
// are required and the values of enumerations; no descriptions, examples or bounds (the arguments and
// the tools' descriptions carry those), and a sub-schema several fields share defined once.
import * as z from '../../shared/schemas/zod.ts';
import type { RouteWithDocument } from '../../shared/http/route-table.ts';

export type JsonSchema = Record<string, unknown>;

const isObject = (schema: z.core.$ZodType): schema is z.ZodMiniObject => schema instanceof z.ZodMiniObject;
const isUnion = (schema: z.core.$ZodType): schema is z.ZodMiniUnion => schema instanceof z.ZodMiniUnion;
const isArray = (schema: z.core.$ZodType): schema is z.ZodMiniArray => schema instanceof z.ZodMiniArray;

/**
 * The route's `data` schema as one object, as MCP requires of a tool's result: a union of objects (a
 * product as its seller or anyone else sees it) becomes one object with the fields of either.
 */
export function dataOf(route: RouteWithDocument): z.ZodMiniObject {
  const schema = route.response.schema;
  // A copy without the component name, so that the JSON Schema's root is the object itself (MCP
  // requires `type: "object"` there), not a reference to a named definition.
  if (isObject(schema)) return z.object(schema.shape);
  if (isUnion(schema) && schema.def.options.every(isObject)) {
    const [first, ...rest] = schema.def.options;
    return rest.reduce(eitherObject, first as z.ZodMiniObject);
  }
  throw new Error(`${route.operationId} answers ${schema.def.type}, which a tool result cannot be`);
}

/**
 * What a route tool's result schema is built from: dataOf, or a union that is not one of plain objects
 * (the events' discriminated envelopes) as it is, its alternatives merged into one object when compacted.
 */
export function resultOf(route: RouteWithDocument): z.ZodMiniType {
  const schema = route.response.schema;
  return schema.def.type === 'union' && !(isUnion(schema) && schema.def.options.every(isObject)) ? schema : dataOf(route);
}

/** Either object's fields: one only one of them has is optional; one they type differently is either type. */
export function eitherObject(first: z.ZodMiniObject, second: z.ZodMiniObject): z.ZodMiniObject {
  const shape: Record<string, z.ZodMiniType> = {};
  for (const name of new Set([...Object.keys(first.shape), ...Object.keys(second.shape)])) {
    const a = first.shape[name] as z.ZodMiniType | undefined;
    const b = second.shape[name] as z.ZodMiniType | undefined;
    if (a && b) shape[name] = a === b ? a : eitherField(a, b);
    else shape[name] = z.optional((a ?? b)!);
  }
  return z.object(shape);
}

/** Two types of one field: arrays of either item, objects merged, anything else a union. */
function eitherField(a: z.ZodMiniType, b: z.ZodMiniType): z.ZodMiniType {
  if (isArray(a) && isArray(b)) return z.array(eitherField(a.def.element as z.ZodMiniType, b.def.element as z.ZodMiniType));
  if (isObject(a) && isObject(b)) return eitherObject(a, b);
  return z.union([a, b]);
}

/** What tools/list shows of a tool's result, built when first read (only tools/list reads it). */
export interface ToolOutput {
  readonly schema: JsonSchema;
}

/** A tool's result schema from the zod schema of its data, compacted when tools/list first asks for it. */
export function toolOutput(dataSchema: () => z.ZodMiniType): ToolOutput {
  let schema: JsonSchema | undefined;
  return {
    get schema() {
      return (schema ??= compactOutputSchema(dataSchema()));
    },
  };
}

/** The keywords a compact result schema keeps: what a result's shape is, not what bounds its values. */
const KEPT_KEYWORDS = new Set(['type', 'properties', 'items', 'enum', 'const', 'anyOf', 'oneOf', 'additionalProperties', '$ref']);
/** Keywords whose value maps names to schemas. */
const SCHEMA_MAPS = new Set(['properties', 'definitions']);
/** A repeated sub-schema shorter than this is written where it is used: a reference would not be shorter. */
const SHARE_FROM = 60;
/**
 * Objects nested deeper than this (the result, or a page's item, is 1) are only said to be objects:
 * the result shows them, the tools' descriptions and the instructions say what they hold (Money…).
 */
const OUTPUT_DEPTH = 1;

/**
 * The compact JSON Schema (draft-07) of a result: shape only (KEPT_KEYWORDS), no `required` (every
 * field of a record is present; one that may be empty says null), open objects (responses gain fields
 * within /v1: docs/decisions/open-responses-closed-requests.md), alternative objects as one
 * (merged), objects below OUTPUT_DEPTH as `object`, and each sub-schema used more than once, long
 * enough to be worth it, under `definitions` with `$ref`s to it.
 */
export function compactOutputSchema(schema: z.ZodMiniType): JsonSchema {
  const generated = z.toJSONSchema(schema, { target: 'draft-7', io: 'output', unrepresentable: 'any' }) as JsonSchema;
  const { definitions: named = {}, $schema: _schema, ...root } = generated as JsonSchema & { definitions?: Record<string, unknown> };
  const definitions = Object.fromEntries(Object.entries(named).map(([name, definition]) => [name, shapeOf(definition)])) as Record<string, JsonSchema>;
  const inline = (node: unknown, resolving: ReadonlySet<string>): unknown => {
    if (Array.isArray(node)) return node.map((item) => inline(item, resolving));
    if (node === null || typeof node !== 'object') return node;
    const object = node as JsonSchema;
    if (typeof object.$ref === 'string') {
      const name = refName(object.$ref);
      const target = definitions[name];
      if (!target || resolving.has(name)) throw new Error(`Cannot write out ${object.$ref} in a result schema`);
      return inline(target, new Set([...resolving, name]));
    }
    return mapSchema(object, (value) => inline(value, resolving));
  };
  const whole = merged(inline(shapeOf(root), new Set())) as JsonSchema;
  // A page's items are at the page's own level: a list shows its records as a read shows one.
  const { items, nextCursor } = (whole.properties ?? {}) as Record<string, JsonSchema | undefined>;
  const compact = (
    items?.type === 'array' && typeof items.items === 'object' && nextCursor !== undefined
      ? { ...whole, properties: { ...(truncated(whole.properties, 1) as JsonSchema), items: { ...items, items: truncated(items.items, 1) } } }
      : truncated(whole, 1)
  ) as JsonSchema;
  // MCP requires an object at the root of a tool's result schema.
  if (compact.type !== 'object') throw new Error(`A tool's result must be an object, not ${JSON.stringify(compact).slice(0, 80)}`);
  // Names for shared sub-schemas: the component's, where one is exactly that shape.
  const names = new Map<string, string>();
  for (const name of Object.keys(definitions).sort()) names.set(JSON.stringify(merged(inline(definitions[name], new Set([name])))), name);
  return shared(compact, names);
}

/** The node with each of its sub-schemas mapped. */
function mapSchema(object: JsonSchema, map: (value: unknown) => unknown): JsonSchema {
  return Object.fromEntries(Object.entries(object).map(([key, value]) => [key, SCHEMA_MAPS.has(key) ? mapValues(value as JsonSchema, map) : map(value)]));
}

/** Objects below OUTPUT_DEPTH as `{type: "object"}` (nullable ones as either). */
function truncated(node: unknown, depth: number): unknown {
  if (Array.isArray(node)) return node.map((item) => truncated(item, depth));
  if (node === null || typeof node !== 'object') return node;
  const object = node as JsonSchema;
  if (object.properties !== undefined || (object.additionalProperties !== undefined && object.type === 'object')) {
    if (depth > OUTPUT_DEPTH) return { type: 'object' };
    return mapSchema(object, (value) => truncated(value, depth + 1));
  }
  // Arrays, alternatives and properties' schemas are not a level of their own.
  return typesJoined(Object.fromEntries(Object.entries(object).map(([key, value]) => [key, key === 'properties' ? value : truncated(value, depth)])));
}

/** Sub-schemas that occur more than once (and are long enough) moved to `definitions`, largest first. */
function shared(schema: JsonSchema, names: ReadonlyMap<string, string>): JsonSchema {
  const counts = new Map<string, number>();
  const count = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(count);
    if (node === null || typeof node !== 'object') return;
    const text = JSON.stringify(node);
    if (text.length >= SHARE_FROM && (node as JsonSchema).type !== undefined) counts.set(text, (counts.get(text) ?? 0) + 1);
    Object.entries(node).forEach(([key, value]) => (SCHEMA_MAPS.has(key) ? Object.values(value as JsonSchema).forEach(count) : count(value)));
  };
  count(schema);
  const repeated = [...counts].filter(([text, times]) => times > 1 && text !== JSON.stringify(schema)).map(([text]) => text).sort((a, b) => b.length - a.length);
  if (repeated.length === 0) return schema;
  const definitions: Record<string, unknown> = {};
  const refer = new Map<string, string>();
  for (const text of repeated) refer.set(text, names.get(text) ?? `Shape${refer.size + 1}`);
  const replace = (node: unknown, top: boolean): unknown => {
    if (Array.isArray(node)) return node.map((item) => replace(item, false));
    if (node === null || typeof node !== 'object') return node;
    const name = top ? undefined : refer.get(JSON.stringify(node));
    if (name !== undefined) return { $ref: `#/definitions/${name}` };
    return mapSchema(node as JsonSchema, (value) => replace(value, false));
  };
  for (const [text, name] of refer) definitions[name] = mapSchema(JSON.parse(text) as JsonSchema, (value) => replace(value, false));
  const used = new Set<string>();
  const body = replace(schema, true) as JsonSchema;
  walkRefs([body, definitions], (name) => used.add(name));
  // A repeated shape inside another repeated shape may no longer be used outside it.
  return { ...body, definitions: Object.fromEntries(Object.entries(definitions).filter(([name]) => used.has(name)).sort(([a], [b]) => a.localeCompare(b))) };
}

const refName = (ref: string): string => decodeURIComponent(ref.replace(/^#\/definitions\//, ''));

const mapValues = (object: JsonSchema, map: (value: unknown) => unknown): JsonSchema => Object.fromEntries(Object.entries(object).map(([name, value]) => [name, map(value)]));

function walkRefs(node: unknown, visit: (name: string) => void): void {
  if (Array.isArray(node)) for (const item of node) walkRefs(item, visit);
  else if (node !== null && typeof node === 'object') {
    const object = node as JsonSchema;
    if (typeof object.$ref === 'string') visit(refName(object.$ref));
    for (const value of Object.values(object)) walkRefs(value, visit);
  }
}

/** One schema node reduced to its shape. */
function shapeOf(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(shapeOf);
  if (node === null || typeof node !== 'object') return node;
  let object = node as JsonSchema;
  // `{allOf: [X], description}` is how zod describes a reference: X itself.
  if (Array.isArray(object.allOf) && object.allOf.length === 1) object = { ...(object.allOf[0] as JsonSchema) };
  const out: JsonSchema = {};
  for (const [key, value] of Object.entries(object)) {
    if (!KEPT_KEYWORDS.has(key)) continue;
    if (key === 'additionalProperties') {
      // A record's values keep their shape; `false` (a closed object) and `{}` (anything) say nothing a result needs.
      if (value !== null && typeof value === 'object' && Object.keys(value).length > 0) out[key] = shapeOf(value);
      continue;
    }
    out[key] = SCHEMA_MAPS.has(key) ? mapValues(value as JsonSchema, shapeOf) : shapeOf(value);
  }
  return typesJoined(out);
}

/** `anyOf: [{type: "string"}, {type: "null"}]` is `type: ["string", "null"]`. */
function typesJoined(node: JsonSchema): JsonSchema {
  const members = (node.anyOf ?? node.oneOf) as JsonSchema[] | undefined;
  if (!members || !members.every((member) => Object.keys(member).length === 1 && typeof member.type === 'string')) return node;
  const { anyOf: _anyOf, oneOf: _oneOf, ...rest } = node;
  return { ...rest, type: [...new Set(members.map((member) => member.type as string))] };
}

const isObjectShape = (node: JsonSchema): boolean => node.type === 'object' && Object.keys(node).every((key) => key === 'type' || key === 'properties' || key === 'required');

/**
 * Alternatives that are all objects (the events of list_events, a product as its seller or a buyer
 * sees it) as one object: the fields of any, required where all require them, a field typed otherwise
 * by each as either type (enumerations joined). A model reads one shape, and a client still checks it.
 */
function merged(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(merged);
  if (node === null || typeof node !== 'object') return node;
  const object = typesJoined(mapSchema(node as JsonSchema, merged));
  const members = (object.anyOf ?? object.oneOf) as JsonSchema[] | undefined;
  if (!members || members.length < 2 || !members.every(isObjectShape) || Object.keys(object).length > 1) return object;
  return members.reduce(mergeTwo);
}

function mergeTwo(a: JsonSchema, b: JsonSchema): JsonSchema {
  if (JSON.stringify(a) === JSON.stringify(b)) return a;
  if (isObjectShape(a) && isObjectShape(b)) {
    const first = (a.properties ?? {}) as Record<string, JsonSchema>;
    const second = (b.properties ?? {}) as Record<string, JsonSchema>;
    const properties: Record<string, JsonSchema> = {};
    for (const name of new Set([...Object.keys(first), ...Object.keys(second)])) {
      const x = first[name];
      const y = second[name];
      properties[name] = x && y ? mergeTwo(x, y) : ((x ?? y) as JsonSchema);
    }
    const secondRequired = new Set((b.required ?? []) as string[]);
    const required = ((a.required ?? []) as string[]).filter((name) => secondRequired.has(name));
    return { type: 'object', properties, ...(required.length > 0 ? { required } : {}) };
  }
  const values = (schema: JsonSchema): unknown[] | undefined => ('const' in schema ? [schema.const] : (schema.enum as unknown[] | undefined));
  const [x, y] = [values(a), values(b)];
  if (x && y && a.type === b.type && Object.keys(a).length === 2 && Object.keys(b).length === 2) return { type: a.type, enum: [...new Set([...x, ...y])] };
  return { anyOf: [...((a.anyOf as JsonSchema[] | undefined) ?? [a]), b] };
}

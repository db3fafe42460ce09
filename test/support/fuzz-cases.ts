// Request cases for the OpenAPI-driven fuzz test, generated from the served document's operations:
// a valid starting point (the operation's example body, real ids in the path) mutated at one place —
// a body field (missing, extra, wrong type, over-long, boundary number, unicode and controls), the
// whole body (not JSON, not an object, another content type, over the size limit), a query parameter
// or a path id. Each case says whether the document itself forbids it (checked with Ajv against the
// document's own schemas): such a request must be refused and must write nothing.
import fc from 'fast-check';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { isValidIdempotencyKey } from '../../shared/http/idempotency-key.ts';

type Json = Record<string, any>;

export interface FuzzOperation {
  method: string;
  /** The path template, `/v1/webhooks/{id}`. */
  path: string;
  operation: Json;
}

export interface FuzzCase {
  operationId: string;
  method: string;
  template: string;
  /** What was changed, for the failure message. */
  label: string;
  /** The request path with its query string, as sent. */
  url: string;
  headers: Record<string, string>;
  body?: string | Buffer;
  /** True when the served document forbids the request: it must be answered 4xx and change nothing. */
  forbidden: boolean;
  /** The dot path (body) or parameter name changed, when the change is one field's. */
  field?: string;
}

/** Ids of real records, by prefix (`whk_` → an id the caller owns). */
export type IdsByPrefix = Record<string, string>;

const ULID = '01KAZQ9V1S8X3M4N5P6Q7R8S9T';
const PREFIXES = ['agt_', 'prd_', 'ofr_', 'neg_', 'ord_', 'aud_', 'feed_', 'whk_', 'evt_', 'dlv_', 'req_'];

/** Strings that break something somewhere: empty, blanks, controls, bidi overrides, lone surrogates, non-BMP, NUL. */
const NASTY_STRINGS = [
  '',
  ' ',
  '   padded   ',
  '\u0000',
  'tab\there',
  'line\nbreak',
  '\u001b[31mred',
  '\u202egnirts desrever',
  '\u2066isolate\u2069',
  '\ud800',
  'lone \udfff low',
  '名前 😀 ñ é',
  'e\u0301',
  '\u200b',
  '\ufeffbom',
  '%ZZ%',
  '../../etc/passwd',
  '<script>alert(1)</script>',
  "' OR 1=1 --",
  '${jndi:ldap://x}',
  'null',
  '0',
  '-1',
  'true',
  '1e309',
];

const NASTY_NUMBERS = [0, -0, -1, 1, 0.5, -0.5, 1.0000001, 2 ** 31, 2 ** 31 - 1, -(2 ** 31), 2 ** 53, 2 ** 53 + 2, -(2 ** 53), Number.MAX_VALUE, Number.MIN_VALUE, 1e21];

function typesOf(schema: Json): string[] {
  if (schema.type) return Array.isArray(schema.type) ? schema.type : [schema.type];
  if (schema.enum) return [...new Set(schema.enum.map((value: unknown) => (value === null ? 'null' : typeof value)))] as string[];
  if (schema.const !== undefined) return [typeof schema.const];
  const parts = [...(schema.anyOf ?? []), ...(schema.oneOf ?? []), ...(schema.allOf ?? [])] as Json[];
  return [...new Set(parts.flatMap(typesOf))];
}

function propertiesOf(schema: Json): Record<string, Json> {
  const own = (schema.properties ?? {}) as Record<string, Json>;
  const parts = [...(schema.allOf ?? []), ...(schema.anyOf ?? []), ...(schema.oneOf ?? [])] as Json[];
  return Object.assign({}, ...parts.map(propertiesOf), own);
}

function idPrefixOf(schema: Json): string | undefined {
  const pattern = typeof schema.pattern === 'string' ? schema.pattern : '';
  return /^\^([a-z]+_)/.exec(pattern)?.[1];
}

/** Values aimed at one schema node: its boundaries, the type's edge values, and other types. */
function valuesFor(schema: Json, ids: IdsByPrefix): fc.Arbitrary<unknown> {
  const candidates: unknown[] = [null, true, {}, [], [1], 'text', 42, { nested: { deep: true } }];
  const types = typesOf(schema);
  if (types.includes('string')) {
    candidates.push(...NASTY_STRINGS);
    const max = typeof schema.maxLength === 'number' ? schema.maxLength : 1000;
    candidates.push('x'.repeat(max), 'x'.repeat(max + 1), '😀'.repeat(max), 'x'.repeat(Math.min(max * 10 + 1, 200_000)));
    if (typeof schema.minLength === 'number' && schema.minLength > 0) candidates.push('x'.repeat(schema.minLength - 1), 'x'.repeat(schema.minLength));
    const prefix = idPrefixOf(schema);
    if (prefix) {
      candidates.push(`${prefix}${ULID}`, `${prefix}${ULID.toLowerCase()}`, `${prefix}${ULID.slice(1)}`, `${prefix}${ULID}0`, `${prefix}ILOU${ULID.slice(4)}`, prefix, ULID);
      for (const other of PREFIXES) if (other !== prefix) candidates.push(`${other}${ULID}`);
      for (const real of Object.values(ids)) candidates.push(real);
    }
    if (schema.format === 'email') candidates.push('a@b', 'no-at-sign', `${'a'.repeat(250)}@example.com`, 'a@example.com\r\nBcc: x@example.com');
    if (schema.format === 'uri' || /url/i.test(schema.description ?? '')) {
      candidates.push('http://127.0.0.1:1/x', 'https://example.com/' + 'p'.repeat(3000), 'javascript:alert(1)', 'ftp://example.com/', 'https://user:pass@example.com/', 'https://[::1]/', 'https://exa mple.com/');
    }
    if (schema.enum) candidates.push(...schema.enum, String(schema.enum[0]).toUpperCase(), `${String(schema.enum[0])} `);
    if (schema.format === 'date-time') candidates.push('2026-02-30T00:00:00.000Z', '1970-01-01T00:00:00Z', '9999-12-31T23:59:59.999Z', 'yesterday');
  }
  if (types.includes('integer') || types.includes('number')) {
    candidates.push(...NASTY_NUMBERS);
    for (const bound of [schema.minimum, schema.maximum, schema.exclusiveMinimum, schema.exclusiveMaximum]) {
      if (typeof bound === 'number') candidates.push(bound - 1, bound, bound + 1, bound + 0.5, String(bound));
    }
  }
  if (types.includes('array')) {
    const item = schema.items ?? {};
    const max = typeof schema.maxItems === 'number' ? schema.maxItems : 50;
    candidates.push([], [null], Array.from({ length: max + 1 }, () => 'x'), [{}]);
    candidates.push(fc.sample(valuesFor(item, ids), { numRuns: 1, seed: max })[0]);
  }
  if (types.includes('object')) {
    candidates.push({ ['__proto__']: { polluted: true } }, { constructor: { prototype: {} } }, { '': 1 }, { 'a.b': 1 });
  }
  if (types.includes('boolean')) candidates.push('true', 0, 1, 'yes');
  return fc.constantFrom(...candidates);
}

interface Slot {
  /** Dot path from the body's root. */
  path: string[];
  schema: Json;
}

/** Every place in `value` (and the properties its schema names but it lacks) that a mutation can hit. */
function slots(value: unknown, schema: Json, path: string[] = []): Slot[] {
  const found: Slot[] = [{ path, schema }];
  if (Array.isArray(value)) {
    value.slice(0, 3).forEach((item, index) => found.push(...slots(item, schema.items ?? {}, [...path, String(index)])));
  } else if (value !== null && typeof value === 'object') {
    const properties = propertiesOf(schema);
    for (const [name, property] of Object.entries(properties)) {
      if (name in (value as Json)) found.push(...slots((value as Json)[name], property, [...path, name]));
      else found.push({ path: [...path, name], schema: property });
    }
  }
  return found;
}

function setAt(root: unknown, path: string[], next: unknown): unknown {
  if (path.length === 0) return next === REMOVE ? undefined : next;
  const copy: any = structuredClone(root);
  let node = copy;
  for (const key of path.slice(0, -1)) {
    if (node[key] === null || typeof node[key] !== 'object') node[key] = {};
    node = node[key];
  }
  const last = path[path.length - 1]!;
  if (next === REMOVE) {
    if (Array.isArray(node)) node.splice(Number(last), 1);
    else delete node[last];
  } else {
    Object.defineProperty(node, last, { value: next, enumerable: true, writable: true, configurable: true });
  }
  return copy;
}

const REMOVE = Symbol('remove');

/** A valid starting body: the operation's example, else a minimal object of the required fields' examples. */
function exampleBody(operation: Json): unknown {
  const content = operation.requestBody?.content?.['application/json'];
  if (!content) return undefined;
  if (content.example !== undefined) return content.example;
  const first = Object.values((content.examples ?? {}) as Record<string, Json>)[0];
  if (first?.value !== undefined) return first.value;
  return {};
}

/** The wire form of a query value, coerced as the document's parameter schema reads it. */
function coerced(schema: Json, raw: string): unknown {
  const types = typesOf(schema);
  if ((types.includes('integer') || types.includes('number')) && /^-?\d+(\.\d+)?([eE][+-]?\d+)?$/.test(raw)) return Number(raw);
  if (types.includes('boolean') && (raw === 'true' || raw === 'false')) return raw === 'true';
  return raw;
}

export class FuzzCaseBuilder {
  private readonly ajv = new Ajv2020({ strict: false, allErrors: false, validateFormats: true });
  private readonly compiled = new Map<Json, ReturnType<Ajv2020['compile']>>();

  private readonly ids: IdsByPrefix;

  constructor(ids: IdsByPrefix) {
    this.ids = ids;
    (addFormats as unknown as (ajv: Ajv2020) => void)(this.ajv);
  }

  private valid(schema: Json, value: unknown): boolean {
    let validate = this.compiled.get(schema);
    if (!validate) {
      validate = this.ajv.compile(stripExamples(schema));
      this.compiled.set(schema, validate);
    }
    return validate(value) as boolean;
  }

  /** `count` cases for one (dereferenced) operation, reproducible from `seed`. */
  cases({ method, path, operation }: FuzzOperation, seed: number, count: number): FuzzCase[] {
    const parameters = (operation.parameters ?? []) as Json[];
    const pathParameters = parameters.filter((parameter) => parameter.in === 'path');
    const queryParameters = parameters.filter((parameter) => parameter.in === 'query');
    const jsonBody = operation.requestBody?.content?.['application/json'];
    const mediaTypes = Object.keys(operation.requestBody?.content ?? {});
    const base = exampleBody(operation);
    const realPath = this.fill(path, pathParameters, {});

    const kinds: { arbitrary: fc.Arbitrary<Omit<FuzzCase, 'operationId' | 'method' | 'template'>>; weight: number }[] = [];
    const baseCase = (change: Partial<FuzzCase> & { label: string; forbidden: boolean }) => ({
      url: realPath,
      headers: jsonBody ? { 'content-type': 'application/json' } : {},
      ...(base !== undefined ? { body: JSON.stringify(base) } : {}),
      ...change,
    });

    if (jsonBody) {
      const schema = jsonBody.schema as Json;
      const places = slots(base, schema);
      // One field changed: another value, removed, or an unknown field beside it.
      kinds.push({
        weight: 8,
        arbitrary: fc.constantFrom(...places).chain((slot) =>
          fc.oneof(
            valuesFor(slot.schema, this.ids).map((value) => ({ slot, value })),
            fc.constant({ slot, value: REMOVE }),
          ),
        ).map(({ slot, value }) => {
          const body = setAt(base, slot.path, value);
          const shown = value === REMOVE ? 'removed' : JSON.stringify(value)?.slice(0, 60);
          return baseCase({
            label: `body ${slot.path.join('.') || '(root)'} = ${shown}`,
            body: body === undefined ? '' : JSON.stringify(body),
            forbidden: body === undefined ? operation.requestBody?.required === true : !this.valid(schema, JSON.parse(JSON.stringify(body))),
            field: slot.path.join('.'),
          });
        }),
      }, {
        weight: 2,
        arbitrary: fc.constantFrom(...places.filter((slot) => typesOf(slot.schema).includes('object') || slot.path.length === 0)).chain((slot) =>
          fc.constantFrom('unexpected', 'Quantity', 'unit_price', '__proto__', 'constructor', '').map((key) => {
            const target = slot.path.length === 0 ? base : slot.path.reduce<any>((node, step) => node?.[step], base);
            const withKey = { ...(target && typeof target === 'object' && !Array.isArray(target) ? target : {}) };
            Object.defineProperty(withKey, key, { value: 'extra', enumerable: true, writable: true, configurable: true });
            const body = setAt(base, slot.path, withKey);
            return baseCase({
              label: `body ${[...slot.path, key].join('.')} added`,
              body: JSON.stringify(body),
              forbidden: !this.valid(schema, JSON.parse(JSON.stringify(body))),
              field: [...slot.path, key].join('.'),
            });
          }),
        ),
      });
      // The whole body: not JSON, not an object, another media type, over the size limit.
      kinds.push({
        weight: 3,
        arbitrary: fc.constantFrom<[string, string, string]>(
          ['not JSON', '{"unterminated": ', 'application/json'],
          ['empty body', '', 'application/json'],
          ['JSON null', 'null', 'application/json'],
          ['JSON array', '[]', 'application/json'],
          ['JSON string', '"text"', 'application/json'],
          ['JSON number', '12', 'application/json'],
          ['duplicate keys', '{"a":1,"a":2}', 'application/json'],
          ['BOM before JSON', '\ufeff{}', 'application/json'],
          ['deep nesting', `${'['.repeat(5000)}${']'.repeat(5000)}`, 'application/json'],
          ['text/plain', JSON.stringify(base ?? {}), 'text/plain'],
          ['form-urlencoded', 'a=1&b=2', 'application/x-www-form-urlencoded'],
          ['no content type', JSON.stringify(base ?? {}), ''],
          ['over 1 MiB', JSON.stringify({ filler: 'x'.repeat(1024 * 1024 + 10) }), 'application/json'],
        ).map(([label, body, type]) => {
          const accepted = type !== '' && mediaTypes.includes(type);
          let parsed: unknown;
          let parses = true;
          try {
            parsed = JSON.parse(body);
          } catch {
            parses = false;
          }
          const absent = body === '' && operation.requestBody?.required !== true;
          const forbidden = !absent && (!accepted || (type === 'application/json' && (!parses || !this.valid(schema, parsed))));
          return baseCase({ label: `body: ${label}`, body, headers: type ? { 'content-type': type } : {}, forbidden });
        }),
      });
    } else if (method !== 'GET') {
      // An operation without a body gets one anyway.
      kinds.push({
        weight: 1,
        arbitrary: fc.constantFrom('{"unexpected":true}', '[]', 'not json', 'x'.repeat(2048)).map((body) =>
          baseCase({ label: `unexpected body ${body.slice(0, 20)}`, body, headers: { 'content-type': 'application/json' }, forbidden: false }),
        ),
      });
    }

    for (const parameter of pathParameters) {
      const schema = parameter.schema as Json;
      const values = fc.oneof(
        valuesFor(schema, this.ids).filter((value) => typeof value === 'string' && value !== ''),
        fc.constantFrom('%00', '%ZZ', '%E0%A4%A', '..', '%2F..%2F', 'a%20b', '%F0%9F%98%80', 'x'.repeat(2048), '%C0%AF', '%u0041'),
      ) as fc.Arbitrary<string>;
      kinds.push({
        weight: 4,
        arbitrary: values.map((raw) => {
          const encoded = /%/.test(raw) ? raw : percentEncoded(raw);
          let decoded: string | undefined;
          try {
            decoded = decodeURIComponent(encoded);
          } catch {
            decoded = undefined;
          }
          const forbidden = decoded === undefined || !this.valid(schema, decoded);
          return baseCase({
            label: `path ${parameter.name} = ${JSON.stringify(raw).slice(0, 60)}`,
            url: this.fill(path, pathParameters, { [parameter.name]: encoded }),
            forbidden,
            field: parameter.name,
          });
        }),
      });
    }

    const queryValues = fc.constantFrom('', 'abc', '-1', '0', '1', '100', '101', '1.5', '1e2', ' 20', '0x10', '99999999999999999999', 'null', 'true', '%00', '%ZZ', encodeURIComponent('\u202e'), encodeURIComponent('名前'), 'x'.repeat(3000), 'evt_' + ULID, 'whk_' + ULID);
    for (const parameter of queryParameters) {
      const schema = parameter.schema as Json;
      const enumValues: string[] = (schema.enum ?? []).map(String);
      kinds.push({
        weight: 3,
        arbitrary: fc.oneof(queryValues, fc.constantFrom(...(enumValues.length ? enumValues : ['x'])).map((value) => value.toUpperCase())).map((raw) => {
          let decoded: string | undefined;
          try {
            decoded = decodeURIComponent(raw);
          } catch {
            decoded = undefined;
          }
          const forbidden = decoded === undefined || !this.valid(schema, coerced(schema, decoded));
          return baseCase({ label: `query ${parameter.name}=${raw.slice(0, 40)}`, url: `${realPath}?${parameter.name}=${raw}`, forbidden, field: parameter.name });
        }),
      }, {
        weight: 1,
        arbitrary: fc.constant(baseCase({ label: `query ${parameter.name} twice`, url: `${realPath}?${parameter.name}=1&${parameter.name}=2`, forbidden: false })),
      });
    }
    kinds.push({ weight: 1, arbitrary: fc.constant(baseCase({ label: 'unknown query parameter', url: `${realPath}?unexpected=1`, forbidden: false })) });
    if (method === 'POST') {
      kinds.push({
        weight: 1,
        arbitrary: fc.constantFrom('', 'x'.repeat(256), 'ünïcode', 'tab\tinside', 'space inside').map((key) =>
          baseCase({
            label: `Idempotency-Key ${JSON.stringify(key).slice(0, 30)}`,
            headers: { ...(jsonBody ? { 'content-type': 'application/json' } : {}), 'idempotency-key': key },
            forbidden: !isValidIdempotencyKey(key) || (jsonBody !== undefined && (base === undefined || !this.valid(jsonBody.schema as Json, base))),
          }),
        ),
      });
    }

    return fc
      .sample(fc.oneof(...kinds), { seed, numRuns: count })
      .map((generated) => ({ operationId: operation.operationId as string, method, template: path, ...generated }));
  }

  /** The path with each parameter replaced: the given raw value, or the real id of its prefix. */
  private fill(template: string, parameters: Json[], given: Record<string, string>): string {
    return template.replace(/\{([^}]+)\}/g, (_, name: string) => {
      if (given[name] !== undefined) return given[name];
      const schema = parameters.find((parameter) => parameter.name === name)?.schema ?? {};
      const prefix = idPrefixOf(schema);
      const real = prefix ? this.ids[prefix] : undefined;
      if (real) return real;
      return encodeURIComponent(schema.example ?? schema.enum?.[0] ?? `${prefix ?? ''}${ULID}`);
    });
  }
}

/** encodeURIComponent, except that a lone surrogate goes out as the (invalid UTF-8) bytes of its code unit. */
function percentEncoded(raw: string): string {
  return raw.replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]|[^\ud800-\udfff]+|[\ud800-\udbff][\udc00-\udfff]/g, (part) => {
    if (part.length === 1 && /[\ud800-\udfff]/.test(part)) {
      const unit = part.charCodeAt(0);
      return [0xe0 | (unit >> 12), 0x80 | ((unit >> 6) & 0x3f), 0x80 | (unit & 0x3f)].map((byte) => `%${byte.toString(16).toUpperCase()}`).join('');
    }
    return encodeURIComponent(part);
  });
}

function stripExamples(schema: unknown): any {
  if (Array.isArray(schema)) return schema.map(stripExamples);
  if (schema === null || typeof schema !== 'object') return schema;
  return Object.fromEntries(
    Object.entries(schema as Json)
      .filter(([key]) => key !== 'example' && key !== 'examples')
      .map(([key, value]) => [key, key === 'properties' ? Object.fromEntries(Object.entries(value as Json).map(([name, property]) => [name, stripExamples(property)])) : stripExamples(value)]),
  );
}

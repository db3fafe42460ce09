// The passes that keep the generated OpenAPI document small enough for an agent to read whole
// (docs/api-document.md, its size budget): each says a thing once that the generator repeats — the
// text and id patterns, the list cursor, an example several operations show, an envelope one response
// uses — or drops what the generator adds without saying more. They run on the JSON zod-openapi
// wrote (shared/openapi/document.ts), in sayEachThingOnce's order.
import { LIST_CURSOR_MAX, TEXT_PATTERN_MULTI_LINE, TEXT_PATTERN_SINGLE_LINE } from '../schemas/common.ts';
import { objectAt, ref, valuesOf, type JsonObject } from './json.ts';

/** Every pass, in order: each reads the document as the ones before it left it. */
export function sayEachThingOnce(document: JsonObject): void {
  shareRepeatedExamples(document);
  compact(document);
  shareStringSchemas(document);
  shareListCursor(document);
  inlineSingleUseEnvelopes(document);
}

/**
 * What the generator repeats without saying more: a parameter's description and example copied into
 * its schema, empty parameter lists, a nullable primitive spelt as anyOf, the event union's mapping.
 * Dropped, the document stays under its size budget as operations are added. (Integer bounds stay,
 * even JavaScript's safe-integer range: every integer states both.)
 */
function compact(document: JsonObject): void {
  const parameters = [
    ...valuesOf(document.paths).flatMap((item) => valuesOf(item).flatMap((operation) => (objectAt(operation)?.parameters ?? []) as unknown[])),
    ...valuesOf(objectAt(document.components)?.parameters),
  ];
  for (const operation of valuesOf(document.paths).flatMap(valuesOf).map(objectAt)) {
    if (Array.isArray(operation?.parameters) && operation.parameters.length === 0) delete operation.parameters;
  }
  for (const parameter of parameters.map(objectAt)) {
    const schema = objectAt(parameter?.schema);
    if (!parameter || !schema) continue;
    if (schema.description === parameter.description) delete schema.description;
    if (parameter.example !== undefined) delete schema.example;
  }
  const visit = (value: unknown): void => {
    if (Array.isArray(value)) return value.forEach(visit);
    const object = objectAt(value);
    if (!object) return;
    // The success envelope: `meta` is on every success (its description says so), but the examples,
    // which validate against this schema, leave it out rather than repeat it fifty times.
    if (objectAt(objectAt(object.properties)?.meta)?.$ref === '#/components/schemas/Meta' && Array.isArray(object.required)) {
      object.required = (object.required as unknown[]).filter((name) => name !== 'meta');
    }
    // A reference that only adds a description (SearchItem's matched and relaxed): the generator also
    // copies the referenced object's closedness, which beside a $ref would forbid every property.
    if (typeof object.$ref === 'string' && object.additionalProperties === false && object.properties === undefined) delete object.additionalProperties;
    // A oneOf of envelopes whose `type` enums already tell them apart: the mapping would list them again.
    if (Array.isArray(object.oneOf) && objectAt(object.discriminator)?.mapping) delete object.discriminator;
    // Defaults, stated: no minimum length, an optional request body or parameter.
    if (object.minLength === 0) delete object.minLength;
    if (object.required === false) delete object.required;
    mergeNullable(object);
    Object.values(object).forEach(visit);
  };
  visit(document);
  // A schema property's example repeats what the operations' examples show in context.
  const dropExamples = (value: unknown): void => {
    const object = objectAt(value);
    if (!object) return;
    for (const property of valuesOf(object.properties).map(objectAt)) if (property) delete property.example;
    Object.values(object).forEach((child) => (Array.isArray(child) ? child.forEach(dropExamples) : dropExamples(child)));
  };
  dropExamples(objectAt(document.components)?.schemas);
}

/**
 * Text and id schemas, stated once and referenced: the text rules (no control or bidirectional
 * characters, tab and newline only in multi-line text) as `Text` and `MultilineText`, each use keeping
 * its own `maxLength` beside the reference; an inline id (a path parameter, a filter), currency or
 * country code as its component. A nullable text keeps its pattern inline: the reference would refuse null.
 */
function shareStringSchemas(document: JsonObject): void {
  const components = objectAt(document.components) ?? {};
  const schemas = objectAt(components.schemas) ?? {};
  const byPattern = new Map<string, string>([
    [TEXT_PATTERN_SINGLE_LINE, 'Text'],
    [TEXT_PATTERN_MULTI_LINE, 'MultilineText'],
  ]);
  for (const [name, schema] of Object.entries(schemas)) {
    const pattern = objectAt(schema)?.pattern;
    if (/(Id|Code)$/.test(name) && typeof pattern === 'string') byPattern.set(pattern, name);
  }
  // The longest text of each shared schema's uses: the bound the shared schema states for all of them.
  const uses = new Map<string, number>();
  const visit = (value: unknown, inComponent?: string): void => {
    if (Array.isArray(value)) return value.forEach((item) => visit(item));
    const object = objectAt(value);
    if (!object) return;
    const name = typeof object.pattern === 'string' ? byPattern.get(object.pattern) : undefined;
    if (name && name !== inComponent && object.type === 'string' && object.$ref === undefined) {
      delete object.type;
      delete object.pattern;
      // An id's or a code's length is fixed: its component states it.
      if (/(Id|Code)$/.test(name)) delete object.maxLength;
      const rest = { ...object };
      for (const key of Object.keys(object)) delete object[key];
      Object.assign(object, { $ref: `#/components/schemas/${name}` }, rest);
      uses.set(name, Math.max(uses.get(name) ?? 0, typeof rest.maxLength === 'number' ? rest.maxLength : 0));
      return;
    }
    for (const [key, child] of Object.entries(object)) if (key !== 'example' && key !== 'examples') visit(child);
  };
  for (const [key, section] of Object.entries(document)) if (key !== 'components') visit(section);
  for (const [key, section] of Object.entries(components)) {
    if (key !== 'schemas') visit(section);
  }
  for (const [name, schema] of Object.entries(schemas)) visit(schema, name);
  const text = (pattern: string, maxLength: number | undefined, description: string) => ({ type: 'string', maxLength, pattern, description: `${description}; each use sets its maxLength` });
  if (uses.has('Text')) schemas.Text = text(TEXT_PATTERN_SINGLE_LINE, uses.get('Text'), 'One line, no control or bidirectional-control characters');
  if (uses.has('MultilineText')) schemas.MultilineText = text(TEXT_PATTERN_MULTI_LINE, uses.get('MultilineText'), 'Newlines and tabs allowed; no other control or bidirectional-control characters');
}

/** Every list's nextCursor is one schema, `NextCursor` (search's, longer, has its own description). */
function shareListCursor(document: JsonObject): void {
  const schemas = objectAt(objectAt(document.components)?.schemas) ?? {};
  const nextCursor = { type: ['string', 'null'], maxLength: LIST_CURSOR_MAX, pattern: '^[A-Za-z0-9_-]+$' };
  const visitPages = (value: unknown): void => {
    if (Array.isArray(value)) return value.forEach(visitPages);
    const object = objectAt(value);
    if (!object) return;
    const properties = objectAt(object.properties);
    const cursor = objectAt(properties?.nextCursor);
    const isListCursor = cursor && Object.keys(cursor).length === 3 && cursor.maxLength === nextCursor.maxLength && cursor.pattern === nextCursor.pattern && JSON.stringify(cursor.type) === JSON.stringify(nextCursor.type);
    if (properties && isListCursor) {
      properties.nextCursor = ref('schemas', 'NextCursor');
      schemas.NextCursor = { ...nextCursor, description: 'Pass as `cursor` for the next page; null on the last page' };
    }
    for (const [key, child] of Object.entries(object)) if (key !== 'example' && key !== 'examples') visitPages(child);
  };
  visitPages(document.paths);
}

/** A success envelope (`<Data>Envelope`) that one response uses is written in that response, not named. */
function inlineSingleUseEnvelopes(document: JsonObject): void {
  const schemas = objectAt(objectAt(document.components)?.schemas) ?? {};
  const uses = new Map<string, JsonObject[]>();
  const visit = (value: unknown): void => {
    if (Array.isArray(value)) return value.forEach(visit);
    const object = objectAt(value);
    if (!object) return;
    const name = typeof object.$ref === 'string' ? object.$ref.replace('#/components/schemas/', '') : '';
    if (name.endsWith('Envelope') && Object.keys(object).length === 1) uses.set(name, [...(uses.get(name) ?? []), object]);
    for (const [key, child] of Object.entries(object)) if (key !== 'example' && key !== 'examples') visit(child);
  };
  visit(document);
  for (const [name, [use, ...more]] of uses) {
    if (!use || more.length > 0 || !schemas[name]) continue;
    delete use.$ref;
    Object.assign(use, schemas[name]);
    delete schemas[name];
  }
}

/** `anyOf: [{type: 'string', …}, {type: 'null'}]` → `type: ['string', 'null'], …`: the same schema, shorter. */
function mergeNullable(schema: JsonObject): void {
  const options = Array.isArray(schema.anyOf) ? (schema.anyOf as unknown[]).map(objectAt) : [];
  if (options.length !== 2) return;
  const nullIndex = options.findIndex((option) => option?.type === 'null' && Object.keys(option).length === 1);
  const other = options[1 - nullIndex];
  if (nullIndex < 0 || !other || typeof other.type !== 'string' || 'enum' in other || 'const' in other || '$ref' in other) return;
  if (Object.keys(other).some((key) => key in schema && key !== 'anyOf')) return;
  delete schema.anyOf;
  Object.assign(schema, other, { type: [other.type, 'null'] });
}

/**
 * An example that several operations show (the same session read and countered, the same order read
 * and shipped) is written once, in components.examples, and referenced.
 */
function shareRepeatedExamples(document: JsonObject): void {
  const uses = new Map<string, { name: string; mediaTypes: JsonObject[] }>();
  for (const item of valuesOf(document.paths)) {
    for (const operation of valuesOf(item).map(objectAt)) {
      const bodies: [string, unknown][] = [
        ['Request', objectAt(operation?.requestBody)?.content],
        ...valuesOf(operation?.responses).map((response): [string, unknown] => ['Response', objectAt(response)?.content]),
      ];
      for (const [kind, content] of bodies) {
        for (const mediaType of valuesOf(content).map(objectAt)) {
          if (mediaType?.example === undefined) continue;
          const key = JSON.stringify(mediaType.example);
          const data = objectAt(objectAt(mediaType.example)?.data);
          // The lists whose items another operation shows share one empty page, named for what it is.
          const isEmptyPage = Array.isArray(data?.items) && data.items.length === 0;
          const use = uses.get(key) ?? { name: isEmptyPage ? 'EmptyPage' : `${String(operation?.operationId)}${kind}`, mediaTypes: [] };
          use.mediaTypes.push(mediaType);
          uses.set(key, use);
        }
      }
    }
  }
  const components = objectAt(document.components) ?? {};
  for (const { name, mediaTypes } of uses.values()) {
    if (mediaTypes.length < 2) continue;
    components.examples = { ...objectAt(components.examples), [name]: { value: mediaTypes[0]?.example } };
    for (const mediaType of mediaTypes) {
      delete mediaType.example;
      mediaType.examples = { [name]: ref('examples', name) };
    }
  }
}

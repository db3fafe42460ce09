// Checks real HTTP responses against the OpenAPI document the API serves: the response's status
// must be documented for the operation, its required headers present, and its body must match the
// documented schema — strictly: the document leaves response objects open (clients must ignore new
// fields), but a response of ours must not carry a field the document does not name.
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { dereference } from '@readme/openapi-parser';
import type { TestResponse } from './http-client.ts';

type Json = Record<string, any>;

export class OpenApiResponseValidator {
  private readonly document: Json;
  private readonly ajv = new Ajv2020({ strict: false, allErrors: true });

  private constructor(document: Json) {
    this.document = document;
    (addFormats as unknown as (ajv: Ajv2020) => void)(this.ajv);
  }

  static async create(document: Json): Promise<OpenApiResponseValidator> {
    return new OpenApiResponseValidator(await dereference(structuredClone(document) as never));
  }

  /** Problems with the response for `method pathTemplate` (e.g. `GET /v1/webhooks/{id}`); empty when it conforms. */
  problems(method: string, pathTemplate: string, response: TestResponse): string[] {
    const operation = this.document.paths?.[pathTemplate]?.[method.toLowerCase()];
    if (!operation) return [`${method} ${pathTemplate} is not in the document`];
    const documented = operation.responses?.[String(response.status)];
    if (!documented) return [`status ${response.status} is not documented for ${method} ${pathTemplate}`];
    const problems: string[] = [];
    for (const [header, definition] of Object.entries((documented.headers ?? {}) as Record<string, Json>)) {
      if (definition.required === true && response.headers[header.toLowerCase()] === undefined) problems.push(`header ${header} is missing`);
    }
    const schema = documented.content?.['application/json']?.schema;
    if (!schema) return [...problems, 'no JSON schema documented'];
    const validate = this.ajv.compile(closed(schema) as object);
    if (!validate(response.json)) {
      problems.push(...(validate.errors ?? []).map((error) => `body${error.instancePath}: ${error.message ?? 'invalid'}`));
    }
    return problems;
  }
}

/**
 * The schema with every object closed to fields it does not name (`unevaluatedProperties: false`,
 * which sees through allOf), except inside an allOf, whose parts are closed by the composition.
 */
export function closed(schema: unknown, insideAllOf = false): unknown {
  if (Array.isArray(schema)) return schema.map((item) => closed(item));
  if (schema === null || typeof schema !== 'object') return schema;
  const copy: Json = {};
  for (const [key, value] of Object.entries(schema as Json)) {
    if (key === 'allOf') copy.allOf = (value as unknown[]).map((part) => closed(part, true));
    else if (key === 'properties') copy.properties = Object.fromEntries(Object.entries(value as Json).map(([name, property]) => [name, closed(property)]));
    else if (key === 'example' || key === 'examples' || key === 'enum' || key === 'const') copy[key] = value;
    else copy[key] = closed(value);
  }
  const isObject = Object.keys((copy.properties ?? {}) as Json).length > 0 || copy.allOf !== undefined;
  if (isObject && !insideAllOf && copy.additionalProperties === undefined && copy.unevaluatedProperties === undefined) copy.unevaluatedProperties = false;
  return copy;
}

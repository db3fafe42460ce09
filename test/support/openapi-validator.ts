// Checks real HTTP responses against the OpenAPI document the API serves: the response's status
// must be documented for the operation, and its body must match the documented schema.
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
    for (const header of Object.keys(documented.headers ?? {})) {
      if (response.headers[header.toLowerCase()] === undefined) problems.push(`header ${header} is missing`);
    }
    const schema = documented.content?.['application/json']?.schema;
    if (!schema) return [...problems, 'no JSON schema documented'];
    const validate = this.ajv.compile(schema as object);
    if (!validate(response.json)) {
      problems.push(...(validate.errors ?? []).map((error) => `body${error.instancePath}: ${error.message ?? 'invalid'}`));
    }
    return problems;
  }
}

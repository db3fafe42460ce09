// The OpenAPI document as plain JSON, for the passes that walk it after zod-openapi has written it
// (shared/openapi/size-passes.ts), and references to its components.

export const ref = (kind: 'examples' | 'headers' | 'parameters' | 'responses' | 'schemas', name: string) => ({ $ref: `#/components/${kind}/${name}` });

/** The generated document, walked as plain JSON. */
export interface JsonObject {
  [key: string]: unknown;
}

export const objectAt = (value: unknown): JsonObject | undefined => (value !== null && typeof value === 'object' ? (value as JsonObject) : undefined);

export const valuesOf = (value: unknown): unknown[] => Object.values(objectAt(value) ?? {});

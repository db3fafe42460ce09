// What an Idempotency-Key header may hold: 1–255 printable ASCII characters, without a space at
// either end. One definition for the middleware that checks it and the OpenAPI document that states it.
export const IDEMPOTENCY_KEY_MAX_LENGTH = 255;

/** The pattern as the OpenAPI document writes it (JSON Schema regex syntax). */
export const IDEMPOTENCY_KEY_PATTERN_SOURCE = '^[\\x21-\\x7E]([\\x20-\\x7E]*[\\x21-\\x7E])?$';

const PATTERN = new RegExp(IDEMPOTENCY_KEY_PATTERN_SOURCE);

export function isValidIdempotencyKey(key: string): boolean {
  return key.length >= 1 && key.length <= IDEMPOTENCY_KEY_MAX_LENGTH && PATTERN.test(key);
}

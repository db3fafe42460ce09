// The shapes every response has: the success envelope and the error body (contract §1), for the
// OpenAPI document. The error codes come from the one error table.
import * as z from '../schemas/zod.ts';
import { Timestamp } from '../schemas/common.ts';
import { ERROR_CODE_NAMES } from './error-codes.ts';

export const RequestId = z.annotated(z.string().check(z.regex(/^req_[0-9A-HJKMNP-TV-Z]{26}$/)), { maxLength: 30, example: 'req_01M83TY0Y0TX5XRW8ET1FYQJBT' });

export const Meta = z.annotated(z.object({ requestId: RequestId, timestamp: Timestamp }), { id: 'Meta' });

/** The success envelope around a data schema. */
export function envelope<T extends z.ZodMiniType>(data: T) {
  return z.object({ data, meta: Meta });
}

// Descriptions of these fields are in the OpenAPI document's content (shared/openapi/content.ts), which no
// function bundles.
export const ErrorDetail = z.annotated(z.object({ path: z.string(), message: z.string() }), { id: 'ErrorDetail' });

export const ErrorBody = z.annotated(z.object({
  error: z.string(),
  code: z.enum(ERROR_CODE_NAMES),
  status: z.annotated(z.int(), { override: { minimum: 400, maximum: 599, format: 'int32' } }),
  requestId: RequestId,
  details: z.optional(z.array(ErrorDetail)),
}), { id: 'Error' });

// The shapes every response has: the success envelope and the error body (contract §1), for the
// OpenAPI document. The error codes come from the one error table.
import * as z from 'zod';
import { ERROR_CODE_NAMES } from './error-codes.ts';

export const RequestId = z.string().regex(/^req_[0-9A-Z]{26}$/).meta({ example: 'req_01JF3Q5Z8X2C7V9B4N6M1K0PQR' });

export const Meta = z
  .object({ requestId: RequestId, timestamp: z.iso.datetime({ precision: 3 }) })
  .meta({ id: 'Meta', description: 'Present on every successful response' });

/** The success envelope around a data schema. */
export function envelope<T extends z.ZodType>(data: T) {
  return z.object({ data, meta: Meta });
}

export const ErrorDetail = z.object({
  path: z.string().meta({ description: 'Dot path of the offending field', example: 'organization.country' }),
  message: z.string(),
});

export const ErrorBody = z
  .object({
    error: z.string().meta({ description: 'Human-readable message that says what to fix' }),
    code: z.enum(ERROR_CODE_NAMES),
    status: z.int(),
    requestId: RequestId,
    details: z.array(ErrorDetail).optional(),
  })
  .meta({ id: 'Error' });

// The request log (contract §5.4): one item per request of a known caller, in the caller's own
// partition, sorted by the request id (a ULID: by time), kept 7 days by the table's TTL. Written only by
// the request-log writer (functions/requests/record.worker.ts) from the access-log lines of the API
// functions, in batches, off every request's path (docs/decisions/request-log-write-path.md); read by
// GET /v1/requests and GET /v1/requests/{requestId}. Access patterns: docs/data-model.md (49–51).
import * as z from '../schemas/zod.ts';
import { idTimePrefix } from '../ids.ts';
import { REQUEST_LOG_RETENTION_DAYS, type RequestLogLine } from '../schemas/requests.ts';
import { batchWrite } from './batches.ts';
import { defineEntity } from './entity.ts';
import type { Condition } from './expressions.ts';

const RETENTION_SECONDS = REQUEST_LOG_RETENTION_DAYS * 24 * 60 * 60;

const ErrorDetail = z.object({ path: z.string(), message: z.string() });

export const RequestLogEntity = defineEntity({
  name: 'requestLogEntry',
  schema: z.object({
    agentId: z.string(),
    requestId: z.string(),
    at: z.string(),
    method: z.enum(['GET', 'POST', 'PATCH', 'DELETE', 'PUT', 'HEAD', 'OPTIONS']),
    path: z.string(),
    status: z.int(),
    code: z.nullable(z.string()),
    durationMs: z.number(),
    keyId: z.string(),
    idempotencyKey: z.nullable(z.string()),
    idempotentReplayed: z.boolean(),
    /** The error body of an error response; absent for a success. */
    error: z.optional(z.object({ error: z.string(), code: z.string(), status: z.int(), requestId: z.string(), details: z.optional(z.array(ErrorDetail)) })),
    expiresAt: z.int(),
  }),
  key: ({ agentId, requestId }: { agentId: string; requestId: string }) => ({ pk: `REQUESTS#${agentId}`, sk: requestId }),
});
export type RequestLogItem = z.output<typeof RequestLogEntity.schema>;

/** Stores a batch of logged requests (BatchWriteItem; a line delivered twice writes the same item again). */
export async function writeRequestLogEntries(lines: readonly RequestLogLine[]): Promise<void> {
  const requests = lines.map((line) => {
    const atMs = Date.parse(line.at);
    const item: RequestLogItem = {
      agentId: line.agentId,
      requestId: line.requestId,
      at: line.at,
      method: line.method,
      path: line.path,
      status: line.status,
      code: line.code,
      durationMs: line.durationMs,
      keyId: line.keyId,
      idempotencyKey: line.idempotencyKey,
      idempotentReplayed: line.idempotentReplayed,
      ...(line.error ? { error: line.error } : {}),
      expiresAt: Math.floor((Number.isFinite(atMs) ? atMs : Date.now()) / 1000) + RETENTION_SECONDS,
    };
    return RequestLogEntity.putRequest(item, item);
  });
  await batchWrite(requests);
}

/** One request of an agent (consistent: a reader waiting for a just-made request sees it as soon as it is written). */
export function getRequestLogEntry(agentId: string, requestId: string): Promise<RequestLogItem | undefined> {
  return RequestLogEntity.get({ agentId, requestId }, { consistent: true });
}

/** An agent's requests newest first, never older than the retention (TTL deletes late), with the list's filters. */
export function listRequestLogEntries(agentId: string, options: { now: Date; limit: number; startKey?: Record<string, unknown> | undefined; filter?: Condition | undefined }) {
  return RequestLogEntity.query({
    partition: `REQUESTS#${agentId}`,
    sortKey: { between: [idTimePrefix('request', options.now.getTime() - RETENTION_SECONDS * 1000), 'req_~'] },
    ascending: false,
    limit: options.limit,
    startKey: options.startKey,
    filter: options.filter,
  });
}

export const requestLogWhere = RequestLogEntity.where;

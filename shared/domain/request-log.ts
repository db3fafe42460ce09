// The request log (contract §5.4): an agent reads its own requests of the last 7 days. Entries arrive
// a moment after their response (the writer takes them from the access log, off the request's path:
// docs/decisions/request-log-write-path.md), so reading one request by id waits a little for a request
// that was just made, rather than answering 404 for something that is on its way.
import { decodeCursor, encodeCursor } from '../data/cursor.ts';
import { getRequestLogEntry, listRequestLogEntries, requestLogWhere, writeRequestLogEntries, type RequestLogItem } from '../data/request-log.ts';
import { fail } from '../failures.ts';
import { idTime } from '../ids.ts';
import { REQUEST_LOG_RETENTION_DAYS, type LoggedRequest, type LoggedRequestDetail, type RequestLogLine } from '../schemas/requests.ts';

const { and, between, beginsWith, eq } = requestLogWhere;

/** Who reads the log: the main key reads every request of the agent, a restricted key only its own. */
export interface RequestLogReader {
  agentId: string;
  keyId: string;
  keyKind: 'main' | 'restricted';
}

const ownOnly = (reader: RequestLogReader) => reader.keyKind === 'restricted';

/**
 * How long after a request its entry may still be on its way: a read by id of a younger request that
 * is not there yet waits until it is (or until the request is this old). Locally an entry lands within
 * milliseconds; CloudWatch Logs delivers subscriptions within seconds.
 */
export const ARRIVAL_WINDOW_MS = 10_000;
const POLL_MS = 100;

const RETENTION_MS = REQUEST_LOG_RETENTION_DAYS * 24 * 60 * 60 * 1000;

function toLoggedRequest(item: RequestLogItem): LoggedRequest {
  return {
    requestId: item.requestId,
    at: item.at,
    method: item.method,
    path: item.path,
    status: item.status,
    code: item.code,
    durationMs: item.durationMs,
    keyId: item.keyId,
    idempotencyKey: item.idempotencyKey,
    idempotentReplayed: item.idempotentReplayed,
  };
}

export interface ListRequestsQuery {
  limit: number;
  cursor?: string | undefined;
  status?: { from: number; to: number } | undefined;
  path?: string | undefined;
}

export async function listRequestsForCaller(caller: RequestLogReader, query: ListRequestsQuery, now: Date): Promise<{ items: LoggedRequest[]; nextCursor: string | null }> {
  const scope = ['requests', caller.agentId, ownOnly(caller) ? caller.keyId : '', query.status ? `${query.status.from}-${query.status.to}` : '', query.path ?? ''].join(':');
  const conditions = [
    ownOnly(caller) ? eq('keyId', caller.keyId) : undefined,
    query.status ? between('status', query.status.from, query.status.to) : undefined,
    query.path ? beginsWith('path', query.path) : undefined,
  ].filter((condition) => condition !== undefined);
  const filter = conditions.length > 0 ? and(...conditions) : undefined;
  const page = await listRequestLogEntries(caller.agentId, { now, limit: query.limit, startKey: decodeCursor(scope, query.cursor), filter });
  return { items: page.items.map(toLoggedRequest), nextCursor: encodeCursor(scope, page.lastKey) };
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** One of the caller's requests with the error body of an error; another agent's (or an older one, or another key's for a restricted key) is 404. */
export async function getRequestForCaller(caller: RequestLogReader, requestId: string, now: Date): Promise<LoggedRequestDetail> {
  const issuedAt = idTime(requestId);
  const notFound = () => fail.notFound(`Request ${requestId} not found in your request log (the last ${REQUEST_LOG_RETENTION_DAYS} days)`);
  if (issuedAt < now.getTime() - RETENTION_MS) throw notFound();
  for (;;) {
    const item = await getRequestLogEntry(caller.agentId, requestId);
    if (item && ownOnly(caller) && item.keyId !== caller.keyId) throw notFound();
    if (item) return { ...toLoggedRequest(item), error: item.error ?? null };
    // Only a request of the last moments can still be on its way (and never one from the future).
    const waitUntil = Math.min(issuedAt, Date.now()) + ARRIVAL_WINDOW_MS;
    if (Date.now() + POLL_MS > waitUntil) throw notFound();
    await sleep(POLL_MS);
  }
}

/** The request-log writer's work: the logged requests of a batch of access-log lines. */
export async function recordRequests(lines: readonly RequestLogLine[]): Promise<void> {
  if (lines.length > 0) await writeRequestLogEntries(lines);
}

// Worker `requestLogWriter`: the API functions' access-log lines that carry a request record (a
// CloudWatch Logs subscription filter on each API function's log group; locally the runtime hands
// them over as they are written) → the callers' request logs, in batches. A line that is not a request
// record is skipped with a warning; a failed write fails the invocation, which Lambda retries (a line
// written twice is the same item again) and then dead-letters (docs/decisions/request-log-write-path.md).
import { gunzipSync } from 'node:zlib';
import type { CloudWatchLogsDecodedData, CloudWatchLogsEvent } from 'aws-lambda';
import { config } from '../../shared/config.ts';
import { recordRequests } from '../../shared/domain/request-log.ts';
import { logger } from '../../shared/logger.ts';
import { workerHandler } from '../../shared/powertools.ts';
import { RequestLogLine } from '../../shared/schemas/requests.ts';

config(); // fail fast at cold start

/** The request records of a subscription's batch of log events. */
export function requestRecordsOf(event: CloudWatchLogsEvent): RequestLogLine[] {
  const batch = JSON.parse(gunzipSync(Buffer.from(event.awslogs.data, 'base64')).toString('utf8')) as CloudWatchLogsDecodedData;
  // CloudWatch Logs checks that the destination is reachable with a control message when the filter is created.
  if (batch.messageType !== 'DATA_MESSAGE') return [];
  const records: RequestLogLine[] = [];
  for (const logEvent of batch.logEvents) {
    let line: unknown;
    try {
      line = JSON.parse(logEvent.message);
    } catch {
      logger.warn('Skipping a log event that is not JSON', { logGroup: batch.logGroup, id: logEvent.id });
      continue;
    }
    const parsed = RequestLogLine.safeParse((line as { requestLog?: unknown } | null)?.requestLog);
    if (parsed.success) records.push(parsed.data);
    else logger.warn('Skipping a log event without a request record', { logGroup: batch.logGroup, id: logEvent.id, problem: parsed.error.issues[0]?.message });
  }
  return records;
}

export const handler = workerHandler(async (event: CloudWatchLogsEvent): Promise<void> => {
  await recordRequests(requestRecordsOf(event));
});

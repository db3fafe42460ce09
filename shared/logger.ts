// One structured JSON logger per container, for handlers and workers alike: Powertools' Logger. Its
// Middy middleware (shared/powertools.ts) adds the Lambda context to every line an invocation writes
// (function_request_id, cold_start, function_name, function_arn, function_memory_size). Log lines
// carry ids, routes, statuses and durations — never request bodies, headers, keys or secrets (the
// event is never logged: the middleware is told so, whatever POWERTOOLS_LOGGER_LOG_EVENT says).
//
// The line keeps the fields and order it has always had (level, message, timestamp, service,
// sampling_rate, xray_trace_id, then the Lambda context and the entry's own fields; errors as {name,
// location, message, stack, cause}): the logger we wrote before wrote Powertools' line, so Powertools'
// own formatter with that record order is all it takes. ERROR and WARN go to stderr, the rest to
// stdout. The level comes from LOG_LEVEL (POWERTOOLS_LOG_LEVEL, or Lambda's log level, when set).
import { Logger } from '@aws-lambda-powertools/logger';
import { SERVICE_NAME } from './service.ts';

export type LogLevel = 'DEBUG' | 'INFO' | 'WARN' | 'ERROR' | 'SILENT';

export const logger = new Logger({
  serviceName: SERVICE_NAME,
  logRecordOrder: ['level', 'message', 'timestamp', 'service', 'sampling_rate', 'xray_trace_id'],
});

// The structured logger (shared/logger.ts, Powertools' Logger): one JSON line per entry with the fields
// and order the log queries rely on, below-level entries dropped, ERROR and WARN on stderr, errors as
// objects, an entry's own fields never overwriting the line's, and the Lambda context on every line an
// invocation writes (shared/powertools.ts).
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { lambdaContext } from '../../lib/local/lambda.ts';
import { logger } from '../../shared/logger.ts';
import { workerHandler } from '../../shared/powertools.ts';

const written: { stream: 'stdout' | 'stderr'; text: string }[] = [];
const originals = { stdout: process.stdout.write.bind(process.stdout), stderr: process.stderr.write.bind(process.stderr) };
const lines = (stream?: 'stdout' | 'stderr') => written.filter((entry) => !stream || entry.stream === stream).map((entry) => JSON.parse(entry.text));

beforeEach(() => {
  written.length = 0;
  for (const stream of ['stdout', 'stderr'] as const) {
    process[stream].write = (chunk: string | Uint8Array) => {
      written.push({ stream, text: String(chunk) });
      return true;
    };
  }
});
afterEach(() => {
  process.stdout.write = originals.stdout;
  process.stderr.write = originals.stderr;
  logger.setLogLevel('SILENT');
  delete process.env._X_AMZN_TRACE_ID;
});

describe('logger', () => {
  it('writes one JSON line with level, message, timestamp, service, sampling rate, trace id and the fields', () => {
    process.env._X_AMZN_TRACE_ID = 'Root=1-5759e988-bd862e3fe1be46a994272793;Parent=557abcec3ee5a047;Sampled=1';
    logger.setLogLevel('INFO');
    logger.info('request', { requestId: 'req_1', status: 201, agentId: undefined });
    expect(written).toHaveLength(1);
    expect(written[0]?.text.endsWith('\n')).toBe(true);
    expect(written[0]?.text.trim()).not.toContain('\n');
    const [line] = lines('stdout');
    expect(Object.keys(line)).toEqual(['level', 'message', 'timestamp', 'service', 'sampling_rate', 'xray_trace_id', 'requestId', 'status']);
    expect(line).toMatchObject({ level: 'INFO', message: 'request', service: 'agent-marketplace', sampling_rate: 0, xray_trace_id: '1-5759e988-bd862e3fe1be46a994272793' });
    expect(new Date(line.timestamp).toISOString()).toBe(line.timestamp);
  });

  it('drops entries below its level, and SILENT drops them all', () => {
    logger.setLogLevel('WARN');
    logger.debug('d');
    logger.info('i');
    logger.warn('w');
    logger.error('e');
    expect(lines().map((line) => line.level)).toEqual(['WARN', 'ERROR']);
    logger.setLogLevel('SILENT');
    logger.error('e');
    expect(written).toHaveLength(2);
  });

  it('writes WARN and ERROR to stderr, DEBUG and INFO to stdout', () => {
    logger.setLogLevel('DEBUG');
    logger.debug('d');
    logger.info('i');
    logger.warn('w');
    logger.error('e');
    expect(lines('stdout').map((line) => line.message)).toEqual(['d', 'i']);
    expect(lines('stderr').map((line) => line.message)).toEqual(['w', 'e']);
  });

  it('formats errors with name, location, message, stack and cause, and their own fields', () => {
    logger.setLogLevel('INFO');
    const cause = new TypeError('inner');
    const error = Object.assign(new Error('outer', { cause }), { code: 'E_OUTER' });
    logger.error('failed', { error });
    const [line] = lines('stderr');
    expect(line.error).toMatchObject({ name: 'Error', message: 'outer', code: 'E_OUTER', cause: { name: 'TypeError', message: 'inner' } });
    expect(line.error.location).toMatch(/^\S+:\d+$/);
    expect(line.error.stack).toContain('outer');
  });

  it('keeps its own fields against an entry that names them, and survives circular and bigint values', () => {
    logger.setLogLevel('INFO');
    const circular: Record<string, unknown> = { name: 'loop' };
    circular.self = circular;
    logger.info('kept', { level: 'ERROR', message: 'replaced', service: 'other', circular, big: 12n });
    const kept = lines('stdout').find((line) => line.message === 'kept');
    expect(kept).toMatchObject({ level: 'INFO', message: 'kept', service: 'agent-marketplace', circular: { name: 'loop' }, big: '12' });
    expect(kept.circular.self).toBeUndefined();
  });

  it('adds the Lambda context to the lines an invocation writes', async () => {
    logger.setLogLevel('INFO');
    const handler = workerHandler(() => {
      logger.info('inside');
      return Promise.resolve();
    });
    const context = lambdaContext('loggerTest', 5_000);
    await handler({}, context);
    const [inside] = lines('stdout');
    expect(inside).toMatchObject({
      message: 'inside',
      function_request_id: context.awsRequestId,
      function_name: 'loggerTest',
      function_arn: context.invokedFunctionArn,
      function_memory_size: '1024',
      cold_start: expect.any(Boolean),
    });
    // The line's own fields first, then the Lambda context.
    const own = ['level', 'message', 'timestamp', 'service', 'sampling_rate', 'xray_trace_id'].filter((key) => key in inside);
    expect(Object.keys(inside).slice(0, own.length)).toEqual(own);
    expect(Object.keys(inside).slice(own.length, own.length + 5).sort()).toEqual(['cold_start', 'function_arn', 'function_memory_size', 'function_name', 'function_request_id']);
  });
});

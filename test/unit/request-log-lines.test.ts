// The request log's path from a response to the writer: the record the access-log line carries (never a
// success body, the error body of an error, nothing for anonymous requests or the log's own reads), and
// CloudWatch Logs' subscription batches as the writer reads them (what the local runtime hands it too).
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { requestRecordsOf } from '../../functions/requests/record.worker.ts';
import { logsEvent } from '../../lib/local/log-subscriptions.ts';
import type { ApiState } from '../../shared/http/api-state.ts';
import { requestRecord } from '../../shared/http/middleware/request-log.ts';
import type { RouteDefinition } from '../../shared/http/route-table.ts';
import { gzipSync } from 'node:zlib';

const caller = { agentId: 'agt_01JF3Q5Z8X2C7V9B4N6M1K0PQR', role: 'buyer', plan: 'free', apiKeyHash: 'h', keyId: 'key_01JF3Q5Z8X2C7V9B4N6M1K0PQR', keyKind: 'main', keyName: null, scopes: null, limits: null, expiresAt: null } as const;
const route = { method: 'POST', path: '/v1/create-order' } as RouteDefinition;

function state(overrides: Partial<ApiState> = {}): ApiState {
  return {
    route,
    requestId: 'req_01JF3Q5Z8X2C7V9B4N6M1K0PQR',
    startedAt: 0,
    now: new Date('2026-11-27T10:00:00.000Z'),
    sourceIp: '127.0.0.1',
    method: 'POST',
    path: '/v1/create-order',
    headers: {},
    caller,
    input: { body: undefined, query: undefined, params: undefined },
    ...overrides,
  };
}

const event = (headers: Record<string, string> = {}) => ({ rawPath: '/v1/create-order', headers, requestContext: { http: { method: 'POST' } } }) as unknown as APIGatewayProxyEventV2;

describe('the request record of an access-log line', () => {
  it('a success: its status and key, the Idempotency-Key, no body', () => {
    const record = requestRecord(state(), event({ 'idempotency-key': 'order-1' }), { statusCode: 201, body: JSON.stringify({ data: { secret: 'whsec_x' } }) }, 12.5);
    expect(record).toEqual({
      agentId: caller.agentId,
      requestId: 'req_01JF3Q5Z8X2C7V9B4N6M1K0PQR',
      at: '2026-11-27T10:00:00.000Z',
      method: 'POST',
      path: '/v1/create-order',
      status: 201,
      code: null,
      durationMs: 12.5,
      keyId: caller.keyId,
      idempotencyKey: 'order-1',
      idempotentReplayed: false,
    });
  });

  it('an error: its code and the error body it answered; a replay says so; an invalid Idempotency-Key is not kept', () => {
    const body = { error: 'Not enough stock', code: 'conflict', status: 409, requestId: 'req_01JF3Q5Z8X2C7V9B4N6M1K0PQR', details: [{ path: 'quantity', message: '2 left' }] };
    const record = requestRecord(state({ replayed: true }), event({ 'idempotency-key': ' spaced ' }), { statusCode: 409, body: JSON.stringify(body) }, 3);
    expect(record).toMatchObject({ status: 409, code: 'conflict', error: body, idempotentReplayed: true, idempotencyKey: null });
  });

  it('none for an anonymous request or a route kept out of the log', () => {
    expect(requestRecord(state({ caller: undefined }), event(), { statusCode: 401, body: '{}' }, 1)).toBeUndefined();
    expect(requestRecord(state({ route: { ...route, unlogged: true } }), event(), { statusCode: 200, body: '{}' }, 1)).toBeUndefined();
  });
});

describe('the request-log writer’s input', () => {
  it('reads the records of a subscription batch, skipping lines that are not request records', () => {
    const record = requestRecord(state(), event(), { statusCode: 200, body: '{}' }, 1)!;
    const batch = logsEvent([record, record], 'filter');
    expect(requestRecordsOf(batch)).toEqual([record, record]);
    const mixed = {
      messageType: 'DATA_MESSAGE',
      owner: '1',
      logGroup: 'g',
      logStream: 's',
      subscriptionFilters: ['f'],
      logEvents: [
        { id: '1', timestamp: 0, message: 'START RequestId: x' },
        { id: '2', timestamp: 0, message: JSON.stringify({ message: 'request', requestLog: { agentId: 'not an id' } }) },
        { id: '3', timestamp: 0, message: JSON.stringify({ message: 'request', requestLog: record }) },
      ],
    };
    expect(requestRecordsOf({ awslogs: { data: gzipSync(JSON.stringify(mixed)).toString('base64') } })).toEqual([record]);
    // CloudWatch Logs' check of the destination when a filter is created.
    const control = { messageType: 'CONTROL_MESSAGE', owner: 'CloudwatchLogs', logGroup: '', logStream: '', subscriptionFilters: [], logEvents: [{ id: '', timestamp: 0, message: 'CWL CONTROL MESSAGE: Checking health of destination Lambda function.' }] };
    expect(requestRecordsOf({ awslogs: { data: gzipSync(JSON.stringify(control)).toString('base64') } })).toEqual([]);
  });
});

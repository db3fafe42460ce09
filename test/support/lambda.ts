// Invoking a handler directly, as Lambda would, with an API Gateway HTTP API (payload 2.0) event.
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import type { ApiLambdaHandler } from '../../shared/http/handler.ts';

export interface EventOptions {
  headers?: Record<string, string>;
  body?: unknown;
  pathParameters?: Record<string, string>;
  query?: Record<string, string>;
  apiKey?: string;
  sourceIp?: string;
}

export function httpEvent(method: string, path: string, options: EventOptions = {}): APIGatewayProxyEventV2 {
  const headers: Record<string, string> = { ...options.headers };
  let body: string | undefined;
  if (options.body !== undefined) {
    body = typeof options.body === 'string' ? options.body : JSON.stringify(options.body);
    headers['content-type'] ??= 'application/json';
  }
  if (options.apiKey) headers.authorization = `Bearer ${options.apiKey}`;
  const now = new Date();
  return {
    version: '2.0',
    routeKey: `${method} ${path}`,
    rawPath: path,
    rawQueryString: new URLSearchParams(options.query ?? {}).toString(),
    headers,
    queryStringParameters: options.query,
    pathParameters: options.pathParameters,
    isBase64Encoded: false,
    body,
    requestContext: {
      accountId: '000000000000',
      apiId: 'local',
      domainName: 'localhost',
      domainPrefix: 'localhost',
      requestId: 'test',
      routeKey: `${method} ${path}`,
      stage: '$default',
      time: now.toISOString(),
      timeEpoch: now.getTime(),
      http: { method, path, protocol: 'HTTP/1.1', sourceIp: options.sourceIp ?? '198.51.100.7', userAgent: 'vitest' },
    },
  };
}

export function lambdaContext(name = 'test-function'): Context {
  return {
    callbackWaitsForEmptyEventLoop: false,
    functionName: name,
    functionVersion: '$LATEST',
    invokedFunctionArn: `arn:aws:lambda:us-east-1:000000000000:function:${name}`,
    memoryLimitInMB: '256',
    awsRequestId: crypto.randomUUID(),
    logGroupName: `/aws/lambda/${name}`,
    logStreamName: 'test',
    getRemainingTimeInMillis: () => 10_000,
    done: () => undefined,
    fail: () => undefined,
    succeed: () => undefined,
  };
}

export interface InvokeResult {
  status: number;
  headers: Record<string, string>;
  json: any;
}

export async function invoke(handler: ApiLambdaHandler, event: APIGatewayProxyEventV2): Promise<InvokeResult> {
  const result: APIGatewayProxyStructuredResultV2 = await handler(event, lambdaContext());
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(result.headers ?? {})) headers[name.toLowerCase()] = String(value);
  return { status: result.statusCode ?? 200, headers, json: result.body ? JSON.parse(result.body) : undefined };
}

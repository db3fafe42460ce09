// API Gateway HTTP API (payload 2.0) events and a Lambda context for invoking handlers in process.
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';

export type Handler = (event: APIGatewayProxyEventV2, context: Context) => Promise<APIGatewayProxyStructuredResultV2>;

export function apiEvent(method: string, path: string, apiKey: string, body?: unknown): APIGatewayProxyEventV2 {
  const now = new Date();
  return {
    version: '2.0',
    routeKey: `${method} ${path}`,
    rawPath: path,
    rawQueryString: '',
    headers: {
      authorization: `Bearer ${apiKey}`,
      accept: 'application/json',
      host: 'api.example',
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    isBase64Encoded: false,
    requestContext: {
      accountId: '000000000000',
      apiId: 'bench',
      domainName: 'api.example',
      domainPrefix: 'api',
      requestId: 'bench',
      routeKey: `${method} ${path}`,
      stage: '$default',
      time: now.toISOString(),
      timeEpoch: now.getTime(),
      http: { method, path, protocol: 'HTTP/1.1', sourceIp: '198.51.100.7', userAgent: 'bench' },
    },
  };
}

export function lambdaContext(): Context {
  return {
    callbackWaitsForEmptyEventLoop: false,
    functionName: 'bench',
    functionVersion: '$LATEST',
    invokedFunctionArn: 'arn:aws:lambda:us-east-1:000000000000:function:bench',
    memoryLimitInMB: '1024',
    awsRequestId: 'bench',
    logGroupName: '/aws/lambda/bench',
    logStreamName: 'bench',
    getRemainingTimeInMillis: () => 10_000,
    done: () => undefined,
    fail: () => undefined,
    succeed: () => undefined,
  };
}

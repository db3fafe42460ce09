// The Lambda adapter: an API Gateway HTTP API event (payload format 2.0) becomes the runner's plain
// request, and its plain response becomes the structured result API Gateway writes back. API Gateway
// has already lowercased header names, joined a repeated header's values (and a repeated query key's)
// with commas, decoded the path parameters and the query, and moved the Cookie header to `cookies`;
// bodies of binary content types arrive base64-encoded, and binary answers go back the same way.
// Reference: https://docs.aws.amazon.com/apigateway/latest/developerguide/http-api-develop-integrations-lambda.html
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import type { OperationRequest, OperationResponse } from './api-state.ts';
import type { Operation } from './operation.ts';

export type ApiLambdaHandler = (event: APIGatewayProxyEventV2, context: Context) => Promise<APIGatewayProxyStructuredResultV2>;

export function requestFromEvent(event: APIGatewayProxyEventV2): OperationRequest {
  const headers = event.headers ?? {};
  return {
    method: event.requestContext?.http?.method ?? 'GET',
    path: event.rawPath,
    // The request as the client sent it: its cookies in the one Cookie header.
    headers: event.cookies?.length ? { ...headers, cookie: event.cookies.join('; ') } : headers,
    params: event.pathParameters ?? {},
    query: event.queryStringParameters ?? {},
    rawQuery: event.rawQueryString ?? '',
    body: event.body === undefined ? undefined : Buffer.from(event.body, event.isBase64Encoded ? 'base64' : 'utf8'),
    sourceIp: event.requestContext?.http?.sourceIp ?? 'unknown',
  };
}

export function resultFromResponse(response: OperationResponse): APIGatewayProxyStructuredResultV2 {
  const { status: statusCode, headers, body } = response;
  return typeof body === 'string' ? { statusCode, headers, body } : { statusCode, headers, body: body.toString('base64'), isBase64Encoded: true };
}

/** The Lambda entry point of an operation: what each function's `handler` export is. */
export function lambdaHandler(operation: Operation): ApiLambdaHandler {
  return async (event, context) =>
    resultFromResponse(await operation.run(requestFromEvent(event), { remainingMs: () => context.getRemainingTimeInMillis() }));
}

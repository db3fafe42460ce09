// First of the API's middlewares: gives the request its id (req_…), its clock reading, its source
// address and its headers as the client sent them (API Gateway moves the Cookie header to `cookies`).
import { newId } from '../../ids.ts';
import type { ApiMiddleware } from '../api-state.ts';
import type { RouteDefinition } from '../route-table.ts';

export function requestContext(route: RouteDefinition): ApiMiddleware {
  return {
    name: 'requestContext',
    before: ({ event, context }) => {
      const headers = event.headers ?? {};
      context.api = {
        route,
        requestId: newId('request'),
        startedAt: performance.now(),
        now: new Date(),
        sourceIp: event.requestContext?.http?.sourceIp ?? 'unknown',
        method: event.requestContext?.http?.method ?? route.method,
        path: event.rawPath ?? '/',
        headers: event.cookies?.length ? { ...headers, cookie: event.cookies.join('; ') } : headers,
        input: { body: undefined, query: undefined, params: undefined },
      };
    },
  };
}

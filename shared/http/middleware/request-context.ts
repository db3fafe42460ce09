// First middleware: gives the request its id (req_…), its clock reading and its source address.
import type { MiddlewareObj } from '@middy/core';
import { newId } from '../../ids.ts';
import type { MiddyApiRequest } from '../api-state.ts';
import type { RouteDefinition } from '../route-table.ts';

export function requestContext(route: RouteDefinition): MiddlewareObj {
  return {
    before: (request) => {
      const { event, context } = request as unknown as MiddyApiRequest;
      context.api = {
        route,
        requestId: newId('request'),
        startedAt: performance.now(),
        now: new Date(),
        sourceIp: event.requestContext?.http?.sourceIp ?? 'unknown',
        input: { body: undefined, query: undefined, params: undefined },
      };
    },
  };
}

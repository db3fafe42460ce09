// Before any step: gives the request its id (req_…), its clock reading and its source address.
import { newId } from '../../ids.ts';
import type { ApiState, OperationRequest } from '../api-state.ts';
import type { RouteDefinition } from '../route-table.ts';

export function newRequestState(route: RouteDefinition, request: OperationRequest): ApiState {
  return {
    route,
    requestId: newId('request'),
    startedAt: performance.now(),
    now: new Date(),
    sourceIp: request.sourceIp,
    input: { body: undefined, query: undefined, params: undefined },
  };
}

// GET /v1/events — the caller's events, read from its side of the events index; ?waitSeconds= holds the request until one arrives.
import { listEventsForCaller } from '../../shared/domain/events.ts';
import { apiHandler } from '../../shared/http/handler.ts';
import { route } from './list.route.ts';

export const handler = apiHandler(route, async ({ caller, query }) => ({ data: await listEventsForCaller(caller, query) }));

// POST /v1/test-helpers/events — the sample goes to the caller alone: its subscriptions and its events feed.
import { triggerSampleEvent } from '../../shared/domain/sample-events.ts';
import { apiHandler } from '../../shared/http/handler.ts';
import { route } from './trigger-event.route.ts';

export const handler = apiHandler(route, async ({ caller, body, now }) => ({ data: await triggerSampleEvent(caller, body.type, now) }));

// Operations the SDK calls that the OpenAPI document does not describe yet, written in the shape
// openapi-typescript generates. types.ts prefers a generated operation of the same name, so once the
// served document has them, these declarations are unused and this file can be deleted (with its
// import in types.ts).
import type { operations } from './generated/openapi.ts';

type EventType =
  | Exclude<NonNullable<operations['createWebhook']['requestBody']>['content']['application/json']['events'][number], '*'>
  | 'webhook.test';

interface EventEnvelope {
  /** The event id (`evt_…`): the same in the feed, in a delivery's body and in its `webhook-id` header. */
  id: string;
  type: EventType;
  /** When the event happened (ISO 8601). */
  timestamp: string;
  /** The record's ids, its parties and what changed. */
  data: { [key: string]: unknown };
}

interface Meta {
  requestId: string;
  timestamp: string;
}

export interface PendingOperations {
  listEvents: {
    parameters: {
      query?: {
        /** Events after this one, oldest first (for following); without it, newest first. */
        after?: string;
        /** Only these event names (aliases included). */
        type?: EventType[];
        limit?: number;
        cursor?: string;
        /** Long poll: with `after`, wait up to this many seconds (0–20) for an event before answering an empty page. */
        waitSeconds?: number;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      200: {
        headers: { [name: string]: unknown };
        content: { 'application/json': { data: { items: EventEnvelope[]; nextCursor: string | null }; meta: Meta } };
      };
    };
  };
  getEvent: {
    parameters: {
      query?: never;
      header?: never;
      path: { id: string };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      200: {
        headers: { [name: string]: unknown };
        content: { 'application/json': { data: EventEnvelope; meta: Meta } };
      };
    };
  };
}

// The event envelope (contract: "Webhook event envelope"), `{id, type, timestamp, data}`: the body of
// every webhook delivery and an item of the events feed (round 3: GET /v1/events), with `data` as
// declared per type in ./event-data.ts. The envelope of each type carries a component id, so the
// OpenAPI document can name each webhook's payload.
import * as z from './zod.ts';
import { idPattern } from '../ids.ts';
import { PaginationQuery, Timestamp, idOf, idParam, queryInteger, unlessMissing } from './common.ts';
import { EVENT_DATA_SCHEMAS, EVENT_TYPES, RECORDED_EVENT_TYPES, pascal, recordedTypeOf, typeDisagreement, type DeliveredEventType, type EventData, type EventType, type RecordedEventType } from './event-data.ts';

/** The event id: the same in every delivery (X-Marketplace-Event-Id, webhook-id) and in GET /v1/events. */
const EventId = idOf('event');

const envelopeFields = {
  id: EventId,
  /** When the event happened. */
  timestamp: Timestamp,
};

/** The envelope of every event, whatever its type: the body of a webhook delivery and an item of the events feed. */
export const EventEnvelope = z.annotated(z.object({
  ...envelopeFields,
  type: z.annotated(z.string(), { description: 'The event type (a webhook delivery names it as the subscription did, for aliases)' }),
  data: z.annotated(z.record(z.string(), z.unknown()), { description: 'The payload declared for the type' }),
}), { id: 'EventEnvelope', description: 'An event: `{id, type, timestamp, data}`, the body of every webhook delivery and an item of GET /v1/events' });

/**
 * Event types that share a data schema share one envelope, its `type` one of theirs (the five order
 * changes, the negotiation moves, the feed outcomes): the document then describes each payload once.
 */
function envelopesByData(): Map<z.ZodMiniObject, z.ZodMiniObject> {
  const typesByData = new Map<z.ZodMiniObject, DeliveredEventType[]>();
  for (const type of Object.keys(EVENT_DATA_SCHEMAS) as DeliveredEventType[]) {
    const data: z.ZodMiniObject = EVENT_DATA_SCHEMAS[type];
    typesByData.set(data, [...(typesByData.get(data) ?? []), type]);
  }
  return new Map(
    [...typesByData].map(([data, types]) => {
      const stem = String(z.globalRegistry.get(data)?.id ?? pascal(types[0] as string)).replace(/(Event)?Data$/, '');
      const type = types.length === 1 ? z.literal(types[0] as string) : z.enum(types as [string, ...string[]]);
      const envelope = z.annotated(z.object({ ...envelopeFields, type, data }).check((context) => {
          const disagreement = typeDisagreement(context.value.type, context.value.data);
          if (disagreement) context.issues.push({ code: 'custom', path: ['data'], message: disagreement, input: context.value });
        }), { id: `${stem}Event` });
      return [data, envelope];
    }),
  );
}

const ENVELOPES_BY_DATA = envelopesByData();

/** The envelope of each name an event can be delivered under, its `data` declared (for webhook documentation and typed receivers). */
export const EVENT_ENVELOPES = Object.fromEntries(
  (Object.keys(EVENT_DATA_SCHEMAS) as DeliveredEventType[]).map((type) => [type, ENVELOPES_BY_DATA.get(EVENT_DATA_SCHEMAS[type]) as z.ZodMiniObject]),
) as Record<DeliveredEventType, z.ZodMiniObject>;

const recordedEnvelopes = [...new Set(RECORDED_EVENT_TYPES.map((type) => EVENT_ENVELOPES[type]))] as [z.ZodMiniObject, ...z.ZodMiniObject[]];

/** An event as the events feed shows it: under its recorded name, `data` typed by `type`. */
export const Event = z.annotated(z.discriminatedUnion('type', recordedEnvelopes).check((context) => {
  // A family's envelope also names the aliases it is delivered under; the feed shows recorded names only.
  if (!(RECORDED_EVENT_TYPES as readonly string[]).includes(context.value.type as string)) {
    context.issues.push({ code: 'custom', path: ['type'], message: `Not a recorded event type: ${String(context.value.type)}`, input: context.value });
  }
}), { id: 'Event', description: 'An event under its recorded name (not an alias)' });
export type Event = { [T in RecordedEventType]: { id: string; type: T; timestamp: string; data: EventData<T> } }[RecordedEventType];

// The events feed (GET /v1/events)

/** The longest a list request may be held for something new (API Gateway ends an integration at 30 s). */
export const MAX_WAIT_SECONDS = 20;

const isEventType = (name: string): name is EventType => (EVENT_TYPES as readonly string[]).includes(name);

const typeMessage = `Must be event type names or aliases (${EVENT_TYPES.join(', ')}), repeated (type=a&type=b) or comma-separated`;

/** `?type=`: repeated (API Gateway joins repeated parameters with commas) or comma-separated names and aliases, folded to the recorded names. */
const TypeFilter = z.annotated(z.pipe(z.string({ error: unlessMissing(typeMessage) }), z.transform((text, context) => {
    const names = text.split(',').map((name) => name.trim());
    const unknown = names.filter((name) => !isEventType(name));
    if (unknown.length > 0) {
      context.issues.push({ code: 'custom', message: `Unknown event type ${unknown.map((name) => JSON.stringify(name)).join(', ')}: ${typeMessage}`, input: text });
      return z.NEVER;
    }
    return [...new Set(names.filter(isEventType).map(recordedTypeOf))];
  })), { description: 'Only events of these types (names or aliases; an alias selects its pair’s recorded name). Repeat the parameter or separate names with commas',
    // Documented as what a client sends (a repeated parameter of names); the wire value is parsed above.
    type: 'array',
    maxItems: EVENT_TYPES.length,
    items: { type: 'string', enum: [...EVENT_TYPES] },
    example: ['order.created', 'order.shipped'],
  });

export const ListEventsQuery = z.extend(PaginationQuery, {
  after: z.annotated(
    z.optional(z.string({ error: unlessMissing('Must be an event id (evt_…)') }).check(z.regex(idPattern('event'), 'Must be an event id (evt_ and 26 characters), such as the id of the last event you processed'))),
    { description: 'Follow: the events after this one, oldest first (an id that is not yours, or no longer kept, counts as a position in time)', maxLength: 30 },
  ),
  type: z.optional(TypeFilter),
  waitSeconds: z.annotated(
    z.optional(queryInteger({ min: 0, max: MAX_WAIT_SECONDS })),
    { description: `Hold the request up to this many seconds (0–${MAX_WAIT_SECONDS}) until an event arrives, when the page would otherwise be empty`, type: 'integer', example: 20 },
  ),
});

export const EventIdParams = z.strictObject({ id: idParam(idPattern('event'), 'an event id (evt_…)', 'evt_01M83TMVZ0KAWZ2R4PPHTGTRWW') });

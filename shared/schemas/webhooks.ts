// Webhook subscriptions (contract: "Webhook subscription").
import * as z from './zod.ts';
import { idPattern } from '../ids.ts';
import { CONTROLS_SINGLE_LINE, PaginationQuery, TEXT_PATTERN_MULTI_LINE, Timestamp, bounded, boundedInt, idOf, idParam, text, unlessMissing, ONLY_IF_OTHERWISE_VALID } from './common.ts';
import { normaliseWebhookUrl, webhookUrlProblem } from './webhook-url.ts';
import { DISABLED_REASONS, EVENT_TYPES } from './event-data.ts';

export { EVENT_TYPES, type EventType } from './event-data.ts';

export const MAX_SUBSCRIPTIONS_PER_AGENT = 20;

export const EventName = z.annotated(
  z.enum([...EVENT_TYPES, '*'], { error: unlessMissing(`Must be one of ${EVENT_TYPES.join(', ')} or *`) }),
  { id: 'EventName' },
);
export type EventName = z.infer<typeof EventName>;

const Events = z.pipe(z.array(EventName).check(
  z.minLength(1, 'Subscribe to at least one event'),
  z.maxLength(EVENT_TYPES.length + 1),
), z.transform((events) => [...new Set(events)]));

const Url = z.annotated(z.pipe(z.string({ error: unlessMissing('Must be an absolute http(s) URL') }).check(
  z.maxLength(2048, 'Must be at most 2048 characters'),
  z.superRefine((url, context) => {
    const problem = webhookUrlProblem(url);
    if (problem) context.addIssue({ code: 'custom', message: problem });
  }),
), z.transform(normaliseWebhookUrl)), { description: 'Absolute http(s) URL, normalised (https only in production)', format: 'uri' });
const Secret = z.annotated(z.string({ error: unlessMissing('Must be 16 to 256 characters') }).check(
  z.minLength(16, 'Must be 16 to 256 characters'),
  z.maxLength(256, 'Must be 16 to 256 characters'),
  z.refine((secret) => !CONTROLS_SINGLE_LINE.test(secret), 'Must not contain control characters'),
  z.refine((secret) => secret.isWellFormed(), 'Must be valid Unicode (no lone surrogates)'),
), { pattern: '^[^\\u0000-\\u001F\\u007F-\\u009F]{16,256}$' });
const Description = text({ max: 500, multiline: true });

export const CreateWebhookRequest = z.annotated(z.strictObject({
  url: z.withMeta(Url, { example: 'https://hooks.rhein-safety.example/marketplace' }),
  events: Events,
  secret: z.withMeta(Secret, { description: 'Signs deliveries (HMAC-SHA-256); never returned' }),
  description: z.optional(Description),
}), { id: 'CreateWebhookRequest' });

export const UpdateWebhookRequest = z.annotated(z.strictObject({
  url: z.optional(Url),
  events: z.optional(Events),
  secret: z.optional(Secret),
  description: z.optional(z.nullable(Description)),
  active: z.optional(z.boolean()),
}).check(z.refine((body) => Object.keys(body).length > 0, { message: 'Send at least one of url, events, secret, description, active', ...ONLY_IF_OTHERWISE_VALID })), { id: 'UpdateWebhookRequest' });

export const WebhookSubscription = z.annotated(z.object({
  id: idOf('webhook'),
  url: bounded(2048, { format: 'uri' }),
  events: z.annotated(z.array(EventName), { maxItems: EVENT_TYPES.length + 1 }),
  description: z.nullable(bounded(500, { pattern: TEXT_PATTERN_MULTI_LINE })),
  active: z.boolean(),
  failingSince: z.annotated(z.nullable(Timestamp), { description: 'Deliveries all failed since; 5 days of it disables' }),
  disabledReason: z.nullable(z.enum(DISABLED_REASONS)),
  disabledAt: z.nullable(Timestamp),
  createdAt: Timestamp,
  updatedAt: Timestamp,
}), { id: 'WebhookSubscription' });
export type WebhookSubscription = z.infer<typeof WebhookSubscription>;

export const WebhookIdParams = z.strictObject({ id: idParam(idPattern('webhook'), 'a webhook subscription id (whk_…)', 'whk_01M83TH6S0D45S2E8TEBHX8NHR') });

export const ListWebhooksQuery = PaginationQuery;

export const DeletedWebhook = z.annotated(z.object({ id: idOf('webhook'), deleted: z.literal(true) }), { id: 'DeletedWebhook' });

// Deliveries (contract: "Delivery" record, an extension)

export const DELIVERY_STATUSES = ['pending', 'delivered', 'failed'] as const;
export const DeliveryStatus = z.annotated(z.enum(DELIVERY_STATUSES), { id: 'DeliveryStatus' });
export type DeliveryStatus = z.infer<typeof DeliveryStatus>;

export const DELIVERY_ERRORS = ['timeout', 'connection-refused', 'dns', 'tls', 'redirect', 'non-2xx', 'connection-error', 'forbidden-address', 'subscription-inactive'] as const;

export const DeliveryAttempt = z.annotated(z.object({
  at: Timestamp,
  statusCode: z.annotated(z.nullable(boundedInt(100, 599)), { description: 'Null when no response came' }),
  error: z.annotated(z.nullable(z.enum(DELIVERY_ERRORS)), { description: 'Why it failed; null on success' }),
  durationMs: boundedInt(0, 2_147_483_647),
  responseBody: z.annotated(z.nullable(bounded(1024)), { description: 'First 1 KB of the response body' }),
  manual: z.annotated(z.boolean(), { description: 'Sent by POST …/retry, not the schedule' }),
}), { id: 'DeliveryAttempt' });
export type DeliveryAttempt = z.infer<typeof DeliveryAttempt>;

export const Delivery = z.annotated(z.object({
  deliveryId: idOf('delivery'),
  subscriptionId: idOf('webhook'),
  eventId: idOf('event', { description: 'The envelope’s `id` (X-Marketplace-Event-Id)' }),
  eventType: bounded(40, { pattern: '^[a-z]+\\.[a-z_]+$', description: 'The name delivered under (an alias if subscribed to; webhook.test for tests)' }),
  status: DeliveryStatus,
  attempts: z.annotated(z.array(DeliveryAttempt), { maxItems: 5000, description: 'Every attempt, automatic or manual, oldest first' }),
  nextAttemptAt: z.nullable(Timestamp),
  createdAt: Timestamp,
  updatedAt: Timestamp,
}), { id: 'Delivery' });
export type Delivery = z.infer<typeof Delivery>;

export const DeliveryWithPayload = z.annotated(z.extend(Delivery, {
  payload: bounded(400_000, { description: 'The exact body sent and signed: the event envelope as JSON text' }),
}), { id: 'DeliveryWithPayload' });

export const DeliveryParams = z.strictObject({
  id: WebhookIdParams.shape.id,
  deliveryId: idParam(idPattern('delivery'), 'a delivery id (dlv_…)', 'dlv_01M83TMVZ0FR9RAD0FP0RS7QKV'),
});

export const ListDeliveriesQuery = z.extend(PaginationQuery, { status: z.optional(DeliveryStatus) });

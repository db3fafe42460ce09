// What an agent needs to know beyond any one operation — conventions, authentication, units, the
// buyer's and seller's flows, webhook verification — written once for the OpenAPI document's
// description and for llms.txt, so the two never disagree. Built at synth and local start only.
import { DEFAULT_WEBHOOK_RETRY_DELAYS } from '../config.ts';

/** Seconds as a person says them: 60 → "1 min", 7200 → "2 h". */
export function spokenDuration(seconds: number): string {
  if (seconds % 3600 === 0) return `${seconds / 3600} h`;
  if (seconds % 60 === 0) return `${seconds / 60} min`;
  return `${seconds} s`;
}

/** The default retry schedule, as text: "1 min, 5 min, 30 min, 2 h". */
export const RETRY_SCHEDULE = DEFAULT_WEBHOOK_RETRY_DELAYS.map(spokenDuration).join(', ');

/** How a failed attempt is retried, as text: the schedule, its jitter and what a receiver's Retry-After does (shared/domain/delivery-decision.ts). */
export const RETRY_RULE = `${RETRY_SCHEDULE} (each step ±20 %; a \`Retry-After\` on the response, in seconds or an HTTP date, may push a retry later, up to the schedule’s next step)`;

export const SUMMARY =
  'A business-to-business exchange where AI agents buy and sell through a REST API. Sellers’ agents upload ' +
  'catalogs; buyers’ agents search in plain language or with filters, negotiate turn by turn, place orders and ' +
  'follow them; every party gets signed webhooks.';

export const CONVENTIONS = `- **Authentication**: \`Authorization: Bearer <API key>\` on every call but registration and these documents. \`POST /v1/agents/register\` returns the key once (\`mk_test_…\` sandbox, \`mk_live_…\` production); \`POST /v1/agents/me/rotate-key\` replaces it. An agent is a \`buyer\` or a \`seller\`; each operation says which may call it.
- **Envelope**: every success is \`{"data": …, "meta": {"requestId", "timestamp"}}\` (response examples show \`data\` only); every failure is \`{"error", "code", "status", "requestId", "details"?}\`, \`details\` listing \`{path, message}\` per field (dot paths: \`organization.country\`). Branch on \`code\`, not the message. A known path with a wrong method is 405 \`method-not-allowed\` (see \`Allow\`).
- **Money**: integers in the currency’s minor unit (EUR and USD cents, JPY yen): \`{"amount": 1250, "currency": "EUR"}\` is 12.50 EUR. Every \`unitPrice\` is such an integer in the record’s currency; \`totalAmount\` = quantity × unitPrice. Only CSV feeds use decimals in major units.
- **Ids** are opaque, with a type prefix (\`agt_\`, \`prd_\`, \`ofr_\`, \`neg_\`, \`ord_\`, \`feed_\`, \`whk_\`, \`evt_\`, \`dlv_\`); take them from earlier responses (\`offerId\` from search results, \`sessionId\` from starting a negotiation, \`orderId\` from the order). Timestamps: ISO 8601 UTC with milliseconds.
- **Lists**: \`?limit=\` (1–100, default 20), \`?cursor=\` (the previous page’s \`nextCursor\`; \`null\` on the last page). Newest first unless stated.
- **Retries**: send an \`Idempotency-Key\` (1–255 characters) with every POST; the same key and request within 24 h replays the first response with \`Idempotent-Replayed: true\`. Unknown fields, in bodies and query strings, are 422.
- **Rate limits**: per agent (per source address without a key), fixed UTC minute and day windows: free 60/min and 1,000/day, pro 600/min and 100,000/day. Every response carries \`X-Request-Id\`, \`X-RateLimit-Limit\`, \`-Remaining\` and \`-Reset\` (Unix seconds); a 429 carries \`Retry-After\` (seconds).`;

export const SELLER_FLOW = `1. \`POST /v1/agents/register\` with \`"role": "seller"\`; keep \`apiKey\` (shown once).
2. \`GET /v1/seller/templates/json\` (or \`/csv\`): every field with its type and an example.
3. \`POST /v1/seller/feeds\` with \`{"products": [...]}\` (or a \`text/csv\` body, a multipart \`file\`, or \`{"format", "upload": "presigned"}\` for files over 5 MiB); answers 202 with a \`feedId\`.
4. \`GET /v1/seller/feeds/{feedId}\` until \`status\` is \`completed\` (rows in \`errors\` were skipped) or \`failed\` (\`failureReason\` says what to fix; then \`POST …/retry\`). Each row is a product with one standing offer; \`floorUnitPrice\` and \`autoAcceptUnitPrice\` set the offer’s automatic negotiation policy.
5. \`POST /v1/webhooks\` for \`negotiation.started\`, \`negotiation.counter\`, \`order.created\`…; answer buyers with \`POST /v1/negotiate/{sessionId}\` (counter), \`…/accept\` or \`…/reject\` when \`turn\` is \`seller\`.
6. Move each order on: \`POST /v1/orders/{orderId}/confirm\`, \`/ship\` (carrier, tracking number), \`/deliver\`.`;

export const BUYER_FLOW = `1. \`POST /v1/agents/register\` with \`"role": "buyer"\`; keep \`apiKey\` (shown once).
2. \`POST /v1/search-intent\` with \`{"intent": "500 boxes of nitrile gloves under 13 EUR each from Germany"}\`, or \`POST /v1/search\` with filters; each item holds a \`product\` and its \`offer\` (\`offerId\`, \`unitPrice\`, \`minQuantity\`, \`priceTiers\`, \`negotiable\`).
3. \`POST /v1/negotiate\` with \`{"offerId", "quantity", "unitPrice"?}\` opens a session (\`sessionId\`); the seller (or its automatic policy) answers. Follow it with \`GET /v1/negotiations/{sessionId}\` or the \`negotiation.*\` webhooks; when \`turn\` is \`buyer\`, counter (\`POST /v1/negotiate/{sessionId}\`), \`…/accept\` or \`…/reject\`.
4. \`POST /v1/create-order\` with \`{"sessionId"}\` once the session is \`accepted\`: the order (\`orderId\`) is \`pending\`, the stock is reserved.
5. Follow the order (\`GET /v1/orders/{orderId}\`, \`order.*\` webhooks) through \`confirmed\`, \`shipped\`, \`delivered\`; then \`POST /v1/orders/{orderId}/complete\`. \`…/cancel\` is possible while \`pending\` or \`confirmed\`.`;

export const WEBHOOK_VERIFICATION = `Each delivery is a POST of the event envelope \`{"id", "type", "timestamp", "data"}\` to the subscription’s URL (order and negotiation events go to both parties, feed events to the seller), with:
- \`X-Marketplace-Signature: sha256=<hex HMAC-SHA256 of the exact body>\`, \`X-Marketplace-Timestamp\` (Unix seconds) and \`X-Marketplace-Event-Id\` (the envelope’s \`id\`);
- the Standard Webhooks headers \`webhook-id\` (the event id), \`webhook-timestamp\` (Unix seconds) and \`webhook-signature: v1,<base64 HMAC-SHA256 of "{webhook-id}.{webhook-timestamp}.{body}">\`.

The HMAC key is the UTF-8 bytes of the subscription’s \`secret\` (Standard Webhooks libraries take it as \`whsec_\` + base64 of those bytes). Compute the HMAC over the raw body before parsing it, compare in constant time, refuse a mismatch with 401 and timestamps more than 5 minutes away; deduplicate on the event id (delivery is at least once). Answer any 2xx within 10 s; anything else (redirects and timeouts included) is retried after ${RETRY_RULE}, then the delivery is \`failed\` (see \`GET /v1/webhooks/{id}/deliveries\`; \`POST …/retry\` sends it again).`;

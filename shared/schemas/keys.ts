// API keys (contract §5.1, §5.2): the agent's main key and the restricted keys its owner gives to the
// programs that act for it — their scopes, their spending limits, and the requests that manage them.
import * as z from './zod.ts';
import { idPattern } from '../ids.ts';
import { CountryCode, ONLY_IF_OTHERWISE_VALID, PaginationQuery, TEXT_PATTERN_SINGLE_LINE, Timestamp, bounded, idOf, idParam, text, unlessMissing } from './common.ts';
import { Money } from './money.ts';

/**
 * What a restricted key may do, per resource. `write` implies `read` of the same resource; a scope
 * never widens the agent's role (a buyer's key with `feeds:write` still cannot upload a feed).
 */
export const SCOPES = [
  'catalog:read',
  'negotiations:read',
  'negotiations:write',
  'orders:read',
  'orders:write',
  'feeds:read',
  'feeds:write',
  'webhooks:read',
  'webhooks:write',
  'events:read',
  'rfqs:read',
  'rfqs:write',
] as const;
export type Scope = (typeof SCOPES)[number];

/**
 * What a route asks of the key that calls it: a scope; `main`, the agent's main key only (keys,
 * rotation, profile changes, approvals); `any`, any key of the agent (its profile, the MCP endpoint,
 * whose tools are each checked as the operation they call).
 */
export type RouteScope = Scope | 'main' | 'any';

export const ScopeName = z.annotated(
  z.enum(SCOPES, { error: unlessMissing(`Must be one of ${SCOPES.join(', ')}`) }),
  { id: 'Scope', description: '`<resource>:read` or `<resource>:write`; write implies read' },
);

/** The most restricted keys an agent may have active (neither revoked nor expired) at once. */
export const MAX_ACTIVE_RESTRICTED_KEYS = 20;

const MAX_ALLOWED_IDS = 100;

const LimitMoney = z.withMeta(Money, { description: 'In the minor unit of its currency; every money limit of a key in one currency' });

/** A key's limits as stored and shown: every field optional, money limits in one currency. */
const limitsShape = {
  maxOrderAmount: z.annotated(z.optional(LimitMoney), { description: 'Largest total of one order' }),
  spendPerDay: z.annotated(z.optional(LimitMoney), { description: 'Orders per UTC calendar day (cancelled and declined ones give theirs back)' }),
  spendPerMonth: z.annotated(z.optional(LimitMoney), { description: 'Orders per UTC calendar month' }),
  approvalAbove: z.annotated(z.optional(LimitMoney), { description: 'An order over it waits for the main key’s approval (`awaiting_approval`)' }),
  allowedSellerIds: z.annotated(z.optional(z.array(idOf('agent')).check(z.minLength(1), z.maxLength(MAX_ALLOWED_IDS))), { maxItems: MAX_ALLOWED_IDS, description: 'Orders only from these sellers' }),
  allowedShipsFrom: z.annotated(z.optional(z.array(CountryCode).check(z.minLength(1), z.maxLength(MAX_ALLOWED_IDS))), { maxItems: MAX_ALLOWED_IDS, description: 'Orders only of products shipping from these countries' }),
};

export const MONEY_LIMITS = ['maxOrderAmount', 'spendPerDay', 'spendPerMonth', 'approvalAbove'] as const;
export type MoneyLimit = (typeof MONEY_LIMITS)[number];

export const KeyLimits = z.annotated(z.strictObject(limitsShape).check(
  z.superRefine((limits, context) => {
    // One currency for every money limit: the counters and the checks compare amounts, never convert.
    const currencies = MONEY_LIMITS.flatMap((name) => (limits[name] ? [[name, limits[name].currency] as const] : []));
    const first = currencies[0];
    for (const [name, currency] of currencies.slice(1)) {
      if (first && currency !== first[1]) context.addIssue({ code: 'custom', path: [name, 'currency'], message: `Must be ${first[1]}, the currency of ${first[0]}: a key’s money limits share one currency` });
    }
    for (const name of ['allowedSellerIds', 'allowedShipsFrom'] as const) {
      const list = limits[name];
      if (list && new Set(list).size !== list.length) context.addIssue({ code: 'custom', path: [name], message: 'Must not repeat an entry' });
    }
  }, ONLY_IF_OTHERWISE_VALID),
), { id: 'KeyLimits', description: 'Spending limits (buyers): all optional; money in one currency' });
export type KeyLimits = z.infer<typeof KeyLimits>;

/** The currency of a key's money limits; undefined when it has none. */
export function limitsCurrency(limits: KeyLimits | null | undefined): string | undefined {
  if (!limits) return undefined;
  for (const name of MONEY_LIMITS) if (limits[name]) return limits[name].currency;
  return undefined;
}

const Scopes = z.pipe(
  z.array(ScopeName).check(z.minLength(1, 'Give the key at least one scope'), z.maxLength(SCOPES.length * 2)),
  z.transform((scopes) => [...new Set(scopes)]),
);

const KeyName = text({ min: 1, max: 100 });

/** A future moment, at most 5 years ahead (checked against the request's clock by the use case). */
const ExpiresAt = z.annotated(z.iso.datetime({ offset: false, error: unlessMissing('Must be an ISO 8601 UTC timestamp, such as 2026-12-31T23:59:59Z') }), {
  description: 'When the key stops working (UTC, in the future); absent: it does not expire',
  maxLength: 30,
  example: '2026-12-31T23:59:59.000Z',
});

export const CreateKeyRequest = z.annotated(z.strictObject({
  name: z.withMeta(KeyName, { example: 'Reorder bot' }),
  scopes: Scopes,
  limits: z.optional(KeyLimits),
  expiresAt: z.optional(ExpiresAt),
}), { id: 'CreateKeyRequest' });

export const UpdateKeyRequest = z.annotated(z.strictObject({
  name: z.optional(KeyName),
  scopes: z.optional(Scopes),
  limits: z.annotated(z.optional(z.nullable(KeyLimits)), { description: 'Replaces every limit; null removes them' }),
  expiresAt: z.annotated(z.optional(z.nullable(ExpiresAt)), { description: 'null: never expires' }),
}).check(z.refine((body) => Object.keys(body).length > 0, { message: 'Send at least one of name, scopes, limits, expiresAt', ...ONLY_IF_OTHERWISE_VALID })), { id: 'UpdateKeyRequest' });

export const KEY_STATUSES = ['active', 'expired', 'revoked'] as const;

export const RestrictedKey = z.annotated(z.object({
  keyId: idOf('key'),
  kind: z.literal('restricted'),
  name: bounded(100, { pattern: TEXT_PATTERN_SINGLE_LINE }),
  apiKeyPrefix: bounded(12, { pattern: '^mk_(test|live)_[0-9A-Za-z]{4}$', description: 'The first 12 characters of the key, to recognise it' }),
  scopes: z.annotated(z.array(ScopeName), { maxItems: SCOPES.length }),
  limits: z.nullable(KeyLimits),
  status: z.annotated(z.enum(KEY_STATUSES), { description: '`expired` from `expiresAt` on; `revoked` from `revokedAt` on' }),
  expiresAt: z.nullable(Timestamp),
  createdAt: Timestamp,
  lastUsedAt: z.annotated(z.nullable(Timestamp), { description: 'Last authenticated request, to the minute' }),
  revokedAt: z.nullable(Timestamp),
}), { id: 'RestrictedKey' });
export type RestrictedKey = z.infer<typeof RestrictedKey>;

export const RestrictedKeyWithSecret = z.annotated(z.extend(RestrictedKey, {
  apiKey: bounded(48, { pattern: '^mk_(test|live)_[0-9A-Za-z]{40}$', description: 'The key itself: shown only in this response' }),
}), { id: 'RestrictedKeyWithSecret' });

/** The agent's main key in a list of keys: its id only (its secret is never stored). */
export const MainKey = z.annotated(
  z.object({ keyId: idOf('key'), kind: z.literal('main') }),
  { id: 'MainKey', description: 'The key from registration or rotation: every scope, and alone may manage keys' },
);

export const ApiKeyListItem = z.annotated(z.union([MainKey, RestrictedKey]), { id: 'ApiKeyListItem' });

export const KeyIdParams = z.strictObject({ keyId: idParam(idPattern('key'), 'a key id (key_…)', 'key_01M83TE1B0R4W9D2Y7C6K5H3JN') });

export const ListKeysQuery = PaginationQuery;

/**
 * The key that made the request, as GET /v1/agents/me reports it: what a program holding a key learns
 * of it without the main key (the MCP stdio server lists a restricted key's tools from its scopes).
 */
export const CallingKey = z.annotated(z.object({
  keyId: idOf('key'),
  kind: z.enum(['main', 'restricted']),
  name: z.nullable(bounded(100, { pattern: TEXT_PATTERN_SINGLE_LINE })),
  scopes: z.annotated(z.nullable(z.annotated(z.array(ScopeName), { maxItems: SCOPES.length })), { description: 'null: the main key, every scope' }),
  limits: z.nullable(KeyLimits),
  expiresAt: z.nullable(Timestamp),
}), { id: 'CallingKey', description: 'The key that made the request; the main key has no name, limits or expiry' });
export type CallingKey = z.infer<typeof CallingKey>;

// Webhook subscriptions live in their agent's partition: listing them is one Query, and another
// agent's subscription is simply not found. The agent's webhookCount, changed in the same transaction
// as each create and delete, holds the 20-per-agent limit.
import * as z from '../schemas/zod.ts';
import { MAX_SUBSCRIPTIONS_PER_AGENT, WebhookSubscription } from '../schemas/webhooks.ts';
import { DISABLED_REASONS } from '../schemas/event-data.ts';
import type { TransactOperation } from './transactions.ts';
import { AgentEntity } from './agents.ts';
import { ConditionRefused, defineEntity } from './entity.ts';
import { where } from './expressions.ts';
import { transactWrite, TransactionRefused } from './transactions.ts';

export const WebhookSubscriptionEntity = defineEntity({
  name: 'webhookSubscription',
  schema: z.extend(WebhookSubscription, {
    agentId: z.string(),
    /** Signs deliveries, so it is kept (encrypted at rest by DynamoDB) and never returned by the API. */
    secret: z.string(),
    // Subscriptions written before endpoint health was tracked read as healthy and active.
    failingSince: z._default(z.nullable(z.string()), null),
    disabledReason: z._default(z.nullable(z.enum(DISABLED_REASONS)), null),
    disabledAt: z._default(z.nullable(z.string()), null),
  }),
  key: ({ agentId, id }: { agentId: string; id: string }) => ({ pk: `AGENT#${agentId}`, sk: `WEBHOOK#${id}` }),
});
export type WebhookSubscriptionItem = z.output<typeof WebhookSubscriptionEntity.schema>;

/** Key condition for all of an agent's subscriptions. */
const byAgent = (agentId: string) => ({ partition: `AGENT#${agentId}`, sortKey: { beginsWith: 'WEBHOOK#' } });

export function toSubscription(item: WebhookSubscriptionItem): WebhookSubscription {
  const { agentId: _agentId, secret: _secret, ...subscription } = item;
  return subscription;
}

export type CreateOutcome = { created: true } | { created: false; reason: 'limit' | 'no-agent' };

export async function createSubscription(item: WebhookSubscriptionItem): Promise<CreateOutcome> {
  try {
    await transactWrite([
      AgentEntity.updateOperation(
        'agent',
        { agentId: item.agentId },
        { add: { webhookCount: 1 } },
        {
          allow: ['webhookCount'],
          condition: AgentEntity.where.and(AgentEntity.where.exists('pk'), AgentEntity.where.lt('webhookCount', MAX_SUBSCRIPTIONS_PER_AGENT)),
        },
      ),
      WebhookSubscriptionEntity.putOperation('subscription', item, item, where.notExists('pk')),
    ]);
    return { created: true };
  } catch (error) {
    if (error instanceof TransactionRefused && error.has('agent')) {
      return { created: false, reason: error.current('agent') ? 'limit' : 'no-agent' };
    }
    throw error;
  }
}

export function getSubscription(agentId: string, id: string): Promise<WebhookSubscriptionItem | undefined> {
  return WebhookSubscriptionEntity.get({ agentId, id });
}

/** Many subscriptions by key (one BatchGetItem per 100), keyed by subscription id. */
export async function getSubscriptions(keys: readonly { agentId: string; id: string }[]): Promise<Map<string, WebhookSubscriptionItem>> {
  const found = await WebhookSubscriptionEntity.batchGet(keys);
  return new Map([...found.values()].map((subscription) => [subscription.id, subscription]));
}

export async function listSubscriptions(agentId: string, limit: number, startKey: Record<string, unknown> | undefined) {
  return WebhookSubscriptionEntity.query({ ...byAgent(agentId), ascending: false, limit, startKey }); // ULIDs sort by time: newest first
}

export type SubscriptionChanges = Partial<Pick<WebhookSubscriptionItem, 'url' | 'events' | 'secret' | 'active'>> & {
  description?: string | null;
};

const HEALTH_FIELDS = ['failingSince', 'disabledReason', 'disabledAt'] as const;

export async function updateSubscription(
  agentId: string,
  id: string,
  changes: SubscriptionChanges,
  now: string,
): Promise<WebhookSubscriptionItem | undefined> {
  try {
    return await WebhookSubscriptionEntity.update(
      { agentId, id },
      {
        set: {
          url: changes.url,
          events: changes.events,
          secret: changes.secret,
          description: changes.description,
          active: changes.active,
          // Turned on: a fresh start, whatever failed before. Turned off by its owner: says so.
          ...(changes.active === true ? { failingSince: null, disabledReason: null, disabledAt: null } : {}),
          ...(changes.active === false ? { disabledReason: 'manual' as const, disabledAt: now } : {}),
          updatedAt: now,
        },
      },
      { allow: ['url', 'events', 'secret', 'description', 'active', 'updatedAt', ...HEALTH_FIELDS], condition: where.exists('pk') },
    );
  } catch (error) {
    if (error instanceof ConditionRefused) return undefined;
    throw error;
  }
}

/** Deletes the subscription and gives its slot back; false when it does not exist. */
export async function deleteSubscription(agentId: string, id: string): Promise<boolean> {
  try {
    await transactWrite([
      WebhookSubscriptionEntity.deleteOperation('subscription', { agentId, id }, where.exists('pk')),
      AgentEntity.updateOperation(
        'agent',
        { agentId },
        { add: { webhookCount: -1 } },
        { allow: ['webhookCount'], condition: AgentEntity.where.gt('webhookCount', 0) },
      ),
    ]);
    return true;
  } catch (error) {
    if (error instanceof TransactionRefused && error.has('subscription')) return false;
    throw error;
  }
}

/**
 * Records when a subscription's deliveries began to fail (`since`), or that they succeed again (null).
 * Not conditional: lanes of one subscription may race, and the next attempt's outcome corrects the mark.
 */
export async function markSubscriptionHealth(agentId: string, id: string, failingSince: string | null): Promise<void> {
  try {
    await WebhookSubscriptionEntity.update({ agentId, id }, { set: { failingSince } }, { allow: ['failingSince'], condition: where.exists('pk') });
  } catch (error) {
    if (!(error instanceof ConditionRefused)) throw error; // deleted meanwhile
  }
}

/**
 * Disables a subscription whose deliveries have failed since `failingSince`, with its event, in one
 * transaction conditional on it being active and failing since then; false when it changed meanwhile
 * (turned off, deleted, or a delivery got through).
 */
export async function disableFailingSubscription(subscription: WebhookSubscriptionItem, failingSince: string, now: string, event: TransactOperation): Promise<boolean> {
  const { and, eq } = WebhookSubscriptionEntity.where;
  try {
    await transactWrite([
      WebhookSubscriptionEntity.updateOperation(
        'subscription',
        { agentId: subscription.agentId, id: subscription.id },
        { set: { active: false, disabledReason: 'deliveries-failing', disabledAt: now, updatedAt: now } },
        { allow: ['active', 'disabledReason', 'disabledAt', 'updatedAt'], condition: and(eq('active', true), eq('failingSince', failingSince)) },
      ),
      event,
    ]);
    return true;
  } catch (error) {
    if (error instanceof TransactionRefused && error.has('subscription')) return false;
    throw error;
  }
}

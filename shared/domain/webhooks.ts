// Webhook subscription use cases: the stack's URL policy, the 20-per-agent limit, ownership.
import { config } from '../config.ts';
import { decodeCursor, encodeCursor } from '../data/cursor.ts';
import {
  createSubscription,
  deleteSubscription,
  getSubscription,
  listSubscriptions,
  toSubscription,
  updateSubscription,
  type SubscriptionChanges,
} from '../data/webhook-subscriptions.ts';
import { fail, invalidFields } from '../failures.ts';
import { newId } from '../ids.ts';
import { MAX_SUBSCRIPTIONS_PER_AGENT, type EventName, type WebhookSubscription } from '../schemas/webhooks.ts';
import { checkWebhookUrl } from './webhook-urls.ts';

/** Fails with the contract's 422 when this stack may not deliver to `url`. */
export async function assertDeliverableUrl(url: string): Promise<void> {
  const { STAGE, ALLOW_PRIVATE_WEBHOOK_URLS } = config();
  const problems = await checkWebhookUrl(url, { requireHttps: STAGE === 'live', allowPrivateAddresses: ALLOW_PRIVATE_WEBHOOK_URLS });
  if (problems.length > 0) throw invalidFields(problems);
}

const notFound = (id: string) => fail.notFound(`Webhook subscription ${id} not found`);

export interface NewSubscription {
  url: string;
  events: EventName[];
  secret: string;
  description?: string | undefined;
}

export async function subscribe(agentId: string, input: NewSubscription, now: Date): Promise<WebhookSubscription> {
  await assertDeliverableUrl(input.url);
  const timestamp = now.toISOString();
  const item = {
    id: newId('webhook'),
    agentId,
    url: input.url,
    events: input.events,
    secret: input.secret,
    description: input.description ?? null,
    active: true,
    failingSince: null,
    disabledReason: null,
    disabledAt: null,
    createdAt: timestamp,
    updatedAt: timestamp,
  };
  const outcome = await createSubscription(item);
  if (!outcome.created) {
    if (outcome.reason === 'no-agent') throw fail.notFound('Agent not found');
    throw fail.conflict(`An agent may have at most ${MAX_SUBSCRIPTIONS_PER_AGENT} webhook subscriptions; delete one first`, [
      { path: 'subscriptions', message: `${MAX_SUBSCRIPTIONS_PER_AGENT} of ${MAX_SUBSCRIPTIONS_PER_AGENT} in use` },
    ]);
  }
  return toSubscription(item);
}

export async function getOwnSubscription(agentId: string, id: string): Promise<WebhookSubscription> {
  const item = await getSubscription(agentId, id);
  if (!item) throw notFound(id);
  return toSubscription(item);
}

export async function listOwnSubscriptions(agentId: string, limit: number, cursor: string | undefined) {
  const scope = `webhooks:${agentId}`;
  const { items, lastKey } = await listSubscriptions(agentId, limit, decodeCursor(scope, cursor));
  return { items: items.map(toSubscription), nextCursor: encodeCursor(scope, lastKey) };
}

export async function changeSubscription(agentId: string, id: string, changes: SubscriptionChanges, now: Date): Promise<WebhookSubscription> {
  if (changes.url !== undefined) await assertDeliverableUrl(changes.url);
  const item = await updateSubscription(agentId, id, changes, now.toISOString());
  if (!item) throw notFound(id);
  return toSubscription(item);
}

export async function unsubscribe(agentId: string, id: string): Promise<{ id: string; deleted: true }> {
  if (!(await deleteSubscription(agentId, id))) throw notFound(id);
  return { id, deleted: true };
}

/// <reference lib="dom" />
// The webhook view: the agent's subscriptions with their delivery health, a subscription's deliveries,
// one delivery with its attempts and the exact payload that was signed, and a manual retry.
import { api, type Page } from './api.ts';
import { $, addRow, button, cell, input, say } from './dom.ts';
import { counted, formatDuration, humanSize } from './format.ts';

interface Subscription {
  id: string;
  url: string;
  events: string[];
  active: boolean;
  /** When its deliveries began to fail (null while they succeed); 5 days of failures disable it. */
  failingSince?: string | null;
  disabledReason?: string | null;
}
interface Attempt {
  at: string;
  statusCode: number | null;
  error: string | null;
  durationMs: number;
  responseBody: string | null;
  manual: boolean;
}
interface Delivery {
  deliveryId: string;
  eventType: string;
  status: 'pending' | 'delivered' | 'failed';
  attempts: Attempt[];
  nextAttemptAt: string | null;
  createdAt: string;
  payload?: string;
}

// view grows whenever the user opens another subscription or delivery: an answer for an older view is dropped.
const state: { subscription: Subscription | null; delivery: Delivery | null; view: number } = { subscription: null, delivery: null, view: 0 };

const failed = (error: unknown) => say((error as Error).message, true);

/** Active, failing, or disabled by the marketplace for its failures (PATCH active: true turns it back on). */
function subscriptionState(subscription: Subscription): string {
  if (subscription.active) return subscription.failingSince ? `active, failing since ${subscription.failingSince}` : 'active';
  if (subscription.disabledReason === 'deliveries-failing') return `disabled: every delivery failed since ${subscription.failingSince ?? '?'} (PATCH active: true turns it back on)`;
  return 'inactive';
}

export async function loadSubscriptions(): Promise<void> {
  say('Loading subscriptions…');
  const page = await api<Page<Subscription>>('GET', '/v1/webhooks?limit=100');
  const body = $('subscriptions');
  body.replaceChildren();
  for (const subscription of page.items) {
    const deliveries = await api<Page<Delivery>>('GET', `/v1/webhooks/${subscription.id}/deliveries?limit=100`);
    const counts = { delivered: 0, pending: 0, failed: 0 };
    for (const delivery of deliveries.items) counts[delivery.status] += 1;
    const row = document.createElement('tr');
    cell(row, subscription.url, 'url');
    cell(row, subscription.events.join(', '));
    cell(row, subscriptionState(subscription));
    const health = cell(row, `${counts.delivered} delivered, ${counts.pending} pending, ${counts.failed} failed`, counts.failed > 0 ? 'status-failed' : 'status-delivered');
    health.setAttribute('data-failed', String(counts.failed));
    const actions = document.createElement('td');
    actions.appendChild(button('Deliveries', () => void openSubscription(subscription).catch(failed), true));
    row.appendChild(actions);
    addRow(body, row);
  }
  $('no-subscriptions').hidden = page.items.length > 0;
  say(`${counted(page.items.length, 'subscription', 'subscriptions')}.`);
}

function closeDelivery(): void {
  state.delivery = null;
  $('delivery-panel').hidden = true;
  $('delivery-title').textContent = 'Delivery';
  $('delivery-status').textContent = '';
  $('attempts').replaceChildren();
  $('payload').textContent = '';
  $('payload-size').textContent = '';
  $('payload-formatted').textContent = '';
}

/** Forgets everything shown for the agent that signed in. */
export function clearDeliveries(): void {
  state.subscription = null;
  state.view += 1;
  closeDelivery();
  $('deliveries').replaceChildren();
  $('deliveries-panel').hidden = true;
  $('subscriptions').replaceChildren();
}

async function openSubscription(subscription: Subscription): Promise<void> {
  state.subscription = subscription;
  state.view += 1;
  closeDelivery();
  $('deliveries').replaceChildren();
  $('deliveries-panel').hidden = false;
  $('deliveries-title').textContent = `Deliveries to ${subscription.url}`;
  await loadDeliveries();
  $('filter').focus();
}

async function loadDeliveries(): Promise<void> {
  const filter = input('filter').value;
  const subscription = state.subscription;
  if (!subscription) return;
  const query = `?limit=100${filter ? `&status=${filter}` : ''}`;
  const page = await api<Page<Delivery>>('GET', `/v1/webhooks/${subscription.id}/deliveries${query}`);
  if (state.subscription !== subscription || input('filter').value !== filter) return;
  const body = $('deliveries');
  body.replaceChildren();
  for (const delivery of page.items) {
    const row = document.createElement('tr');
    cell(row, delivery.eventType);
    cell(row, new Date(delivery.createdAt).toLocaleString());
    cell(row, delivery.status, `status-${delivery.status}`);
    cell(row, String(delivery.attempts.length));
    const last = delivery.attempts[delivery.attempts.length - 1];
    cell(row, last ? `${last.error ?? 'OK'}${last.statusCode ? ` (${last.statusCode})` : ''}` : '–', 'long');
    const actions = document.createElement('td');
    actions.appendChild(button('Open', () => void openDelivery(delivery.deliveryId).catch(failed), true));
    row.appendChild(actions);
    addRow(body, row);
  }
  $('no-deliveries').hidden = page.items.length > 0;
  say(`${counted(page.items.length, 'delivery', 'deliveries')}${filter ? ` ${filter}` : ''}.`);
}

async function openDelivery(deliveryId: string): Promise<void> {
  const view = ++state.view;
  const subscription = state.subscription;
  if (!subscription) return;
  const delivery = await api<Delivery>('GET', `/v1/webhooks/${subscription.id}/deliveries/${deliveryId}`);
  if (state.view !== view) return;
  showDelivery(delivery);
  $('delivery-title').focus();
}

function showDelivery(delivery: Delivery): void {
  state.delivery = delivery;
  $('delivery-panel').hidden = false;
  $('delivery-title').textContent = `${delivery.eventType} — ${delivery.deliveryId}`;
  const status = $('delivery-status');
  status.textContent = delivery.status + (delivery.nextAttemptAt ? `, next attempt ${new Date(delivery.nextAttemptAt).toLocaleString()}` : '');
  status.className = `status-${delivery.status}`;
  const body = $('attempts');
  body.replaceChildren();
  for (const attempt of delivery.attempts) {
    const row = document.createElement('tr');
    cell(row, new Date(attempt.at).toLocaleString());
    cell(row, attempt.statusCode === null ? '–' : String(attempt.statusCode));
    cell(row, attempt.error ?? 'OK', attempt.error ? 'status-failed' : 'status-delivered');
    cell(row, formatDuration(attempt.durationMs));
    cell(row, attempt.manual ? 'manual' : 'scheduled');
    cell(row, attempt.responseBody ?? '', 'long');
    addRow(body, row);
  }
  // The exact text that was signed: re-indenting it would give bytes whose signature does not verify.
  const payload = delivery.payload ?? '';
  $('payload').textContent = payload;
  $('payload-size').textContent = humanSize(new TextEncoder().encode(payload).length);
  let formatted = '';
  try {
    formatted = JSON.stringify(JSON.parse(payload), null, 2);
  } catch {
    // Not JSON: only the exact text.
  }
  $('payload-formatted').textContent = formatted;
  $('payload-formatted-panel').hidden = formatted === '';
  ($('retry') as HTMLButtonElement).disabled = delivery.status === 'pending';
}

async function retry(): Promise<void> {
  const { delivery, subscription, view } = state;
  if (!delivery || !subscription) return;
  const path = `/v1/webhooks/${subscription.id}/deliveries/${delivery.deliveryId}`;
  const retryButton = $('retry') as HTMLButtonElement;
  retryButton.disabled = true;
  try {
    await api('POST', `${path}/retry`);
    say('Retry queued…');
    let current = delivery;
    for (let i = 0; i < 60; i++) {
      await new Promise((resolve) => setTimeout(resolve, 500));
      current = await api<Delivery>('GET', path);
      if (current.status !== 'pending' || state.view !== view) break;
    }
    // The user may have opened something else meanwhile: then only the status line tells the outcome.
    if (state.view === view) {
      showDelivery(current);
      await loadDeliveries();
    }
    await loadSubscriptions();
    say(`Retried: the delivery is ${current.status}.`);
  } catch (error) {
    say(`Retry failed: ${(error as Error).message}`, true);
    if (state.view === view) retryButton.disabled = false;
  }
}

export function setUpDeliveries(): void {
  $('filter').addEventListener('change', () => void loadDeliveries().catch(failed));
  $('refresh').addEventListener('click', () => void loadSubscriptions().catch(failed));
  $('retry').addEventListener('click', () => void retry());
}

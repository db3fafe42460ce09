// Worker `webhookSweep`, every minute: catches what the prompt paths missed. Events still in the
// outbox a while after they happened (a stream hiccup) are fanned out; pending deliveries whose
// attempt is overdue (a queue message or retry schedule that was lost) are queued again.
import { config } from '../../shared/config.ts';
import { listOverdueDeliveries } from '../../shared/data/deliveries.ts';
import { listPendingEvents } from '../../shared/data/events.ts';
import { fanOut, requeueOverdue } from '../../shared/domain/webhook-fan-out.ts';
import { logger } from '../../shared/logger.ts';
import { workerHandler } from '../../shared/powertools.ts';

config(); // fail fast at cold start

/** The stream normally delivers an event within a second or two: the sweep leaves it that long. */
const OUTBOX_GRACE_MS = 10_000;
/** A queued attempt is normally made within seconds of its time; past this, its message or schedule was lost. */
const DELIVERY_GRACE_MS = 15_000;

export const handler = workerHandler(async (_event: unknown): Promise<void> => {
  const now = new Date();
  const pending = await listPendingEvents(100);
  // Left in the outbox, so this repeats every minute until someone repairs or removes the item.
  for (const item of pending.unreadable) logger.error('An outbox item is not a valid event; it cannot be delivered', item);
  const stale = pending.events.filter((event) => Date.parse(event.occurredAt) < now.getTime() - OUTBOX_GRACE_MS);
  const fannedOut = stale.length > 0 ? await fanOut(stale, now) : 0;
  const requeued = await requeueOverdue(await listOverdueDeliveries(new Date(now.getTime() - DELIVERY_GRACE_MS), 100));
  if (stale.length > 0 || requeued > 0) logger.info('Webhook sweep', { events: stale.length, deliveries: fannedOut, requeued });
});

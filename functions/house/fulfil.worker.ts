// Worker `houseFulfilment` (sandbox only), every minute (locally every few seconds): the house seller
// ships its confirmed orders and delivers its shipped ones when their time has come, as the stage's
// settings schedule it (HOUSE_SHIP_AFTER_SECONDS, HOUSE_DELIVER_AFTER_SECONDS).
import { config } from '../../shared/config.ts';
import { listDueFulfilment } from '../../shared/data/house-work.ts';
import { fulfilHouseOrder } from '../../shared/domain/house-agents.ts';
import { logger } from '../../shared/logger.ts';
import { workerHandler } from '../../shared/powertools.ts';

config(); // fail fast at cold start

/** Orders per page of the due-work index; the sweep reads pages until none is due. */
const PAGE = 50;

export const handler = workerHandler(async (_event: unknown): Promise<void> => {
  const moved = { shipped: 0, delivered: 0, done: 0 };
  for (;;) {
    const now = new Date();
    const due = await listDueFulfilment(now, PAGE);
    for (const outcome of await Promise.all(due.map((work) => fulfilHouseOrder(work.orderId, now)))) moved[outcome] += 1;
    if (due.length < PAGE) break;
  }
  if (moved.shipped + moved.delivered > 0) logger.info('House orders moved on', moved);
});

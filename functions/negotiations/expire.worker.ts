// Worker `negotiationExpiry`, every minute: open sessions past their expiresAt are recorded as expired,
// each with its negotiation.rejected event (reason `expired`). Reads already show them expired from
// the instant they expire; this makes the event happen without anyone reading.
import { config } from '../../shared/config.ts';
import { listExpiredOpenNegotiations } from '../../shared/data/negotiations.ts';
import { expireNegotiation } from '../../shared/domain/negotiations.ts';
import { logger } from '../../shared/logger.ts';
import { workerHandler } from '../../shared/powertools.ts';

config(); // fail fast at cold start

/** Sessions per page of the expiry index; the sweep reads pages until none is left. */
const PAGE = 100;

export const handler = workerHandler(async (_event: unknown): Promise<void> => {
  let expired = 0;
  for (;;) {
    const now = new Date();
    const due = await listExpiredOpenNegotiations(now, PAGE);
    const results = await Promise.all(due.map((session) => expireNegotiation(session, now)));
    expired += results.filter(Boolean).length;
    if (due.length < PAGE) break;
  }
  if (expired > 0) logger.info('Negotiations expired', { expired });
});

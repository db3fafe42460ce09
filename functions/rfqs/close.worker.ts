// Worker `rfqClosing`, every minute: open requests for quotes past closesAt become `closed`, each with
// rfq.closed to its buyer — once, under the RFQ's version condition, whichever run or request gets there
// first (an award or a cancel racing it wins or loses as a whole). It also sends on the dispatch work
// the stream did not (finding sellers, telling them it closed).
import { config } from '../../shared/config.ts';
import { closeRfq, dispatchRfq, listRfqsDueForDispatch, listRfqsDueToClose } from '../../shared/domain/rfqs.ts';
import { logger } from '../../shared/logger.ts';

config(); // fail fast at cold start

/** RFQs per page of the due-work indexes; the sweep reads pages until none is left. */
const PAGE = 100;

/** Dispatch work younger than this is the stream's: the sweep leaves it alone. */
const STREAM_GRACE_MS = 30_000;

export async function handler(): Promise<void> {
  let closed = 0;
  for (;;) {
    const now = new Date();
    const due = await listRfqsDueToClose(now, PAGE);
    const results = await Promise.all(due.map((rfq) => closeRfq(rfq, now)));
    closed += results.filter(Boolean).length;
    if (due.length < PAGE) break;
  }
  const pending = await listRfqsDueForDispatch(PAGE);
  const stale = pending.filter((rfq) => Date.now() - Date.parse(rfq.updatedAt) > STREAM_GRACE_MS);
  for (const rfq of stale) await dispatchRfq(rfq.rfqId, new Date());
  if (closed > 0 || stale.length > 0) logger.info('Requests for quotes swept', { closed, dispatched: stale.length });
}

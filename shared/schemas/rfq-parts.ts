// The statuses of requests for quotes and their quotes (contract §5.7): the parts that events and the
// state machines (shared/domain/rfq-states.ts) share, kept small because every function recording an event bundles them.

export const RFQ_STATUSES = ['open', 'closed', 'awarded', 'cancelled'] as const;
export type RfqStatus = (typeof RFQ_STATUSES)[number];

export const QUOTE_STATUSES = ['submitted', 'accepted', 'declined', 'expired'] as const;
export type QuoteStatus = (typeof QUOTE_STATUSES)[number];

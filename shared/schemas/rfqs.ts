// Requests for quotes (contract §5.7): a buyer puts one need to many sellers, each seller answers with
// one sealed quote, the buyer awards one. Unit prices are integers in the minor unit of the RFQ's currency.
import * as z from './zod.ts';
import { idPattern } from '../ids.ts';
import { Category, CATEGORY_MAX_LENGTH, CATEGORY_PATTERN, Unit } from './catalog.ts';
import { CountryCode, PaginationQuery, TEXT_PATTERN_MULTI_LINE, TEXT_PATTERN_SINGLE_LINE, Timestamp, bounded, boundedInt, idOf, idParam, text } from './common.ts';
import { CurrencyCode, MAX_AMOUNT, Money } from './money.ts';
import { QUOTE_STATUSES, RFQ_STATUSES } from './rfq-parts.ts';

export const MAX_RFQ_KEYWORDS = 20;
export const MAX_INVITED_SELLERS = 100;
export const MAX_RFQ_SHIPS_FROM = 20;
export const MAX_LEAD_TIME_DAYS = 365;
/** The most sellers one RFQ reaches (the first matching ones by id), so the most quotes it can hold. */
export const MAX_RFQ_SELLERS = 10_000;

export const RfqStatus = z.annotated(z.enum(RFQ_STATUSES), { id: 'RfqStatus', description: '`open` (taking quotes) → `closed` (at closesAt; still awardable) | `awarded` | `cancelled`' });
export const QuoteStatus = z.annotated(z.enum(QUOTE_STATUSES), { id: 'QuoteStatus', description: '`submitted` → `accepted` (awarded) | `declined` (another won, or the RFQ was cancelled) | `expired` (past validUntil)' });

const Quantity = z.int('Must be a whole number of units').check(z.gte(1, 'Must be at least 1'), z.lte(1_000_000_000, 'Must be at most 1000000000'));
const UnitPrice = z.int('Must be an integer amount in the minor unit of the currency (cents for USD)').check(
  z.gte(1, 'Must be at least 1 (minor units)'),
  z.lte(MAX_AMOUNT, `Must be at most ${MAX_AMOUNT}`),
);
const Keyword = text({ min: 1, max: 50 });
const ISO_DATE = /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/;
const DateOnly = z.annotated(
  z.string().check(z.regex(ISO_DATE, 'Must be a date as YYYY-MM-DD'), z.refine((value) => !Number.isNaN(Date.parse(`${value}T00:00:00Z`)) && new Date(`${value}T00:00:00Z`).toISOString().startsWith(value), 'Must be a real calendar date')),
  { maxLength: 10, example: '2027-01-15', format: 'date' },
);
const RequestTimestamp = z.annotated(z.iso.datetime({ offset: true, error: 'Must be an ISO 8601 date-time such as 2026-12-01T12:00:00Z' }), { maxLength: 40, example: '2026-12-01T12:00:00.000Z' });

export const CreateRfqRequest = z.annotated(z.strictObject({
  title: text({ min: 1, max: 200 }),
  description: z.optional(text({ max: 4000, multiline: true })),
  category: z.annotated(z.optional(Category), { description: 'Sellers with active products in it or below it match' }),
  keywords: z.annotated(z.optional(z.array(Keyword).check(z.minLength(1), z.maxLength(MAX_RFQ_KEYWORDS))), { maxItems: MAX_RFQ_KEYWORDS, description: 'Words a matching product holds (all of them); default: the title’s words' }),
  quantity: z.withMeta(Quantity, { description: 'Units needed' }),
  unit: z.optional(Unit),
  currency: z.withMeta(CurrencyCode, { description: 'Every quote is in it: sellers with offers in this currency match' }),
  maxUnitPrice: z.annotated(z.optional(UnitPrice), { description: 'The most the buyer pays per unit, minor units of `currency`: a quote above it is refused' }),
  shipsFrom: z.annotated(z.optional(z.array(CountryCode).check(z.minLength(1), z.maxLength(MAX_RFQ_SHIPS_FROM))), { maxItems: MAX_RFQ_SHIPS_FROM, description: 'Only sellers with products shipping from one of these countries' }),
  deliverBy: z.annotated(z.optional(DateOnly), { description: 'When the goods are needed (a date)' }),
  shipTo: z.annotated(z.optional(CountryCode), { description: 'Where the goods go' }),
  closesAt: z.withMeta(RequestTimestamp, { description: 'When quoting ends: 1 hour to 14 days ahead' }),
  sellerIds: z.annotated(z.optional(z.array(z.string().check(z.regex(idPattern('agent'), 'Must be a seller’s agent id (agt_…)'))).check(z.minLength(1), z.maxLength(MAX_INVITED_SELLERS))), {
    maxItems: MAX_INVITED_SELLERS,
    description: 'Invite only these sellers: no matching, each receives it',
}),
}), { id: 'CreateRfqRequest' });
export type CreateRfqRequest = z.infer<typeof CreateRfqRequest>;

export const Quote = z.annotated(z.object({
  quoteId: idOf('quote', { description: 'Award it with POST /v1/rfqs/{id}/award' }),
  rfqId: idOf('rfq'),
  sellerId: idOf('agent'),
  offerId: idOf('offer', { description: 'The seller’s offer the quote sells' }),
  productId: idOf('product'),
  status: QuoteStatus,
  currency: bounded(3, { pattern: '^[A-Z]{3}$', description: 'The RFQ’s currency', example: 'EUR' }),
  unitPrice: boundedInt(1, MAX_AMOUNT, { description: 'Minor units of `currency`' }),
  quantity: boundedInt(1, 1_000_000_000),
  totalAmount: Money,
  leadTimeDays: boundedInt(0, MAX_LEAD_TIME_DAYS),
  validUntil: z.withMeta(Timestamp, { description: 'The buyer can award it until then' }),
  message: z.nullable(bounded(2000, { pattern: TEXT_PATTERN_MULTI_LINE })),
  revision: boundedInt(1, 1_000_000, { description: '1, then one more each time the seller replaces it' }),
  createdAt: Timestamp,
  updatedAt: Timestamp,
}), { id: 'Quote' });
export type Quote = z.infer<typeof Quote>;

export const Rfq = z.annotated(z.object({
  rfqId: idOf('rfq'),
  buyerId: idOf('agent'),
  status: RfqStatus,
  title: bounded(200, { pattern: TEXT_PATTERN_SINGLE_LINE }),
  description: z.nullable(bounded(4000, { pattern: TEXT_PATTERN_MULTI_LINE })),
  category: z.nullable(bounded(CATEGORY_MAX_LENGTH, { pattern: CATEGORY_PATTERN.source })),
  keywords: z.annotated(z.array(bounded(50, { pattern: TEXT_PATTERN_SINGLE_LINE })), { maxItems: MAX_RFQ_KEYWORDS }),
  quantity: boundedInt(1, 1_000_000_000),
  unit: z.nullable(bounded(20, { pattern: '^[a-z][a-z0-9-]{0,19}$' })),
  currency: bounded(3, { pattern: '^[A-Z]{3}$', example: 'EUR' }),
  maxUnitPrice: z.annotated(z.nullable(boundedInt(1, MAX_AMOUNT)), { description: 'Minor units of `currency`; null: no cap' }),
  shipsFrom: z.annotated(z.array(bounded(2, { pattern: '^[A-Z]{2}$' })), { maxItems: MAX_RFQ_SHIPS_FROM }),
  deliverBy: z.nullable(bounded(10, { format: 'date' })),
  shipTo: z.nullable(bounded(2, { pattern: '^[A-Z]{2}$' })),
  closesAt: Timestamp,
  invitedSellerIds: z.annotated(z.optional(z.array(idOf('agent'))), { maxItems: MAX_INVITED_SELLERS, description: 'The buyer’s view only: the sellers it invited (empty: matched)' }),
  sellerCount: z.annotated(z.optional(z.nullable(boundedInt(0, 1_000_000))), { description: 'The buyer’s view only: sellers it was sent to; null while they are being found' }),
  quotes: z.annotated(z.optional(z.array(Quote)), {
    maxItems: MAX_RFQ_SELLERS,
    description: 'On a single RFQ (not in lists). The buyer: every quote, best first (valid ones, then by unit price, lead time, arrival). A seller: its own only' }),
  awardedQuoteId: z.annotated(z.nullable(idOf('quote')), { description: 'A seller sees it only when it is its own quote' }),
  sessionId: z.annotated(z.nullable(idOf('negotiation')), { description: 'The accepted negotiation session the award created: POST /v1/create-order with it' }),
  cancellationReason: z.nullable(bounded(500, { pattern: TEXT_PATTERN_SINGLE_LINE })),
  closedAt: z.nullable(Timestamp),
  createdAt: Timestamp,
  updatedAt: Timestamp,
}), { id: 'Rfq' });
export type Rfq = z.infer<typeof Rfq>;

export const SubmitQuoteRequest = z.annotated(z.strictObject({
  offerId: z.annotated(z.optional(z.string().check(z.regex(idPattern('offer'), 'Must be an offer id (ofr_…)'))), {
    maxLength: 30,
    description: 'Your offer the quote sells (its currency must be the RFQ’s); default: your active offer that best matches the request',
}),
  unitPrice: z.withMeta(UnitPrice, { description: 'Minor units of the RFQ’s currency; at most its maxUnitPrice', example: 1100 }),
  quantity: z.withMeta(Quantity, { description: 'Units you quote for; at most your product’s available quantity' }),
  leadTimeDays: z.annotated(z.int('Must be a whole number of days').check(z.gte(0, 'Must be at least 0'), z.lte(MAX_LEAD_TIME_DAYS, `Must be at most ${MAX_LEAD_TIME_DAYS}`)), { example: 5 }),
  validUntil: z.withMeta(RequestTimestamp, { description: 'Until when the buyer can award it (in the future)' }),
  message: z.optional(text({ max: 2000, multiline: true })),
}), { id: 'SubmitQuoteRequest' });
export type SubmitQuoteRequest = z.infer<typeof SubmitQuoteRequest>;

export const AwardRfqRequest = z.annotated(z.strictObject({
  quoteId: z.annotated(z.string().check(z.regex(idPattern('quote'), 'Must be a quote id (qte_…)')), { maxLength: 30, description: 'From the RFQ’s `quotes`' }),
}), { id: 'AwardRfqRequest' });

export const CancelRfqRequest = z.annotated(z.strictObject({
  reason: z.optional(text({ max: 500 })),
}), { id: 'CancelRfqRequest' });

export const RfqIdParams = z.strictObject({ id: idParam(idPattern('rfq'), 'a request for quotes id (rfq_…)', 'rfq_01M83TM3YQ5F0V7D9H2J4K6N8P') });

export const ListRfqsQuery = z.extend(PaginationQuery, {
  status: z.annotated(z.optional(RfqStatus), { description: 'A seller: default open (the RFQs it may quote on). A buyer: default every status' }),
});

// Request bodies of the sandbox's test helpers (contract §5.3; POST /v1/test-helpers/…, test stage and
// the local runtime only): a house buyer's negotiation or order on the caller's own offer, an order of
// the house seller moved on, a sample event of a type.
import * as z from './zod.ts';
import { idPattern } from '../ids.ts';
import { NegotiationStrategy } from './catalog.ts';
import { EVENT_TYPES } from './event-data.ts';
import { Quantity, UnitPrice } from './trade.ts';

const OfferId = z.annotated(z.string().check(z.regex(idPattern('offer'), 'Must be an offer id (ofr_…) of one of your own offers')), {
  maxLength: 30,
  description: 'One of the caller’s own offers (`GET /v1/seller/products`: `items[].offers[].offerId`)',
});

export const HouseNegotiationRequest = z.annotated(z.strictObject({
  offerId: OfferId,
  quantity: z.annotated(z.optional(Quantity), { description: 'Default: the offer’s minimum quantity' }),
  unitPrice: z.annotated(z.optional(UnitPrice), { description: 'The house buyer’s opening unit price; default: 80 % of the offer’s price for the quantity' }),
  strategy: z.annotated(z.optional(NegotiationStrategy), {
    description: 'How the house buyer answers your counters: `linear` (default), `boulware` (holds out), `conceder` (gives in early), `firm` (never moves; walks away at the end)',
  }),
}), { id: 'HouseNegotiationRequest' });

export const HouseOrderRequest = z.annotated(z.strictObject({
  offerId: OfferId,
  quantity: z.annotated(Quantity, { description: 'Units to order, within the offer’s minimum and its stock' }),
}), { id: 'HouseOrderRequest' });

export const ADVANCE_TARGETS = ['confirmed', 'shipped', 'delivered'] as const;

export const AdvanceOrderRequest = z.annotated(z.strictObject({
  to: z.annotated(z.enum(ADVANCE_TARGETS, { error: 'Must be confirmed, shipped or delivered' }), { description: 'The status to move the order to, through every status before it' }),
}), { id: 'AdvanceOrderRequest' });

export const TriggerEventRequest = z.annotated(z.strictObject({
  type: z.annotated(z.enum(EVENT_TYPES, { error: `Must be an event type: ${EVENT_TYPES.join(', ')}` }), { description: 'The event type (names and aliases)' }),
}), { id: 'TriggerEventRequest' });

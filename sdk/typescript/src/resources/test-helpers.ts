// The sandbox's test helpers (a sandbox stack or `npm start` only; a production stack answers 404):
// the house counterparties act on demand, orders and negotiations move on now, sample events fire.
import { path, type RequestOptions, type WithResponse } from '../http.ts';
import type { RequestBody, ResponseData } from '../types.ts';
import { Resource } from './resource.ts';

export class TestHelpers extends Resource {
  /** Sellers: a house buyer opens a negotiation on one of your offers and answers your counters by its `strategy`. */
  negotiate(body: RequestBody<'negotiateWithHouseBuyer'>, options?: RequestOptions): Promise<WithResponse<ResponseData<'negotiateWithHouseBuyer'>>> {
    return this.http.call({ method: 'POST', path: path`/v1/test-helpers/negotiations`, body: { json: body }, options });
  }

  /** Sellers: a house buyer orders `quantity` of one of your offers at its price; the order is yours to fulfil. */
  order(body: RequestBody<'orderFromHouseBuyer'>, options?: RequestOptions): Promise<WithResponse<ResponseData<'orderFromHouseBuyer'>>> {
    return this.http.call({ method: 'POST', path: path`/v1/test-helpers/orders`, body: { json: body }, options });
  }

  /** Buyers: your order from the house seller moves to `to` now, through every status before it, with its events. */
  advanceOrder(orderId: string, to: RequestBody<'advanceHouseOrder'>['to'], options?: RequestOptions): Promise<WithResponse<ResponseData<'advanceHouseOrder'>>> {
    return this.http.call({ method: 'POST', path: path`/v1/test-helpers/orders/${orderId}/advance`, body: { json: { to } }, options });
  }

  /** Your open negotiation times out now (`negotiation.rejected`, reason `expired`). */
  expireNegotiation(sessionId: string, options?: RequestOptions): Promise<WithResponse<ResponseData<'expireTestNegotiation'>>> {
    return this.http.call({ method: 'POST', path: path`/v1/test-helpers/negotiations/${sessionId}/expire`, options });
  }

  /** The main key: your order awaiting approval is declined now (`approval_expired`). */
  expireApproval(orderId: string, options?: RequestOptions): Promise<WithResponse<ResponseData<'expireTestApproval'>>> {
    return this.http.call({ method: 'POST', path: path`/v1/test-helpers/orders/${orderId}/expire-approval`, options });
  }

  /** A sample event of `type` to your webhooks and events feed (`data.sample: true`, ids of no real records). */
  triggerEvent(type: RequestBody<'triggerSampleEvent'>['type'], options?: RequestOptions): Promise<WithResponse<ResponseData<'triggerSampleEvent'>>> {
    return this.http.call({ method: 'POST', path: path`/v1/test-helpers/events`, body: { json: { type } }, options });
  }
}

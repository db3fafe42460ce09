// Orders: placed from an accepted session, then confirmed, shipped and delivered by the seller and
// completed by the buyer; cancelled by either party before shipping. Every change is audited.
import { path, type RequestOptions, type WithResponse } from '../http.ts';
import { PagePromise } from '../pagination.ts';
import type { Order, OrderPreview, QueryParams, RequestBody, ResponseData } from '../types.ts';
import { Resource } from './resource.ts';

type CreateOrderBody = Omit<RequestBody<'createOrder'>, 'dryRun'>;

export class Orders extends Resource {
  /**
   * Orders an accepted session (buyers): stock is taken, the session marked ordered and the key's spend
   * counted, atomically. With a restricted key: over a limit, SpendingLimitError (nothing written);
   * over its `approvalAbove`, the order is `awaiting_approval` until the main key approves it.
   */
  create(body: CreateOrderBody, options?: RequestOptions): Promise<WithResponse<Order>> {
    return this.http.call({ method: 'POST', path: path`/v1/create-order`, body: { json: body }, options });
  }

  /**
   * The order as `create` would place it (`pending` or `awaiting_approval`) and what is left of the
   * key's limits, or the error `create` would throw; nothing is written (`dryRun: true`).
   */
  preview(body: CreateOrderBody, options?: RequestOptions): Promise<WithResponse<OrderPreview>> {
    return this.http.call({ method: 'POST', path: path`/v1/create-order`, body: { json: { ...body, dryRun: true } }, options });
  }

  /** The main key approves an order awaiting approval: it becomes `pending` and the seller gets it. */
  approve(id: string, options?: RequestOptions): Promise<WithResponse<ResponseData<'approveOrder'>>> {
    return this.http.call({ method: 'POST', path: path`/v1/orders/${id}/approve`, options });
  }

  /** The main key declines an order awaiting approval: stock and spend are released. */
  decline(id: string, body?: RequestBody<'declineOrder'>, options?: RequestOptions): Promise<WithResponse<ResponseData<'declineOrder'>>> {
    return this.http.call({ method: 'POST', path: path`/v1/orders/${id}/decline`, body: body === undefined ? undefined : { json: body }, options });
  }

  /** The caller's orders, newest first (`status`, `role` to filter). */
  list(query: QueryParams<'listOrders'> = {}, options?: RequestOptions): PagePromise<ResponseData<'listOrders'>> {
    return new PagePromise((cursor) => this.http.call({ method: 'GET', path: path`/v1/orders`, query: { ...query, cursor: cursor ?? query.cursor }, options }));
  }

  get(id: string, options?: RequestOptions): Promise<WithResponse<ResponseData<'getOrder'>>> {
    return this.http.call({ method: 'GET', path: path`/v1/orders/${id}`, options });
  }

  /** The order's audit trail, oldest first. */
  audit(id: string, query: QueryParams<'getOrderAudit'> = {}, options?: RequestOptions): PagePromise<ResponseData<'getOrderAudit'>> {
    return new PagePromise((cursor) => this.http.call({ method: 'GET', path: path`/v1/orders/${id}/audit`, query: { ...query, cursor: cursor ?? query.cursor }, options }));
  }

  /** Cancels a pending or confirmed order (either party); the quantity goes back to stock. */
  cancel(id: string, body?: RequestBody<'cancelOrder'>, options?: RequestOptions): Promise<WithResponse<ResponseData<'cancelOrder'>>> {
    return this.http.call({ method: 'POST', path: path`/v1/orders/${id}/cancel`, body: body === undefined ? undefined : { json: body }, options });
  }

  /** The seller confirms a pending order. */
  confirm(id: string, options?: RequestOptions): Promise<WithResponse<ResponseData<'confirmOrder'>>> {
    return this.http.call({ method: 'POST', path: path`/v1/orders/${id}/confirm`, options });
  }

  /** The seller ships a confirmed order, with carrier and tracking number. */
  ship(id: string, body: RequestBody<'shipOrder'>, options?: RequestOptions): Promise<WithResponse<ResponseData<'shipOrder'>>> {
    return this.http.call({ method: 'POST', path: path`/v1/orders/${id}/ship`, body: { json: body }, options });
  }

  /** The seller marks a shipped order delivered. */
  deliver(id: string, options?: RequestOptions): Promise<WithResponse<ResponseData<'deliverOrder'>>> {
    return this.http.call({ method: 'POST', path: path`/v1/orders/${id}/deliver`, options });
  }

  /** The buyer completes a delivered order. */
  complete(id: string, options?: RequestOptions): Promise<WithResponse<ResponseData<'completeOrder'>>> {
    return this.http.call({ method: 'POST', path: path`/v1/orders/${id}/complete`, options });
  }
}

// Webhook subscriptions, their delivery log (with manual retry) and test events.
import { path, type RequestOptions, type WithResponse } from '../http.ts';
import { PagePromise } from '../pagination.ts';
import type { QueryParams, RequestBody, ResponseData } from '../types.ts';
import { Resource } from './resource.ts';

export class WebhookDeliveries extends Resource {
  /** The subscription's deliveries, newest first, each with its attempts (`status` to filter). */
  list(webhookId: string, query: QueryParams<'listWebhookDeliveries'> = {}, options?: RequestOptions): PagePromise<ResponseData<'listWebhookDeliveries'>> {
    return new PagePromise((cursor) =>
      this.http.call({ method: 'GET', path: path`/v1/webhooks/${webhookId}/deliveries`, query: { ...query, cursor: cursor ?? query.cursor }, options }),
    );
  }

  /** One delivery with the exact payload that was sent. */
  get(webhookId: string, deliveryId: string, options?: RequestOptions): Promise<WithResponse<ResponseData<'getWebhookDelivery'>>> {
    return this.http.call({ method: 'GET', path: path`/v1/webhooks/${webhookId}/deliveries/${deliveryId}`, options });
  }

  /** Sends a delivered or failed delivery again, now (one attempt). */
  retry(webhookId: string, deliveryId: string, options?: RequestOptions): Promise<WithResponse<ResponseData<'retryWebhookDelivery'>>> {
    return this.http.call({ method: 'POST', path: path`/v1/webhooks/${webhookId}/deliveries/${deliveryId}/retry`, options });
  }
}

export class Webhooks extends Resource {
  readonly deliveries: WebhookDeliveries;

  constructor(...args: ConstructorParameters<typeof Resource>) {
    super(...args);
    this.deliveries = new WebhookDeliveries(...args);
  }

  /** Subscribes a URL to events (`['*']` for all). The secret signs deliveries and is never returned. */
  create(body: RequestBody<'createWebhook'>, options?: RequestOptions): Promise<WithResponse<ResponseData<'createWebhook'>>> {
    return this.http.call({ method: 'POST', path: path`/v1/webhooks`, body: { json: body }, options });
  }

  list(query: QueryParams<'listWebhooks'> = {}, options?: RequestOptions): PagePromise<ResponseData<'listWebhooks'>> {
    return new PagePromise((cursor) => this.http.call({ method: 'GET', path: path`/v1/webhooks`, query: { ...query, cursor: cursor ?? query.cursor }, options }));
  }

  get(id: string, options?: RequestOptions): Promise<WithResponse<ResponseData<'getWebhook'>>> {
    return this.http.call({ method: 'GET', path: path`/v1/webhooks/${id}`, options });
  }

  /** Changes url, events, secret, description (null clears it) or active. */
  update(id: string, body: RequestBody<'updateWebhook'>, options?: RequestOptions): Promise<WithResponse<ResponseData<'updateWebhook'>>> {
    return this.http.call({ method: 'PATCH', path: path`/v1/webhooks/${id}`, body: { json: body }, options });
  }

  /** Removes the subscription; answers `{id, deleted: true}`. */
  delete(id: string, options?: RequestOptions): Promise<WithResponse<ResponseData<'deleteWebhook'>>> {
    return this.http.call({ method: 'DELETE', path: path`/v1/webhooks/${id}`, options });
  }

  /** Sends a `webhook.test` event to the subscription now (one attempt); answers the delivery. */
  test(id: string, options?: RequestOptions): Promise<WithResponse<ResponseData<'testWebhook'>>> {
    return this.http.call({ method: 'POST', path: path`/v1/webhooks/${id}/test`, options });
  }
}

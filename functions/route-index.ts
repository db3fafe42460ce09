// Every route of the API, assembled from the route modules that sit beside their handlers
// (functions/<resource>/<action>.route.ts). Read by the CDK stack, the local gateway, the OpenAPI
// build and docs/endpoints.md — never by a handler (lint forbids it), so that each handler bundles
// only its own route. Add a route: write its .route.ts and handler, then list it here.
import type { RouteDefinition } from '../shared/http/route-table.ts';
import { route as registerAgent } from './agents/register.route.ts';
import { route as getMyAgent } from './agents/get-me.route.ts';
import { route as updateMyAgent } from './agents/update-me.route.ts';
import { route as rotateMyApiKey } from './agents/rotate-key.route.ts';
import { route as routeNotFound } from './fallback/not-found.route.ts';
import { route as health } from './health/get.route.ts';
import { route as getOpenApiDocument } from './openapi/get.route.ts';
import { route as getHome } from './home/get.route.ts';
import { route as getReference } from './docs/get.route.ts';
import { route as getReferenceAsset } from './docs/get-asset.route.ts';
import { route as getLlmsTxt } from './llms/get.route.ts';
import { route as createWebhook } from './webhooks/create.route.ts';
import { route as listWebhooks } from './webhooks/list.route.ts';
import { route as getWebhook } from './webhooks/get.route.ts';
import { route as updateWebhook } from './webhooks/update.route.ts';
import { route as deleteWebhook } from './webhooks/delete.route.ts';
import { route as listWebhookDeliveries } from './webhooks/list-deliveries.route.ts';
import { route as getWebhookDelivery } from './webhooks/get-delivery.route.ts';
import { route as retryWebhookDelivery } from './webhooks/retry-delivery.route.ts';
import { route as testWebhook } from './webhooks/test.route.ts';
import { route as getDashboard } from './dashboard/get.route.ts';
import { route as uploadFeed } from './seller-feeds/create.route.ts';
import { route as listFeeds } from './seller-feeds/list.route.ts';
import { route as getFeed } from './seller-feeds/get.route.ts';
import { route as retryFeed } from './seller-feeds/retry.route.ts';
import { route as deleteFeed } from './seller-feeds/delete.route.ts';
import { route as getCsvFeedTemplate } from './seller-templates/get-csv.route.ts';
import { route as getJsonFeedTemplate } from './seller-templates/get-json.route.ts';
import { route as listSellerProducts } from './seller-products/list.route.ts';
import { route as getProduct } from './products/get.route.ts';
import { route as getOffer } from './offers/get.route.ts';
import { route as search } from './search/run.route.ts';
import { route as searchIntent } from './search-intent/run.route.ts';
import { route as startNegotiation } from './negotiate/start.route.ts';
import { route as counterNegotiation } from './negotiate/counter.route.ts';
import { route as acceptNegotiation } from './negotiate/accept.route.ts';
import { route as rejectNegotiation } from './negotiate/reject.route.ts';
import { route as listNegotiations } from './negotiations/list.route.ts';
import { route as getNegotiation } from './negotiations/get.route.ts';
import { route as createOrder } from './create-order/run.route.ts';
import { route as listOrders } from './orders/list.route.ts';
import { route as getOrder } from './orders/get.route.ts';
import { route as getOrderAudit } from './orders/audit.route.ts';
import { route as cancelOrder } from './orders/cancel.route.ts';
import { route as confirmOrder } from './orders/confirm.route.ts';
import { route as shipOrder } from './orders/ship.route.ts';
import { route as deliverOrder } from './orders/deliver.route.ts';
import { route as completeOrder } from './orders/complete.route.ts';
import { route as listEvents } from './events/list.route.ts';
import { route as getEvent } from './events/get.route.ts';
import { route as postMcpMessage } from './mcp/post.route.ts';
import { route as getMcpStream } from './mcp/get.route.ts';

/** Every route, in the order the docs list them. */
export const routeList: readonly RouteDefinition[] = [
  getHome,
  health,
  getOpenApiDocument,
  getReference,
  getReferenceAsset,
  getLlmsTxt,
  registerAgent,
  getMyAgent,
  updateMyAgent,
  rotateMyApiKey,
  createWebhook,
  listWebhooks,
  getWebhook,
  updateWebhook,
  deleteWebhook,
  listWebhookDeliveries,
  getWebhookDelivery,
  retryWebhookDelivery,
  testWebhook,
  getDashboard,
  uploadFeed,
  listFeeds,
  getFeed,
  retryFeed,
  deleteFeed,
  getCsvFeedTemplate,
  getJsonFeedTemplate,
  listSellerProducts,
  getProduct,
  getOffer,
  searchIntent,
  search,
  startNegotiation,
  counterNegotiation,
  acceptNegotiation,
  rejectNegotiation,
  listNegotiations,
  getNegotiation,
  createOrder,
  listOrders,
  getOrder,
  getOrderAudit,
  cancelOrder,
  confirmOrder,
  shipOrder,
  deliverOrder,
  completeOrder,
  listEvents,
  getEvent,
  postMcpMessage,
  getMcpStream,
];

/** What answers anything no route matches (API Gateway's `$default`). */
export const fallbackRoute: RouteDefinition = routeNotFound;

// Every route of the API, assembled from the route modules that sit beside their handlers
// (functions/<resource>/<action>.route.ts). Read by the CDK stack, the local gateway, the OpenAPI
// build and docs/endpoints.md — never by a handler (lint forbids it), so that each handler bundles
// only its own route. Each module gives its row (`route`) and its document (`routeDocument`: the
// response schema and examples, which no function builds); the index joins them. Add a route: write
// its .route.ts and handler, then list it here.
import { withDocument, type RouteDefinition, type RouteWithDocument } from '../shared/http/route-table.ts';
import * as registerAgent from './agents/register.route.ts';
import * as getMyAgent from './agents/get-me.route.ts';
import * as updateMyAgent from './agents/update-me.route.ts';
import * as rotateMyApiKey from './agents/rotate-key.route.ts';
import * as createApiKey from './agent-keys/create.route.ts';
import * as listApiKeys from './agent-keys/list.route.ts';
import * as getApiKey from './agent-keys/get.route.ts';
import * as updateApiKey from './agent-keys/update.route.ts';
import * as revokeApiKey from './agent-keys/revoke.route.ts';
import * as routeNotFound from './fallback/not-found.route.ts';
import * as health from './health/get.route.ts';
import * as getOpenApiDocument from './openapi/get.route.ts';
import * as getHome from './home/get.route.ts';
import * as getReference from './docs/get.route.ts';
import * as getReferenceAsset from './docs/get-asset.route.ts';
import * as getLlmsTxt from './llms/get.route.ts';
import * as createWebhook from './webhooks/create.route.ts';
import * as listWebhooks from './webhooks/list.route.ts';
import * as getWebhook from './webhooks/get.route.ts';
import * as updateWebhook from './webhooks/update.route.ts';
import * as deleteWebhook from './webhooks/delete.route.ts';
import * as listWebhookDeliveries from './webhooks/list-deliveries.route.ts';
import * as getWebhookDelivery from './webhooks/get-delivery.route.ts';
import * as retryWebhookDelivery from './webhooks/retry-delivery.route.ts';
import * as testWebhook from './webhooks/test.route.ts';
import * as getDashboard from './dashboard/get.route.ts';
import * as uploadFeed from './seller-feeds/create.route.ts';
import * as listFeeds from './seller-feeds/list.route.ts';
import * as getFeed from './seller-feeds/get.route.ts';
import * as retryFeed from './seller-feeds/retry.route.ts';
import * as deleteFeed from './seller-feeds/delete.route.ts';
import * as getCsvFeedTemplate from './seller-templates/get-csv.route.ts';
import * as getJsonFeedTemplate from './seller-templates/get-json.route.ts';
import * as listSellerProducts from './seller-products/list.route.ts';
import * as getProduct from './products/get.route.ts';
import * as getOffer from './offers/get.route.ts';
import * as search from './search/run.route.ts';
import * as searchIntent from './search-intent/run.route.ts';
import * as startNegotiation from './negotiate/start.route.ts';
import * as counterNegotiation from './negotiate/counter.route.ts';
import * as acceptNegotiation from './negotiate/accept.route.ts';
import * as rejectNegotiation from './negotiate/reject.route.ts';
import * as listNegotiations from './negotiations/list.route.ts';
import * as getNegotiation from './negotiations/get.route.ts';
import * as createRfq from './rfqs/create.route.ts';
import * as listRfqs from './rfqs/list.route.ts';
import * as getRfq from './rfqs/get.route.ts';
import * as cancelRfq from './rfqs/cancel.route.ts';
import * as submitQuote from './rfqs/submit-quote.route.ts';
import * as awardRfq from './rfqs/award.route.ts';
import * as createOrder from './create-order/run.route.ts';
import * as listOrders from './orders/list.route.ts';
import * as getOrder from './orders/get.route.ts';
import * as getOrderAudit from './orders/audit.route.ts';
import * as cancelOrder from './orders/cancel.route.ts';
import * as confirmOrder from './orders/confirm.route.ts';
import * as shipOrder from './orders/ship.route.ts';
import * as deliverOrder from './orders/deliver.route.ts';
import * as completeOrder from './orders/complete.route.ts';
import * as approveOrder from './orders/approve.route.ts';
import * as declineOrder from './orders/decline.route.ts';
import * as listEvents from './events/list.route.ts';
import * as getEvent from './events/get.route.ts';
import * as postMcpMessage from './mcp/post.route.ts';
import * as getMcpStream from './mcp/get.route.ts';

/** Every route, in the order the docs list them. */
export const routeList: readonly RouteWithDocument[] = [
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
  createApiKey,
  listApiKeys,
  getApiKey,
  updateApiKey,
  revokeApiKey,
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
  createRfq,
  listRfqs,
  getRfq,
  submitQuote,
  awardRfq,
  cancelRfq,
  createOrder,
  listOrders,
  getOrder,
  getOrderAudit,
  approveOrder,
  declineOrder,
  cancelOrder,
  confirmOrder,
  shipOrder,
  deliverOrder,
  completeOrder,
  listEvents,
  getEvent,
  postMcpMessage,
  getMcpStream,
].map((module) => withDocument<RouteDefinition>(module));

/** What answers anything no route matches (API Gateway's `$default`). */
export const fallbackRoute: RouteWithDocument = withDocument(routeNotFound);

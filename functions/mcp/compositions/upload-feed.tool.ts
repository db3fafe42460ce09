// upload_feed: POST /v1/seller/feeds with the file inline, as `csv` or `products` (./feed-file-arguments.ts):
// a composition, since its arguments are not the route's (docs/decisions/mcp-compositions.md).
import * as uploadFeedModule from '../../seller-feeds/create.route.ts';
import { withDocument } from '../../../shared/http/route-table.ts';
import { change, defineTool, idempotency, type FeedUpload } from '../tool-declaration.ts';
import { dataOf, toolOutput } from '../tool-results.ts';
import { feedFileInput } from './feed-file-arguments.ts';


export const tool = defineTool({
  name: 'upload_feed',
  title: 'Upload a catalog feed',
  description: 'Add or update products: the file inline, as csv (text) or products (JSON rows); each row upserts one product and its offer by sku. Optional negotiation policy per row: floorUnitPrice (never shown to buyers; the policy counters proposals below it) and autoAcceptUnitPrice (proposals at or above it are accepted at once). The feed is processed in the background: it answers queued; call get_feed until status is completed (bad rows listed in errors) or failed (failureReason), or wait for feed.completed with list_events. Files over 5 MiB: upload with the SDK or the REST API instead.',
  routes: [uploadFeedModule.route],
  input: feedFileInput({ required: true }),
  output: toolOutput(() => dataOf(withDocument(uploadFeedModule))),
  annotations: change({ idempotent: false }),
  call: (mk, args) => mk.feeds.upload(args.upload as FeedUpload, idempotency(args)),
});

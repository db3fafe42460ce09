// retry_feed: POST /v1/seller/feeds/{id}/retry, its corrected file (if any) inline as `csv` or
// `products` (./feed-file-arguments.ts): a composition, since its arguments are not the route's
// (docs/decisions/mcp-compositions.md).
import * as retryFeedModule from '../../seller-feeds/retry.route.ts';
import { withDocument } from '../../../shared/http/route-table.ts';
import { change, defineTool, idempotency, type FeedUpload } from '../tool-declaration.ts';
import { dataOf, toolOutput } from '../tool-results.ts';
import { feedFileInput } from './feed-file-arguments.ts';


export const tool = defineTool({
  name: 'retry_feed',
  title: 'Retry a failed feed',
  description: 'Process a failed feed again: without a file, its stored file as it was; with csv or products, a corrected file in its place. Only a failed feed can be retried. Next: get_feed until completed or failed.',
  routes: [retryFeedModule.route],
  input: feedFileInput({ params: retryFeedModule.route.request.params, required: false }),
  output: toolOutput(() => dataOf(withDocument(retryFeedModule))),
  annotations: change({ idempotent: false }),
  call: (mk, args) => mk.feeds.retry(args.id as string, args.upload as FeedUpload | undefined, idempotency(args)),
});

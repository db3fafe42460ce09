// `npm run admin -- rebuild-search-log`: appends every product and offer of the table to the search
// log, so that search recovers what the stream could no longer deliver (changes older than its 24 h,
// a lost or damaged log). Each appended image is the item's current state, which every search instance
// applies as an upsert, so rebuilding a healthy log changes nothing but its length.
// No request path scans the table (docs/data-model.md); this operator command does, in pages, with a
// filter on `entity` — at 100,000 products about 200,000 items, a few minutes of read capacity.
import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient, tableName } from '../shared/data/client.ts';
import { recordCatalogChanges } from '../shared/domain/search-index.ts';

/** Items read per Scan page (each page becomes one or more log entries). */
const PAGE_ITEMS = 500;

export async function rebuildSearchLog(options: { now?: () => Date; progress?: (appended: number) => void } = {}): Promise<{ items: number; lastSeq: number }> {
  const now = options.now ?? (() => new Date());
  let items = 0;
  let lastSeq = 0;
  let startKey: Record<string, unknown> | undefined;
  do {
    const page = await documentClient.send(
      new ScanCommand({
        TableName: tableName(),
        FilterExpression: '#entity IN (:product, :offer)',
        ExpressionAttributeNames: { '#entity': 'entity' },
        ExpressionAttributeValues: { ':product': 'product', ':offer': 'offer' },
        Limit: PAGE_ITEMS,
        ExclusiveStartKey: startKey,
      }),
    );
    const found = page.Items ?? [];
    if (found.length > 0) {
      lastSeq = (await recordCatalogChanges(found, now())) || lastSeq;
      items += found.length;
      options.progress?.(items);
    }
    startKey = page.LastEvaluatedKey;
  } while (startKey);
  return { items, lastSeq };
}

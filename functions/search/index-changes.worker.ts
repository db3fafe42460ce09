// Worker `searchIndexChanges`, on the table's stream (product and offer items only): appends their new
// images to the search index log, from which every search instance updates its copy.
import type { DynamoDBStreamEvent } from 'aws-lambda';
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import { config } from '../../shared/config.ts';
import { recordCatalogChanges } from '../../shared/domain/search-index.ts';
import { logger } from '../../shared/logger.ts';
import { workerHandler } from '../../shared/powertools.ts';

config(); // fail fast at cold start

export const handler = workerHandler(async (event: DynamoDBStreamEvent): Promise<void> => {
  // Stream order per item is kept: images are appended in the order they arrive.
  const items = event.Records.flatMap((record) => (record.dynamodb?.NewImage ? [unmarshall(record.dynamodb.NewImage as Record<string, AttributeValue>)] : []));
  const seq = await recordCatalogChanges(items);
  if (seq > 0) logger.debug('Search index log appended', { records: event.Records.length, seq });
});

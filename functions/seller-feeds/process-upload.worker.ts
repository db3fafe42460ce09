// Worker `feed-uploads`: S3 ObjectCreated under feeds/ → process the feed that waits for that file.
// A file stays unprocessed only if this run fails before claiming it; the recovery sweep then takes it.
import type { Context, S3Event } from 'aws-lambda';
import { config } from '../../shared/config.ts';
import { parseFeedObjectKey } from '../../shared/data/feed-files.ts';
import { processUploadedFile } from '../../shared/domain/feed-processing.ts';
import { logger } from '../../shared/logger.ts';
import { workerHandler } from '../../shared/powertools.ts';

config(); // fail fast at cold start

export const handler = workerHandler(async (event: S3Event, context: Context): Promise<void> => {
  for (const record of event.Records) {
    // Keys in S3 events are URL-encoded with + for spaces.
    const key = decodeURIComponent(record.s3.object.key.replace(/\+/g, ' '));
    const ids = parseFeedObjectKey(key);
    if (!ids) {
      logger.warn('Ignoring an object that is not a feed file', { key });
      continue;
    }
    const result = await processUploadedFile(ids, key, { remainingMs: () => context.getRemainingTimeInMillis() });
    logger.info('Feed file processed', { ...ids, key, result });
  }
});

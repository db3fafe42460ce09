// Worker `searchIndexSnapshots`, every 5 minutes: when the search index log has grown, writes a
// snapshot of the index to S3, so that a cold search instance replays only the entries after it.
import { config } from '../../shared/config.ts';
import { snapshotSearchIndex } from '../../shared/domain/search-index.ts';
import { logger } from '../../shared/logger.ts';
import { workerHandler } from '../../shared/powertools.ts';

config(); // fail fast at cold start

export const handler = workerHandler(async (_event: unknown): Promise<void> => {
  const snapshot = await snapshotSearchIndex();
  if (snapshot) logger.info('Search index snapshot written', snapshot);
});

// POST /v1/seller/feeds/{id}/retry — only a failed feed; 409 with its status otherwise.
import { retryFeed } from '../../shared/domain/feeds.ts';
import { feedUploadFrom } from '../../shared/http/feed-upload.ts';
import { apiHandler } from '../../shared/http/handler.ts';
import { parseMultipart } from '../../shared/http/multipart.ts';
import { route } from './retry.route.ts';

export const handler = apiHandler(route, async ({ caller, params, body, upload, query, now }) => ({
  status: 202,
  data: await retryFeed(caller.agentId, params.id, feedUploadFrom(upload, body, query.filename), now),
}), { multipart: parseMultipart });

// POST /v1/seller/feeds — store the file, record the feed; processing starts from the stored object.
import { uploadFeed } from '../../shared/domain/feeds.ts';
import { errors } from '../../shared/http/errors.ts';
import { feedUploadFrom } from '../../shared/http/feed-upload.ts';
import { apiHandler } from '../../shared/http/handler.ts';
import { parseMultipart } from '../../shared/http/multipart.ts';
import { route } from './create.route.ts';

export const handler = apiHandler(route, async ({ caller, body, upload, query, now }) => {
  const feed = feedUploadFrom(upload, body, query.filename);
  if (!feed) {
    throw errors.invalid('Send a feed: a text/csv body, a JSON body {"products": [...]}, multipart/form-data with a file part, or {"format": "csv", "upload": "presigned"}', [
      { path: 'body', message: 'Required' },
    ]);
  }
  return { status: 202, data: await uploadFeed(caller.agentId, feed, now) };
}, { multipart: parseMultipart });

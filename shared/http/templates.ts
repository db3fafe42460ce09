// Template downloads (contract §3): the JSON envelope by default, or the raw file when the request's
// Accept header names the file's media type alone, so `curl -H 'Accept: text/csv'` saves a file.
import type { FeedTemplate } from '../domain/feed-templates.ts';
import type { HandlerResult } from './api-state.ts';

const MEDIA_TYPES = { csv: 'text/csv', json: 'application/json' } as const;

/** `text/csv`, `text/csv; q=1`, `text/csv;charset=utf-8` → text/csv; several types → undefined. */
function soleAcceptedType(accept: string | undefined): string | undefined {
  if (!accept) return undefined;
  const types = accept.split(',').map((part) => part.split(';')[0]?.trim().toLowerCase() ?? '').filter(Boolean);
  return types.length === 1 ? types[0] : undefined;
}

export function templateResponse(template: FeedTemplate, accept: string | undefined): HandlerResult {
  const mediaType = MEDIA_TYPES[template.format];
  if (soleAcceptedType(accept) === mediaType) {
    return {
      raw: { body: template.content, contentType: `${mediaType}; charset=utf-8` },
      headers: { 'Content-Disposition': `attachment; filename="${template.filename}"` },
    };
  }
  return { data: template };
}

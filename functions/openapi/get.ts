// GET /v1/openapi.json — the OpenAPI 3.1 document, built from the route table at synth time (and by
// the local runtime at start), never in the function: it ships beside the bundle (bundledFiles). Its
// `servers` entry is set to the origin the request came to, which synth cannot know: the stage's
// API URL (or custom domain) when deployed, http://localhost:… locally.
import { readFileSync } from 'node:fs';
import { apiHandler } from '../../shared/http/handler.ts';
import { bundledFilePath } from '../../shared/resources.ts';
import { route } from './get.route.ts';

const built = readFileSync(bundledFilePath('openapi.json', import.meta.url), 'utf8');
const document = JSON.parse(built) as Record<string, unknown>;

/** A host header we will repeat into the document: a DNS name or address, and a port. */
const HOST = /^[A-Za-z0-9.-]{1,253}(:\d{1,5})?$/;

/** Serialised documents by origin; a handful at most (a stage answers on one or two hosts). */
const byOrigin = new Map<string, string>();

function documentFor(headers: Readonly<Record<string, string | undefined>>): string {
  const host = headers.host ?? '';
  const protocol = headers['x-forwarded-proto'] === 'http' ? 'http' : 'https';
  if (!HOST.test(host)) return built;
  const origin = `${protocol}://${host}`;
  let served = byOrigin.get(origin);
  if (served === undefined) {
    served = JSON.stringify({ ...document, servers: [{ url: origin, description: `This stage (${protocol === 'http' ? 'local runtime or sandbox' : 'sandbox or production'}), as reached by this request`, 'x-internal': false }] });
    if (byOrigin.size >= 8) byOrigin.clear();
    byOrigin.set(origin, served);
  }
  return served;
}

export const handler = apiHandler(route, (request) => Promise.resolve({ raw: { body: documentFor(request.headers), contentType: 'application/json; charset=utf-8' } }));

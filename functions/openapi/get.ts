// GET /v1/openapi.json — the OpenAPI 3.1 document, built from the route table at synth time (and by
// the local runtime at start), never in the function: it ships beside the bundle (bundledFiles).
import { readFileSync } from 'node:fs';
import { apiHandler } from '../../shared/http/handler.ts';
import { bundledFilePath } from '../../shared/resources.ts';
import { route } from './get.route.ts';

const document = readFileSync(bundledFilePath('openapi.json', import.meta.url), 'utf8');

export const handler = apiHandler(route, () => Promise.resolve({ raw: { body: document, contentType: 'application/json; charset=utf-8' } }));

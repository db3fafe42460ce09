// GET /llms.txt — built from the route table at synth time (and by the local runtime at start), never
// in the function: it ships beside the bundle (bundledFiles), like the OpenAPI document.
import { readFileSync } from 'node:fs';
import { apiHandler } from '../../shared/http/handler.ts';
import { bundledFilePath } from '../../shared/resources.ts';
import { route } from './get.route.ts';

const guide = readFileSync(bundledFilePath('llms.txt', import.meta.url), 'utf8');

export const handler = apiHandler(route, () => Promise.resolve({ raw: { body: guide, contentType: 'text/markdown; charset=utf-8' } }));

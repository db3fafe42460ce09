// GET / — the front door (shared/http/home-page.ts): the links as JSON, or as a page for browsers. No key, no rate limit.
import { apiHandler } from '../../shared/http/handler.ts';
import { frontDoorResponse } from '../../shared/http/home-page.ts';
import { route } from './get.route.ts';

export const handler = apiHandler(route, ({ headers }) => Promise.resolve(frontDoorResponse(headers)));

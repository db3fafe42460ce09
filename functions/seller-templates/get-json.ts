// GET /v1/seller/templates/json — the envelope, or the raw file for `Accept: application/json`.
import { feedTemplate } from '../../shared/domain/feed-templates.ts';
import { apiHandler } from '../../shared/http/handler.ts';
import { templateResponse } from '../../shared/http/templates.ts';
import { route } from './get-json.route.ts';

const template = feedTemplate('json');

export const handler = apiHandler(route, ({ headers }) => Promise.resolve(templateResponse(template, headers.accept)));

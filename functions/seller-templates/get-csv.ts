// GET /v1/seller/templates/csv — the envelope, or the raw file for `Accept: text/csv`.
import { feedTemplate } from '../../shared/domain/feed-templates.ts';
import { apiHandler } from '../../shared/http/handler.ts';
import { templateResponse } from '../../shared/http/templates.ts';
import { route } from './get-csv.route.ts';

const template = feedTemplate('csv');

export const handler = apiHandler(route, ({ headers }) => Promise.resolve(templateResponse(template, headers.accept)));

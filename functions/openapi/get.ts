// GET /v1/openapi.json — the OpenAPI 3.1 document, built once per container from the route table.
import { apiHandler } from '../../shared/http/handler.ts';
import { routes } from '../../shared/http/routes.ts';
import { buildOpenApiDocument } from '../../shared/openapi/document.ts';

let document: ReturnType<typeof buildOpenApiDocument> | undefined;

export const handler = apiHandler(routes.getOpenApiDocument, () => {
  document ??= buildOpenApiDocument();
  return Promise.resolve({ data: document });
});

// GET /mcp — 405 with Allow: POST. MCP clients try this once after initializing and, on 405, go on
// without a server-to-client stream; any other status would be reported to them as a failure.
import { errors } from '../../shared/http/errors.ts';
import { apiHandler } from '../../shared/http/handler.ts';
import { route } from './get.route.ts';

export const handler = apiHandler(route, () => {
  throw errors.methodNotAllowed('This MCP server is stateless and offers no event stream: send MCP messages with POST /mcp', 'POST');
});

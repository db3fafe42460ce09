// On a route whose row says `checksOrigin` (POST /mcp), refuses a web page of another site (its Origin,
// and locally its Host: ../request-origin.ts) with 403 before the key is looked up: the MCP
// specification (2025-11-25, Streamable HTTP) requires 403 for an invalid Origin whatever else the
// request carries, so a foreign page without a valid key learns nothing from a 401 either. The answer
// is the MCP transport's (a JSON-RPC error without an id), given at once: nothing after this runs,
// the rate limiter included. Requests without an Origin (clients that are not browsers) pass.
import { config, requiredSetting } from '../../config.ts';
import { answerEarly } from '../../powertools.ts';
import type { ApiMiddleware } from '../api-state.ts';
import { originRefusal, originRules, type OriginRules } from '../request-origin.ts';
import { shapeResult } from './response-shaper.ts';

let rules: OriginRules | undefined;

/** The rules from the function's configuration, read once (the configuration does not change while it runs). */
function configuredRules(): OriginRules {
  const { MCP_ALLOWED_ORIGINS, MCP_ALLOWED_HOSTS } = config();
  return (rules ??= originRules({ apiBaseUrl: requiredSetting('API_BASE_URL'), allowedOrigins: MCP_ALLOWED_ORIGINS, allowedHosts: MCP_ALLOWED_HOSTS }));
}

export const checkOrigin: ApiMiddleware = {
  name: 'checkOrigin',
  before: async (request) => {
    const state = request.context.api;
    if (!state.route.checksOrigin) return;
    const refused = originRefusal(state.headers, configuredRules());
    if (refused === undefined) return;
    // As the MCP SDK's transport words a refusal of the whole request.
    const body = JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message: refused }, id: null });
    return answerEarly(request, shapeResult(state, { status: 403, raw: { body, contentType: 'application/json' } }));
  },
};

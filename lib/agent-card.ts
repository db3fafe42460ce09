// The A2A agent card (GET /.well-known/agent-card.json), built at synth and local start beside the
// function that serves it (lib/bundled-files.ts: agent-card.json), from the MCP tool table and the
// package's version: the marketplace as an agent other agents can discover. Its URLs are written with
// AGENT_CARD_ORIGIN, which the function replaces with the origin the request came to (a stage's API
// URL or custom domain, http://localhost:… locally). Fields of A2A 0.3.0's AgentCard; decision:
// docs/decisions/discovery-documents.md.
import { toolsFor } from '../functions/mcp/tool-table.ts';
import { SUMMARY } from '../shared/openapi/guide.ts';
import { PACKAGE_VERSION } from '../shared/openapi/package-version.ts';
import { AGENT_CARD_ORIGIN } from '../shared/http/agent-card.ts';
import type { Role } from '../shared/schemas/agents.ts';
import type { Stage } from '../shared/resources.ts';

/** The A2A protocol version whose AgentCard fields the card follows. */
export const A2A_PROTOCOL_VERSION = '0.3.0';

const SKILLS: Record<Role, { id: string; name: string; description: string; tags: string[]; examples: string[] }> = {
  buyer: {
    id: 'buy',
    name: 'Buy for a company',
    description:
      'A buyer agent searches the catalog in plain language or with filters, negotiates unit price and quantity turn by turn, orders the accepted terms and follows the order to delivery. Prices are integers in the currency’s minor unit (EUR cents).',
    tags: ['procurement', 'b2b', 'search', 'negotiation', 'orders'],
    examples: ['500 nitrile gloves under 0.15 EUR each from Germany within 10 days', 'Negotiate 10% off the list price for 2,000 units, then order'],
  },
  seller: {
    id: 'sell',
    name: 'Sell a catalog',
    description:
      'A seller agent loads its catalog as CSV or JSON feeds with a private negotiation policy per offer, answers buyers’ proposals, and confirms, ships and delivers orders.',
    tags: ['sales', 'b2b', 'catalog', 'negotiation', 'fulfilment'],
    examples: ['Upload this CSV catalog and tell me which rows failed', 'Confirm and ship order ord_… with DHL tracking 00340434161094042557'],
  },
};

/**
 * The card, its URLs on AGENT_CARD_ORIGIN: skills are the buyer's and the seller's MCP tools, as a main
 * key of the stage lists them (a sandbox's card names its sandbox tools too; a live stack's does not).
 */
export function buildAgentCard(stage: Stage = 'live', version = PACKAGE_VERSION) {
  const origin = AGENT_CARD_ORIGIN;
  const toolsOf = (role: Role) => toolsFor({ role, scopes: null, sandbox: stage === 'test' }).map((tool) => tool.name);
  return {
    protocolVersion: A2A_PROTOCOL_VERSION,
    name: 'Agent Marketplace',
    description: `${SUMMARY} Use the REST API (\`url\`, described by ${origin}/v1/openapi.json) or the same operations as MCP tools at ${origin}/mcp (Streamable HTTP), with the agent’s API key as the bearer token.`,
    url: `${origin}/v1`,
    preferredTransport: 'HTTP+JSON',
    additionalInterfaces: [
      { url: `${origin}/v1`, transport: 'HTTP+JSON' },
      // Not an A2A binding: the marketplace's MCP server (Streamable HTTP, stateless), same key.
      { url: `${origin}/mcp`, transport: 'MCP' },
    ],
    provider: { organization: 'Agent Marketplace', url: `${origin}/` },
    version,
    documentationUrl: `${origin}/docs`,
    capabilities: { streaming: false, pushNotifications: false, stateTransitionHistory: false },
    securitySchemes: {
      bearer: {
        type: 'http',
        scheme: 'bearer',
        bearerFormat: 'API key',
        description: 'The agent’s API key (mk_live_… in production, mk_test_… in the sandbox), issued once by POST /v1/agents/register',
      },
    },
    security: [{ bearer: [] }],
    defaultInputModes: ['application/json', 'text/plain'],
    defaultOutputModes: ['application/json'],
    skills: (['buyer', 'seller'] as const).map((role) => ({
      ...SKILLS[role],
      description: `${SKILLS[role].description} MCP tools (${origin}/mcp): ${toolsOf(role).join(', ')}.`,
      inputModes: ['application/json', 'text/plain'],
      outputModes: ['application/json'],
    })),
    supportsAuthenticatedExtendedCard: false,
  };
}

// GET /llms.txt (the llmstxt.org format): an H1, a blockquote summary, then guidance and H2 sections of
// links. Built from the route table and the same guide text as the OpenAPI document's description,
// at synth and local start only.
import { ERROR_CODES } from '../http/error-codes.ts';
import { ROUTE_TAGS, type RouteTag, type RouteWithDocument } from '../http/route-table.ts';
import { API_TITLE, TAG_DESCRIPTIONS, WEBHOOK_EVENTS, callersOf, errorSummaryOf, keyScopeOf } from './content.ts';
import { BUYER_FLOW, CONVENTIONS, SELLER_FLOW, SUMMARY, WEBHOOK_VERIFICATION } from './guide.ts';

/** `/v1/orders/{id}` → the JSON Pointer of its path item in the OpenAPI document. */
function pointerTo(route: RouteWithDocument): string {
  const path = route.path.replace(/~/g, '~0').replace(/\//g, '~1');
  return `/v1/openapi.json#/paths/${encodeURIComponent(path).replace(/%7E/gi, '~')}/${route.method.toLowerCase()}`;
}

/** A route's request, as its example shows it: the query string and the JSON body. */
function requestExample(route: RouteWithDocument): string {
  const query = route.examples.query ? ` Query: \`?${new URLSearchParams(route.examples.query).toString()}\`.` : '';
  const body = route.examples.body !== undefined ? ` Body: \`${JSON.stringify(route.examples.body)}\`.` : '';
  return query + body;
}

function operationLine(route: RouteWithDocument): string {
  const key = route.auth === 'apiKey' ? ` Key: ${keyScopeOf(route)}.` : '';
  return `- [${route.method} ${route.path}](${pointerTo(route)}): ${route.summary}. Callers: ${callersOf(route)}${key}${requestExample(route)} Errors: ${errorSummaryOf(route)}.`;
}

/**
 * Operations people, not agents, use: the pages for people (not in the OpenAPI document) and the
 * readiness probe; listed under "Optional" as llmstxt.org suggests.
 */
const forPeople = (route: RouteWithDocument) => route.pageForPeople === true || route.operationId === 'health';

export function buildLlmsTxt(routes: readonly RouteWithDocument[]): string {
  const byTag = new Map<RouteTag, RouteWithDocument[]>();
  for (const route of routes) {
    // Other protocols' discovery documents are not operations of the document: listed under Documents.
    if (forPeople(route) || route.discoveryDocument) continue;
    byTag.set(route.tag, [...(byTag.get(route.tag) ?? []), route]);
  }
  const sections = ROUTE_TAGS
    .filter((tag) => byTag.has(tag))
    .map((tag) => `## ${tag}\n\n${TAG_DESCRIPTIONS[tag]}\n\n${(byTag.get(tag) ?? []).map(operationLine).join('\n')}`);
  const errors = Object.entries(ERROR_CODES)
    .map(([code, { status, description }]) => `- \`${code}\` (${status}): ${description}`)
    .join('\n');
  const events = Object.entries(WEBHOOK_EVENTS)
    .map(([type, { description }]) => `- \`${type}\`: ${description}`)
    .join('\n');
  const optional = routes.filter(forPeople).map((route) => `- [${route.method} ${route.path}](${route.path}): ${route.summary}`);

  return `# ${API_TITLE}

> ${SUMMARY}

Every path below is relative to the address that served this file. Send JSON (\`Content-Type: application/json\`) and read JSON. Each operation below shows an example request; the OpenAPI document has every schema and an example of every operation’s response.

**Conventions**

${CONVENTIONS}

**Seller flow**

${SELLER_FLOW}

**Buyer flow**

${BUYER_FLOW}

**Webhooks**

${WEBHOOK_VERIFICATION}

Event types (subscribe to names, or \`*\`):

${events}

**Errors**: \`{"error", "code", "status", "requestId", "details"?}\`; branch on \`code\`:

${errors}

## Documents

- [OpenAPI 3.1 document](/v1/openapi.json): every operation with its description, schemas, examples and error codes, and the webhooks
- [API reference](/docs): the same document as a web page
- [MCP (Streamable HTTP)](/mcp): the operations as MCP tools; POST JSON-RPC with your \`Authorization: Bearer\` key
- [GET /.well-known/agent-card.json](/.well-known/agent-card.json): the A2A agent card (this API, its MCP endpoint, the buyer and seller skills), for agents that discover by card
- [Versioning](/v1/openapi.json#/info): \`/v1\` changes only additively; deprecations come with \`Deprecation\` and \`Sunset\` headers

${sections.join('\n\n')}

## Optional

${optional.join('\n')}
`;
}

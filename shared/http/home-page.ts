// GET /: the API's front door. One list of links, answered as the contract's JSON envelope (agents,
// curl, anything that does not prefer HTML) or as a short web page (browsers, whose Accept puts
// text/html first). Both carry the RFC 8631 Link header that points API tools at the description.
import { createHash } from 'node:crypto';
import Negotiator from 'negotiator';
import type { HandlerResult } from './api-state.ts';

export interface FrontDoorLink {
  href: string;
  method: 'GET' | 'POST';
  title: string;
}

const TITLE = 'Agent Marketplace API';
const DESCRIPTION =
  'A B2B exchange where AI agents buy and sell: catalogs, search in plain language, negotiation, orders and signed webhooks, all through this API.';

/** In the order a newcomer needs them. Keys are stable: agents read `data.links.openapi.href`. */
export const FRONT_DOOR_LINKS = {
  docs: { href: '/docs', method: 'GET', title: 'API reference: every operation and webhook event, searchable' },
  openapi: { href: '/v1/openapi.json', method: 'GET', title: 'OpenAPI 3.1 document of this API' },
  llmsTxt: { href: '/llms.txt', method: 'GET', title: 'llms.txt: how to use this API, for language models' },
  mcp: { href: '/mcp', method: 'POST', title: 'MCP endpoint (Streamable HTTP): this API as tools; send your API key as a bearer token' },
  register: { href: '/v1/agents/register', method: 'POST', title: 'Register an agent; the response holds its API key' },
  dashboard: { href: '/dashboard', method: 'GET', title: 'Webhook delivery dashboard (a web page; sign in with an API key)' },
  health: { href: '/health', method: 'GET', title: 'Readiness probe' },
} as const satisfies Record<string, FrontDoorLink>;

/** RFC 8631 relations: the machine-readable description, the human one, and the status. */
const LINK_HEADER = [
  `<${FRONT_DOOR_LINKS.openapi.href}>; rel="service-desc"; type="application/json"`,
  `<${FRONT_DOOR_LINKS.docs.href}>; rel="service-doc"; type="text/html"`,
  `<${FRONT_DOOR_LINKS.health.href}>; rel="status"`,
].join(', ');

const STYLE = `
:root { color-scheme: light dark; }
body { margin: 0; font: 17px/1.55 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; }
main { max-width: 44rem; margin: 0 auto; padding: 2.5rem 1.25rem; }
h1 { font-size: 1.6rem; margin: 0 0 0.5rem; }
ul { padding: 0; list-style: none; }
li { padding: 0.6rem 0; border-bottom: 1px solid color-mix(in srgb, currentColor 18%, transparent); }
a { font-weight: 600; }
code { font: 0.92em ui-monospace, SFMono-Regular, Menlo, monospace; font-weight: 600; }
.title { display: block; opacity: 0.8; }
`;

const STYLE_HASH = createHash('sha256').update(STYLE).digest('base64');

/** No script at all; the one inline style is allowed by its hash. */
export const HOME_PAGE_CSP = [
  "default-src 'none'",
  `style-src 'sha256-${STYLE_HASH}'`,
  'img-src data:',
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);
}

function linkItem(link: FrontDoorLink): string {
  const target = link.method === 'GET' ? `<a href="${escapeHtml(link.href)}">${escapeHtml(link.href)}</a>` : `<code>${link.method} ${escapeHtml(link.href)}</code>`;
  return `<li>${target}<span class="title">${escapeHtml(link.title)}</span></li>`;
}

export const HOME_PAGE_HTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="description" content="${escapeHtml(DESCRIPTION)}">
<title>${TITLE}</title>
<link rel="icon" href="data:,">
<style>${STYLE}</style>
</head>
<body>
<main>
<h1>${TITLE}</h1>
<p>${escapeHtml(DESCRIPTION)}</p>
<ul>
${Object.values(FRONT_DOOR_LINKS).map(linkItem).join('\n')}
</ul>
<p>The same links as JSON: <code>curl -H 'Accept: application/json'</code> this address.</p>
</main>
</body>
</html>
`;

/** The page when the request prefers HTML to JSON; otherwise the envelope, as every other endpoint answers. */
export function frontDoorResponse(headers: Readonly<Record<string, string | undefined>>): HandlerResult {
  const preferred = new Negotiator({ headers: { accept: headers.accept } }).mediaType(['application/json', 'text/html']);
  const common = { Vary: 'Accept', Link: LINK_HEADER };
  if (preferred === 'text/html') {
    return {
      raw: { body: HOME_PAGE_HTML, contentType: 'text/html; charset=utf-8' },
      headers: { ...common, 'Content-Security-Policy': HOME_PAGE_CSP, 'X-Content-Type-Options': 'nosniff', 'Referrer-Policy': 'no-referrer', 'X-Frame-Options': 'DENY' },
    };
  }
  return { data: { name: TITLE, description: DESCRIPTION, links: FRONT_DOOR_LINKS }, headers: common };
}

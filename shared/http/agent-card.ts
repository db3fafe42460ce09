// The origin the agent card's URLs are written with at synth (lib/agent-card.ts), and the origin the
// card is served for: the one the request came to (a stage's API URL or custom domain; locally the
// runtime's http://localhost:…), as the OpenAPI document's `servers` entry is.

/** Stands for the origin in the built card. */
export const AGENT_CARD_ORIGIN = 'https://agent-card.origin.invalid';

/** A Host header we will repeat into the card: a DNS name or address, and a port. */
const HOST = /^[A-Za-z0-9.-]{1,253}(:\d{1,5})?$/;

/** A deployed stage's API URL, for a request without a usable Host (API Gateway always sends one). */
const STAGE_ORIGIN = 'https://{apiId}.execute-api.{region}.amazonaws.com';

/** The origin a request came to, from its Host and X-Forwarded-Proto headers. */
export function requestOrigin(headers: Readonly<Record<string, string | undefined>>): string {
  const host = headers.host ?? '';
  if (!HOST.test(host)) return STAGE_ORIGIN;
  return `${headers['x-forwarded-proto'] === 'http' ? 'http' : 'https'}://${host}`;
}

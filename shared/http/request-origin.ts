// Which web pages and host names may reach a route whose row says `checksOrigin` (POST /mcp): the MCP
// specification's defence against DNS rebinding (2025-11-25, Streamable HTTP: "Servers MUST validate
// the Origin header"; local servers should also check Host). A page on another site that got its name
// pointed at this server sends its own Origin (and Host), so an Origin that is present and not allowed
// is refused with 403 before anything else runs, the key lookup included (middleware/check-origin.ts).
// Clients that are not browsers send no Origin and are not concerned.
//
// Allowed origins: the API's own (API_BASE_URL), the stage's extra ones (MCP_ALLOWED_ORIGINS), and,
// where the Host header is checked (MCP_ALLOWED_HOSTS: the local runtime's loopback names), any
// origin on one of those host names, on any port (a local MCP inspector's page). The Host header is
// checked by name, port aside, as the MCP SDK's hostHeaderValidation does.
// docs/decisions/mcp-sdk-server.md, docs/decisions/mcp-origin-before-key.md.

export interface OriginRules {
  /** Origins allowed as they are (`https://api.example.com`). */
  origins: ReadonlySet<string>;
  /** Host names the Host header must name, and on which any origin is allowed; undefined: Host is not checked. */
  hosts: ReadonlySet<string> | undefined;
}

export interface OriginSettings {
  apiBaseUrl: string;
  allowedOrigins: readonly string[];
  allowedHosts: readonly string[] | undefined;
}

export function originRules({ apiBaseUrl, allowedOrigins, allowedHosts }: OriginSettings): OriginRules {
  return {
    origins: new Set([new URL(apiBaseUrl).origin, ...allowedOrigins]),
    hosts: allowedHosts === undefined ? undefined : new Set(allowedHosts.map((host) => host.toLowerCase())),
  };
}

/** The host name of a Host header (`localhost:3000` → `localhost`, `[::1]:3000` → `[::1]`); undefined when it is none. */
function hostNameOf(host: string | undefined): string | undefined {
  // A host and an optional port only: nothing a URL would read as a path, user or query.
  if (!host || /[/\\?#@\s]/.test(host)) return undefined;
  return URL.parse(`http://${host}`)?.hostname;
}

function originAllowed(origin: string, rules: OriginRules): boolean {
  const url = URL.parse(origin);
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) return false; // `null` (a sandboxed page, a file) too
  return rules.origins.has(url.origin) || (rules.hosts?.has(url.hostname) ?? false);
}

/**
 * Why a request must be refused, in the words of the MCP SDK's transport (its JSON-RPC error's
 * message); undefined when its Host and Origin are allowed.
 */
export function originRefusal(headers: { host?: string | undefined; origin?: string | undefined }, rules: OriginRules): string | undefined {
  if (rules.hosts) {
    const hostName = hostNameOf(headers.host);
    if (hostName === undefined || !rules.hosts.has(hostName)) return `Invalid Host header: ${headers.host ?? '(none)'}: this server answers to ${[...rules.hosts].join(', ')} only`;
  }
  if (headers.origin !== undefined && !originAllowed(headers.origin, rules)) {
    return `Invalid Origin header: ${headers.origin}: pages of ${[...rules.origins].join(', ')}${rules.hosts ? ` and of ${[...rules.hosts].join(', ')}` : ''} may call this server (MCP_ALLOWED_ORIGINS adds others)`;
  }
  return undefined;
}

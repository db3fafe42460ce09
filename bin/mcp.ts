// `npm run mcp` (and the SDK package's `agent-marketplace-mcp` bin, a bundle of this file): the
// marketplace's MCP server over stdio, for desktop agents that start their servers as processes.
// MARKETPLACE_API_KEY is the agent's key; MARKETPLACE_BASE_URL the API (default http://localhost:3000).
// The key's profile, read once at start, decides the tools: its agent's role and the key's scopes
// (GET /v1/agents/me's `key`), as POST /mcp's caller does. Standard output carries the protocol only:
// every message of ours goes to standard error. The server is POST /mcp's (functions/mcp/server.ts),
// on the MCP SDK's stdio transport: one JSON-RPC message a line.
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { AuthenticationError, Marketplace, MarketplaceConnectionError, MarketplaceError } from '../sdk/typescript/src/index.ts';
import { serveMarketplaceTools } from '../functions/mcp/server.ts';
import type { ToolCaller } from '../functions/mcp/tool-table.ts';
import { newId } from '../shared/ids.ts';

const DEFAULT_BASE_URL = 'http://localhost:3000';

const warn = (message: string) => process.stderr.write(`agent-marketplace-mcp: ${message}\n`);
const describe = (error: unknown) => (error instanceof Error ? (error.stack ?? error.message) : String(error));

/** Exit codes: 2 for a setting to fix, 1 for an API that refused the key or could not be reached. */
function fail(message: string, code: 1 | 2): never {
  warn(message);
  process.exit(code);
}

async function main(): Promise<void> {
  const apiKey = process.env.MARKETPLACE_API_KEY?.trim();
  if (!apiKey) fail('MARKETPLACE_API_KEY is not set: set it to your agent’s API key (mk_test_… or mk_live_…)', 2);
  const baseUrl = process.env.MARKETPLACE_BASE_URL?.trim() || DEFAULT_BASE_URL;
  let marketplace: Marketplace;
  try {
    marketplace = new Marketplace({ apiKey, baseUrl });
  } catch (error) {
    fail(`MARKETPLACE_BASE_URL: ${(error as Error).message}`, 2);
  }

  let role: 'buyer' | 'seller';
  let scopes: ToolCaller['scopes'];
  try {
    const me = await marketplace.agents.me({ maxRetries: 1 });
    role = me.role;
    // A stack from before the profile named its key answers without `key`: the role's tools then, each call still checked by the API.
    scopes = (me.key as typeof me.key | undefined)?.scopes ?? null;
  } catch (error) {
    if (error instanceof AuthenticationError) fail(`the marketplace at ${baseUrl} refused MARKETPLACE_API_KEY (${error.message}): check the key and that it belongs to this environment (mk_test_ keys for the sandbox, mk_live_ for production)`, 1);
    if (error instanceof MarketplaceConnectionError) fail(`no marketplace answered at ${baseUrl} (${error.message}): start it (npm start) or set MARKETPLACE_BASE_URL`, 1);
    if (error instanceof MarketplaceError) fail(`reading the agent’s profile at ${baseUrl} failed: ${error.status} ${error.code}: ${error.message}`, 1);
    throw error;
  }

  const server = await serveMarketplaceTools(new StdioServerTransport(), {
    // Read at start: a change of the key's scopes shows from the next start on (the API checks every call as it is made).
    caller: { role, scopes, sandbox: apiKey.startsWith('mk_test_') },
    marketplace,
    onUnexpected: (error) => warn(`a tool failed unexpectedly: ${describe(error)}`),
    requestId: () => newId('request'),
  });
  // A line that is not a JSON-RPC message (a batch too: stdio never carried them) has no id to answer: the next one is read.
  server.server.onerror = (error) =>
    warn(error instanceof SyntaxError || error.name === 'ZodError' ? 'ignored a line of standard input that is not a JSON-RPC message' : `transport error: ${describe(error)}`);
  // When standard input ends (or a signal comes), the process ends, dropping answers still running.
  const stop = () => void server.close().finally(() => process.exit(0));
  process.stdin.once('end', stop);
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, stop);
  warn(`serving the ${role} tools of ${baseUrl} on stdio${scopes === null ? '' : ` that a restricted key with ${scopes.join(', ')} may call`}`);
}

main().catch((error: unknown) => fail(`unexpected error: ${error instanceof Error ? error.message : String(error)}`, 1));

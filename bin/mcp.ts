// `npm run mcp` (and the SDK package's `agent-marketplace-mcp` bin, a bundle of this file): the
// marketplace's MCP server over stdio, for desktop agents that start their servers as processes.
// MARKETPLACE_API_KEY is the agent's key; MARKETPLACE_BASE_URL the API (default http://localhost:3000).
// The key's role, read once at start, decides the tools. Standard output carries the protocol only:
// every message of ours goes to standard error. The protocol is POST /mcp's (functions/mcp/protocol.ts).
import { AuthenticationError, Marketplace, MarketplaceConnectionError, MarketplaceError } from '../sdk/typescript/src/index.ts';
import { McpSession, parseMessage, type McpServerDefinition } from '../functions/mcp/protocol.ts';
import { createMarketplaceMcpServer } from '../functions/mcp/server.ts';
import { buildToolCatalogue } from '../functions/mcp/tool-catalogue.ts';
import { toolCaller } from '../functions/mcp/tool-calls.ts';

const DEFAULT_BASE_URL = 'http://localhost:3000';
/** The longest line read (the MCP SDK's stdio limit); upload_feed's inline files are at most 5 MiB. */
const MAX_LINE_CHARS = 10 * 1024 * 1024;

const warn = (message: string) => process.stderr.write(`agent-marketplace-mcp: ${message}\n`);

/** Exit codes: 2 for a setting to fix, 1 for an API that refused the key or could not be reached. */
function fail(message: string, code: 1 | 2): never {
  warn(message);
  process.exit(code);
}

/** One line of standard input: a JSON-RPC message, answered on standard output when it is a request. */
function receiveLine(session: McpSession, line: string): void {
  let message;
  try {
    message = parseMessage(JSON.parse(line));
  } catch {
    message = undefined;
  }
  if (!message) {
    // As the MCP SDK does: no answer (there is no id to answer), and the next line is read.
    if (line.trim() !== '') warn('ignored a line of standard input that is not a JSON-RPC message');
    return;
  }
  session.receive(message).then(
    (response) => {
      if (response) process.stdout.write(`${JSON.stringify(response)}\n`);
    },
    (error: unknown) => warn(`a message failed unexpectedly: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`),
  );
}

/**
 * JSON-RPC over stdio, framed as the MCP SDK's StdioServerTransport frames it: one message a line (a
 * trailing CR dropped), no batches; answers are written as they are ready. When standard input ends
 * (or a signal comes), the process ends, dropping answers still running.
 */
function serveStdio(server: McpServerDefinition): void {
  const session = new McpSession(server);
  let pending = '';
  process.stdin.setEncoding('utf8');
  process.stdin.on('data', (chunk: string) => {
    pending += chunk;
    for (let newline = pending.indexOf('\n'); newline !== -1; newline = pending.indexOf('\n')) {
      receiveLine(session, pending.slice(0, newline).replace(/\r$/, ''));
      pending = pending.slice(newline + 1);
    }
    if (pending.length > MAX_LINE_CHARS) fail(`a line of standard input is longer than ${MAX_LINE_CHARS} characters`, 1);
  });
  const stop = () => {
    session.close();
    process.exit(0);
  };
  process.stdin.once('end', stop);
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, stop);
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
  try {
    role = (await marketplace.agents.me({ maxRetries: 1 })).role;
  } catch (error) {
    if (error instanceof AuthenticationError) fail(`the marketplace at ${baseUrl} refused MARKETPLACE_API_KEY (${error.message}): check the key and that it belongs to this environment (mk_test_ keys for the sandbox, mk_live_ for production)`, 1);
    if (error instanceof MarketplaceConnectionError) fail(`no marketplace answered at ${baseUrl} (${error.message}): start it (npm start) or set MARKETPLACE_BASE_URL`, 1);
    if (error instanceof MarketplaceError) fail(`reading the agent’s profile at ${baseUrl} failed: ${error.status} ${error.code}: ${error.message}`, 1);
    throw error;
  }

  const server = createMarketplaceMcpServer({
    role,
    catalogue: buildToolCatalogue(),
    callTool: toolCaller(marketplace, (error) => warn(`a tool failed unexpectedly: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`)),
  });
  serveStdio(server);
  warn(`serving the ${role} tools of ${baseUrl} on stdio`);
}

main().catch((error: unknown) => fail(`unexpected error: ${error instanceof Error ? error.message : String(error)}`, 1));

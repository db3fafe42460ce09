// Part of the SDK's build (`npm run sdk:build`): bundles the stdio MCP server (bin/mcp.ts) into
// sdk/typescript/dist/mcp.js, the package's `agent-marketplace-mcp` bin. Everything it needs (the MCP
// SDK's server and stdio transport, zod, the tool table, our SDK) is inside, so the package keeps no
// runtime dependencies.
import { chmodSync } from 'node:fs';
import { isBuiltin } from 'node:module';
import path from 'node:path';
import { build } from 'esbuild';
import { DEFINE_REQUIRE_BANNER } from '../lib/bundling.ts';

const root = path.resolve(import.meta.dirname, '..');
export const MCP_BIN_FILE = path.join(root, 'sdk', 'typescript', 'dist', 'mcp.js');

const result = await build({
  entryPoints: [path.join(root, 'bin', 'mcp.ts')],
  outfile: MCP_BIN_FILE,
  bundle: true,
  platform: 'node',
  // The package's floor (engines: node >= 20).
  target: 'node20',
  format: 'esm',
  mainFields: ['module', 'main'],
  minify: true,
  // The shebang makes the file its own command; CommonJS dependencies require Node built-ins.
  banner: { js: `#!/usr/bin/env node\n${DEFINE_REQUIRE_BANNER}` },
  external: ['@aws-sdk/*', '@smithy/*'],
  metafile: true,
  logLevel: 'warning',
});
// Nothing that runs in the bin may need what the package does not ship.
const unresolved = Object.values(result.metafile.outputs).flatMap((output) => output.imports.filter((imported) => imported.external && !isBuiltin(imported.path)));
if (unresolved.length > 0) throw new Error(`The MCP bin imports what the package does not ship: ${unresolved.map((imported) => imported.path).join(', ')}`);
chmodSync(MCP_BIN_FILE, 0o755);
console.log(`wrote ${path.relative(process.cwd(), MCP_BIN_FILE)}`);

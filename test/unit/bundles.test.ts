// Each Lambda bundle holds its own code and nothing else's, read from esbuild's metafile of the
// deployed bundling options: a handler pulls in its own route row only (never another route's — but the
// MCP server's, whose tools read their routes' schemas —, another handler, the assembled index, the
// CDK app or the local runtime), workers pull in no route row and no HTTP layer,
// a route bundles the AWS SDK client of a service only when its row grants the route that service
// (the SDK is bundled as deployed: an unused client is init time and bytes), and every bundle stays
// within its budget (DEFAULT_BUNDLE_BUDGET_KB unless its row says otherwise). The budget is for code a function loads at cold
// start; files shipped beside a bundle (a row's bundledFiles, such as the reference page's Redoc, which
// the function serves to browsers and never runs) are not bundles and are checked by their own tests
// (test/unit/reference-assets.test.ts). Classic zod stays out of every bundle but POST /mcp's: it costs
// each cold start ~35 M instructions (docs/decisions/zod-mini-in-functions.md), and only the MCP SDK's
// server, which POST /mcp is, brings it (docs/decisions/mcp-sdk-server.md).
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path, { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundleBudgetKb, bundleHandlers, type BundleInfo } from '../../bench/bundle.ts';
import { TOOLS } from '../../functions/mcp/tool-table.ts';
import { fallbackRoute, routeList, workers } from '../../functions/registry.ts';
import { DEFAULT_BUNDLE_BUDGET_KB } from '../../shared/http/route-table.ts';

const outDir = mkdtempSync(join(tmpdir(), 'bundles-'));
let bundles: BundleInfo[] = [];

beforeAll(async () => {
  bundles = await bundleHandlers({ outDir });
}, 120_000);
afterAll(() => rmSync(outDir, { recursive: true, force: true }));

const ownSources = (bundle: BundleInfo) => bundle.inputs.filter((input) => !input.includes('node_modules/'));

describe('Lambda bundles (esbuild metafile)', () => {
  it('bundles every route and worker', () => {
    expect(bundles.filter((bundle) => bundle.kind === 'route').length).toBeGreaterThan(20);
    expect(bundles.filter((bundle) => bundle.kind === 'worker').length).toBeGreaterThan(0);
  });

  it("puts no other route's row (but in a client of the API's), no handler but its own, no worker row, and neither the index, lib/ nor bin/ into a handler's bundle", () => {
    const handlers = new Set([...routeList, fallbackRoute, ...workers].map((row) => row.handler));
    // POST /mcp's tools read the rows of the routes they call, for their schemas.
    const clientsOfTheApi = new Set(routeList.filter((row) => row.callsApi).map((row) => row.handler));
    const offences: string[] = [];
    for (const bundle of bundles) {
      const ownRoute = bundle.handler.replace(/\.ts$/, '.route.ts');
      for (const input of ownSources(bundle)) {
        const foreignRoute = input.endsWith('.route.ts') && (bundle.kind === 'worker' || (input !== ownRoute && !clientsOfTheApi.has(bundle.handler)));
        const foreignHandler = handlers.has(input) && input !== bundle.handler;
        // The MCP tool table reads the generated index (the tool-bearing routes and the compositions).
        const index = input === 'functions/registry.ts' || (input === 'functions/registry.generated.ts' && !clientsOfTheApi.has(bundle.handler));
        const assembly = index || input.endsWith('.worker-row.ts') || input.startsWith('lib/') || input.startsWith('bin/');
        if (foreignRoute || foreignHandler || assembly) offences.push(`${bundle.handler} bundles ${input}`);
      }
      if (bundle.kind === 'route') expect(ownSources(bundle), bundle.handler).toContain(ownRoute);
    }
    expect(offences).toEqual([]);
  });

  it('keeps the HTTP layer and the OpenAPI builder out of worker bundles, and the OpenAPI builder out of every bundle', () => {
    const offences: string[] = [];
    for (const bundle of bundles) {
      for (const input of bundle.inputs) {
        if (bundle.kind === 'worker' && input.startsWith('shared/http/')) offences.push(`${bundle.handler} bundles ${input}`);
        if (input.startsWith('shared/openapi/') || input.includes('node_modules/zod-openapi/')) offences.push(`${bundle.handler} bundles ${input}`);
      }
    }
    expect(offences).toEqual([]);
  });

  it('bundles the multipart parser only into the handlers of routes that accept multipart uploads', () => {
    const multipartRoutes = new Set(routeList.filter((row) => row.uploads?.includes('multipart/form-data')).map((row) => row.operationId));
    expect(multipartRoutes.size).toBeGreaterThan(0);
    for (const bundle of bundles) {
      const hasParser = bundle.inputs.some((input) => input.includes('node_modules/busboy/'));
      expect(hasParser, bundle.handler).toBe(multipartRoutes.has(bundle.operationId));
    }
  });

  it('ships search-words.json beside every route whose handler reads it (it is read at run time, not bundled)', () => {
    const missing = bundles
      .filter((bundle) => bundle.kind === 'route' && bundle.inputs.includes('shared/data/search-words.ts'))
      .filter((bundle) => !routeList.find((row) => row.handler === bundle.handler)?.bundledFiles?.includes('search-words.json'))
      .map((bundle) => bundle.handler);
    expect(bundles.some((bundle) => bundle.inputs.includes('shared/data/search-words.ts'))).toBe(true);
    expect(missing).toEqual([]);
  });

  it("bundles an AWS service's client into a route only when its row grants that service", () => {
    const clients = (bundle: BundleInfo) => new Set(bundle.inputs.map((input) => /node_modules\/@aws-sdk\/client-([a-z0-9-]+)\//.exec(input)?.[1]).filter(Boolean));
    const offences: string[] = [];
    for (const bundle of bundles.filter((entry) => entry.kind === 'route')) {
      const row = routeList.find((entry) => entry.handler === bundle.handler);
      if (!row) continue; // the fallback route
      const expected = new Set(['dynamodb']);
      if ((row.feedFileActions?.length ?? 0) > 0 || (row.searchIndexActions?.length ?? 0) > 0) expected.add('s3');
      if (row.sendsDeliveries) expected.add('sqs');
      const actual = clients(bundle);
      for (const client of actual) if (!expected.has(client as string)) offences.push(`${bundle.handler} bundles client-${client}`);
      for (const client of expected) if (!actual.has(client)) offences.push(`${bundle.handler} lacks client-${client}`);
    }
    expect(offences).toEqual([]);
  });

  it(`keeps every bundle within its budget: ${DEFAULT_BUNDLE_BUDGET_KB} kB, or what its row allows (docs/performance.md says why)`, () => {
    const over = bundles.filter((bundle) => bundle.kb > bundleBudgetKb(bundle)).map((bundle) => `${bundle.handler}: ${bundle.kb} kB of ${bundleBudgetKb(bundle)}`);
    expect(over).toEqual([]);
    // The MCP SDK's server with what it imports (docs/decisions/mcp-sdk-server.md); no other function.
    const raised = routeList.filter((row) => row.bundleBudgetKb !== undefined);
    expect(raised.map((row) => row.operationId)).toEqual(['postMcpMessage']);
  });

  it('bundles the MCP SDK’s server into POST /mcp only: McpServer on the Streamable HTTP transport, with the tool table', () => {
    const mcp = bundles.find((bundle) => bundle.operationId === 'postMcpMessage')!;
    const sdk = (file: string) => `node_modules/@modelcontextprotocol/sdk/dist/esm/${file}`;
    expect(mcp.inputs).toEqual(expect.arrayContaining([sdk('server/mcp.js'), sdk('server/webStandardStreamableHttp.js'), sdk('types.js')]));
    expect(readFileSync(mcp.file, 'utf8')).toContain('Stateless transport cannot be reused across requests');
    // The tool table and our SDK's client are in the function itself: no bundle of its own, nothing shipped beside it.
    for (const module of ['functions/mcp/server.ts', 'functions/mcp/tool-table.ts', 'functions/mcp/tool-calls.ts', 'functions/registry.generated.ts', 'sdk/typescript/src/client.ts']) expect(mcp.inputs).toContain(module);
    // Only the routes that have a tool: the index's other route modules are left out.
    const routeModules = mcp.inputs.filter((input) => input.endsWith('.route.ts'));
    const toolRoutes = new Set(TOOLS.flatMap((tool) => tool.routes.map((route) => route.handler.replace(/\.ts$/, '.route.ts'))));
    expect(routeModules.filter((input) => !toolRoutes.has(input) && input !== 'functions/mcp/post.route.ts')).toEqual([]);
    expect(routeList.find((row) => row.operationId === 'postMcpMessage')?.bundledFiles).toBeUndefined();
    // Not its client, nor its stdio transport, and in no other function.
    expect(mcp.inputs.filter((input) => /@modelcontextprotocol\/sdk\/dist\/esm\/(client|server\/stdio)/.test(input))).toEqual([]);
    for (const bundle of bundles.filter((other) => other !== mcp)) {
      expect(bundle.inputs.filter((input) => input.includes('node_modules/@modelcontextprotocol/')), bundle.handler).toEqual([]);
    }
  });

  it('bundles zod/mini, and classic zod only where the MCP SDK’s server brings it', () => {
    const offences: string[] = [];
    for (const bundle of bundles.filter((candidate) => candidate.operationId !== 'postMcpMessage')) {
      const classic = bundle.inputs.filter((input) => input.includes('node_modules/zod/v4/classic/'));
      if (classic.length > 0) offences.push(`${bundle.handler} bundles ${classic.join(', ')}`);
    }
    expect(offences).toEqual([]);
    const getAgent = bundles.find((bundle) => bundle.operationId === 'getMyAgent')!;
    expect(getAgent.inputs.filter((input) => input.includes('node_modules/zod/v4/mini/'))).not.toEqual([]);
  });

  it('drops the modules a function never uses (package.json sideEffects), but never the English messages of zod', () => {
    // Every module is free of side effects but shared/schemas/zod.ts, whose z.config(en()) gives every
    // validation message its English text: a bundle with any of zod must hold it.
    for (const bundle of bundles) {
      if (bundle.inputs.some((input) => input.includes('node_modules/zod/v4/'))) expect(bundle.inputs, bundle.handler).toContain('shared/schemas/zod.ts');
    }
    // The structured search never reads a plain-language intent: the intent extractors (their patterns
    // are built at load) stay in the intent search's function.
    const inputsOf = (operationId: string) => bundles.find((bundle) => bundle.operationId === operationId)!.inputs;
    for (const extractor of ['shared/domain/intent/prices.ts', 'shared/domain/intent/quantities.ts', 'shared/domain/intent/currency-names.ts']) {
      expect(inputsOf('search')).not.toContain(extractor);
      expect(inputsOf('searchIntent')).toContain(extractor);
    }
    // The ISO 4217 tables are written out (shared/schemas/currency-digits.ts, the intent reader's
    // currency-names.ts): the package's whole list, with numbers and countries, is in no function.
    for (const bundle of bundles) expect(bundle.inputs.filter((input) => input.includes('node_modules/currency-codes/')), bundle.handler).toEqual([]);
  });

  it('keeps the reference page’s Redoc out of the asset function’s code: it ships as a file and is read, not run', () => {
    const assetFunction = bundles.find((bundle) => bundle.operationId === 'getReferenceAsset')!;
    expect(assetFunction.inputs.some((input) => input.includes('node_modules/redoc/'))).toBe(false);
    expect(assetFunction.kb).toBeLessThan(DEFAULT_BUNDLE_BUDGET_KB);
    for (const bundle of bundles) expect(bundle.inputs.some((input) => input.includes('node_modules/redoc/')), bundle.handler).toBe(false);
  });

  it('leaves a route’s MCP tool, declared beside its row, out of its handler’s bundle: only POST /mcp serves tools', () => {
    const offences: string[] = [];
    for (const bundle of bundles.filter((candidate) => candidate.operationId !== 'postMcpMessage')) {
      const code = readFileSync(bundle.file, 'utf8');
      for (const tool of TOOLS) if (code.includes(`"${tool.name}"`) || code.includes(`'${tool.name}'`)) offences.push(`${bundle.handler} holds ${tool.name}`);
      for (const input of bundle.inputs) if (input.startsWith('functions/mcp/') && !input.startsWith(path.dirname(bundle.handler))) offences.push(`${bundle.handler} bundles ${input}`);
    }
    expect(offences).toEqual([]);
  });

  it('builds no route’s response schema or examples: they are the route’s document, which only the OpenAPI document, llms.txt and the MCP tools read', () => {
    // The examples module holds every route's examples; the intent search's answer schema is the largest response schema.
    // POST /mcp is the MCP tools: their results are the routes' response schemas.
    for (const bundle of bundles.filter((candidate) => candidate.operationId !== 'postMcpMessage')) expect(bundle.inputs, bundle.handler).not.toContain('shared/schemas/examples.ts');
    const intentSearch = bundles.find((bundle) => bundle.operationId === 'searchIntent')!;
    expect(readFileSync(intentSearch.file, 'utf8')).not.toContain('SearchIntentPage');
  });
});

// The index of routes, MCP tools and workers is generated from the files that declare them
// (lib/registry-source.ts): the committed module must be what `npm run registry` writes now, so that a
// new or removed .route.ts cannot go unnoticed by the stack, the local runtime and the documents.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { REGISTRY_FILE, registrySource } from '../../lib/registry-source.ts';
import { compareRoutes } from '../../shared/http/route-table.ts';
import { routeList } from '../../functions/registry.ts';

describe('the generated index (functions/registry.generated.ts)', () => {
  it('is up to date with the files that declare routes, tools and workers (run npm run registry)', async () => {
    const expected = await registrySource('.');
    if (readFileSync(REGISTRY_FILE, 'utf8') !== expected) {
      throw new Error(`${REGISTRY_FILE} is stale: a route, tool or worker file was added, removed or renamed. Run \`npm run registry\` (or \`npm run docs\`) and commit the result.`);
    }
  });

  it('lists the routes by tag, path and method, whatever the files are called', () => {
    const keys = routeList.map((route) => `${route.tag} ${route.path} ${route.method}`);
    expect([...routeList].sort(compareRoutes).map((route) => `${route.tag} ${route.path} ${route.method}`)).toEqual(keys);
    expect(routeList[0]).toMatchObject({ tag: 'Agents' });
    expect(routeList.at(-1)).toMatchObject({ tag: 'MCP' });
  });
});

// A repository of its own in a temporary folder, with declaring files written as the product's are, so
// that what the staleness check compares is seen to change when a file is added without regenerating.
describe('the generated index, for a repository whose files change', () => {
  const roots: string[] = [];
  afterEach(() => {
    for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
  });

  function repository(files: Record<string, string>): string {
    const root = mkdtempSync(path.join(tmpdir(), 'registry-'));
    roots.push(root);
    for (const [file, text] of Object.entries(files)) {
      mkdirSync(path.join(root, path.dirname(file)), { recursive: true });
      writeFileSync(path.join(root, file), text);
    }
    return root;
  }

  const routeFile = (handler: string, tool?: string) =>
    `export const route = { handler: '${handler}' };\nexport const routeDocument = () => ({});\n${tool ? `export const mcpTool = () => ({ name: '${tool}' });\n` : ''}`;
  const workerRow = (handler: string) => `export const worker = { handler: '${handler}' };\n`;
  const compositeTool = (name: string) => `export const tool = { name: '${name}' };\n`;

  const base = {
    'functions/widgets/get.route.ts': routeFile('functions/widgets/get.ts', 'get_widget'),
    'functions/widgets/get.ts': 'export const handler = () => undefined;\n',
    'functions/widgets/sweep.worker-row.ts': workerRow('functions/widgets/sweep.worker.ts'),
    'functions/widgets/sweep.worker.ts': 'export const handler = () => undefined;\n',
    'functions/mcp/compositions/find-widgets.tool.ts': compositeTool('find_widgets'),
  };

  it('lists each route, the tool it declares, each composition and each worker row', async () => {
    const source = await registrySource(repository(base));
    expect(source).toContain("import * as widgetsGetRoute from './widgets/get.route.ts';");
    expect(source).toContain("import * as widgetsSweepWorker from './widgets/sweep.worker-row.ts';");
    expect(source).toContain("import * as findWidgetsTool from './mcp/compositions/find-widgets.tool.ts';");
    expect(source).toMatch(/export const toolRouteModules = \[\n {2}widgetsGetRoute,\n\] as const;/);
    expect(source).toMatch(/export const workerRowModules = \[\n {2}widgetsSweepWorker,\n\] as const;/);
  });

  it('changes when a route or a worker is added, so the committed index no longer matches', async () => {
    const before = await registrySource(repository(base));
    const withRoute = await registrySource(
      repository({ ...base, 'functions/widgets/delete.route.ts': routeFile('functions/widgets/delete.ts'), 'functions/widgets/delete.ts': '' }),
    );
    expect(withRoute).not.toBe(before);
    expect(withRoute).toContain('widgetsDeleteRoute');
    const withWorker = await registrySource(
      repository({ ...base, 'functions/widgets/expire.worker-row.ts': workerRow('functions/widgets/expire.worker.ts'), 'functions/widgets/expire.worker.ts': '' }),
    );
    expect(withWorker).not.toBe(before);
    expect(withWorker).toContain('widgetsExpireWorker');
  });

  it('refuses a worker without its row, a row that names another handler, and a tool outside compositions/', async () => {
    await expect(registrySource(repository({ ...base, 'functions/widgets/expire.worker.ts': '' }))).rejects.toThrow(
      "functions/widgets/expire.worker.ts: a worker's row is a <name>.worker-row.ts beside its handler",
    );
    await expect(registrySource(repository({ ...base, 'functions/widgets/put.route.ts': routeFile('functions/widgets/get.ts') }))).rejects.toThrow(
      'functions/widgets/put.route.ts names the handler functions/widgets/get.ts; its handler is the file beside it, functions/widgets/put.ts',
    );
    await expect(registrySource(repository({ ...base, 'functions/widgets/count.tool.ts': compositeTool('count_widgets') }))).rejects.toThrow(
      'functions/widgets/count.tool.ts: a tool that composes routes lives in functions/mcp/compositions/',
    );
    await expect(registrySource(repository({ ...base, 'functions/mcp/compositions/other.tool.ts': compositeTool('count_widgets') }))).rejects.toThrow(
      'functions/mcp/compositions/other.tool.ts declares count_widgets: name the file after its tool',
    );
  });
});

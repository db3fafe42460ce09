// The files a route can ship beside its bundle (a row's `bundledFiles`), and how each is built. CDK
// builds them at synth (lib/api-function.ts copies them into the bundle); the local runtime and the
// benchmark build them into a folder named by BUNDLED_FILES_DIR. Each is built from the route index
// here, so that no function bundles the index to build one. A bundled file may be a folder.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { App, Stack } from 'aws-cdk-lib';
import type { Construct } from 'constructs';
import { routeList } from '../functions/registry.ts';
import { servedOn, type BundledFile } from '../shared/http/route-table.ts';
import type { Stage } from '../shared/resources.ts';
import { storedFileName } from '../shared/http/reference-assets.ts';
import { buildOpenApiDocument } from '../shared/openapi/document.ts';
import { routeMethodsTable } from '../shared/http/route-methods.ts';
import { buildAgentCard } from './agent-card.ts';
import { buildReferenceAssets } from './reference-assets.ts';
import { searchWordsFile } from './search-words.ts';
import { buildLlmsTxt } from '../shared/openapi/llms-txt.ts';
import { houseCatalogRows } from './house-catalog.ts';
import { buildDashboardPage } from './dashboard-page.ts';

/** Each writes its file (or folder) at the given path, for the stage's routes (the sandbox's test helpers only in `test`). */
const BUILDERS: Record<BundledFile, (target: string, stage: Stage) => void> = {
  'openapi.json': (target, stage) => writeFileSync(target, JSON.stringify(buildOpenApiDocument(routeList.filter(servedOn(stage))))),
  'reference-assets.json': (target) => writeFileSync(target, JSON.stringify(buildReferenceAssets().manifest)),
  'reference-assets': (target) => {
    rmSync(target, { recursive: true, force: true }); // no files of an earlier build
    mkdirSync(target);
    for (const asset of buildReferenceAssets().assets) {
      writeFileSync(path.join(target, storedFileName(asset.name, 'identity')), asset.identity);
      writeFileSync(path.join(target, storedFileName(asset.name, 'br')), asset.br);
      writeFileSync(path.join(target, storedFileName(asset.name, 'gzip')), asset.gzip);
    }
  },
  'search-words.json': (target) => writeFileSync(target, searchWordsFile()),
  'llms.txt': (target, stage) => writeFileSync(target, buildLlmsTxt(routeList.filter(servedOn(stage)))),
  // The fallback answers 405 with Allow for a known path: the paths and methods only, no schemas.
  'route-methods.json': (target, stage) => writeFileSync(target, JSON.stringify(routeMethodsTable(routeList.filter(servedOn(stage))))),
  'agent-card.json': (target, stage) => writeFileSync(target, JSON.stringify(buildAgentCard(stage))),
  'house-catalog.json': (target) => writeFileSync(target, JSON.stringify(houseCatalogRows())),
  // The dashboard page with its bundled script and its Content-Security-Policy (lib/dashboard-page.ts).
  'dashboard.json': (target) => writeFileSync(target, JSON.stringify(buildDashboardPage())),
};

const builtForStack = new WeakMap<Stack, Record<BundledFile, string>>();

/**
 * The bundled files of a stack's functions (routes and workers alike), built once per synth into the
 * cloud assembly's folder: name → path on this machine.
 */
export function bundledFilesOf(scope: Construct, stage: Stage): Record<BundledFile, string> {
  const stack = Stack.of(scope);
  let built = builtForStack.get(stack);
  if (!built) {
    const root = stack.node.root;
    const outdir = App.isApp(root) ? root.outdir : path.resolve('cdk.out');
    built = writeBundledFiles(path.join(outdir, `bundled-files-${stack.stackName}`), stage);
    builtForStack.set(stack, built);
  }
  return built;
}

/** Builds every bundled file of the stage into `dir`; returns their paths by name. */
export function writeBundledFiles(dir: string, stage: Stage): Record<BundledFile, string> {
  mkdirSync(dir, { recursive: true });
  const paths = {} as Record<BundledFile, string>;
  for (const [name, build] of Object.entries(BUILDERS) as [BundledFile, (target: string, stage: Stage) => void][]) {
    const target = path.join(dir, name);
    build(target, stage);
    paths[name] = target;
  }
  return paths;
}

// The files a route can ship beside its bundle (a row's `bundledFiles`), and how each is built. CDK
// builds them at synth (lib/api-function.ts copies them into the bundle); the local runtime and the
// benchmark build them into a folder named by BUNDLED_FILES_DIR. Each is built from the route index
// here, so that no function bundles the index to build one.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { routeList } from '../functions/route-index.ts';
import type { BundledFile } from '../shared/http/route-table.ts';
import { buildOpenApiDocument } from '../shared/openapi/document.ts';
import { buildLlmsTxt } from '../shared/openapi/llms-txt.ts';

const BUILDERS: Record<BundledFile, () => string> = {
  'openapi.json': () => JSON.stringify(buildOpenApiDocument(routeList)),
  'llms.txt': () => buildLlmsTxt(routeList),
};

/** Builds every bundled file into `dir`; returns their paths by name. */
export function writeBundledFiles(dir: string): Record<BundledFile, string> {
  mkdirSync(dir, { recursive: true });
  const paths = {} as Record<BundledFile, string>;
  for (const [name, build] of Object.entries(BUILDERS) as [BundledFile, () => string][]) {
    const file = path.join(dir, name);
    writeFileSync(file, build());
    paths[name] = file;
  }
  return paths;
}

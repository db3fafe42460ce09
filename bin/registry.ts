// `npm run registry`: regenerates functions/registry.generated.ts, the index of every route, MCP tool and
// event worker, from the files that declare them (lib/registry-source.ts).
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { REGISTRY_FILE, registrySource } from '../lib/registry-source.ts';

const root = path.resolve(import.meta.dirname, '..');
writeFileSync(path.join(root, REGISTRY_FILE), await registrySource(root));
console.log(`wrote ${REGISTRY_FILE}`);

// `npm run docs`: regenerates the documents built from code (docs/endpoints.md).
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { endpointsMarkdown } from '../lib/endpoints-doc.ts';

const file = path.resolve(import.meta.dirname, '..', 'docs', 'endpoints.md');
writeFileSync(file, endpointsMarkdown());
console.log(`wrote ${path.relative(process.cwd(), file)}`);

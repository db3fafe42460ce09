// `npm run docs`: regenerates the files built from code (docs/endpoints.md). The search's word data
// (English words, country names) is built at synth and at local start instead (lib/search-words.ts).
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { endpointsMarkdown } from '../lib/endpoints-doc.ts';

const root = path.resolve(import.meta.dirname, '..');
for (const [file, content] of [
  [path.join(root, 'docs', 'endpoints.md'), endpointsMarkdown()],
] as const) {
  writeFileSync(file, content);
  console.log(`wrote ${path.relative(process.cwd(), file)}`);
}

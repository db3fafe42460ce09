// `npm run docs`: regenerates the files built from code and data: docs/endpoints.md (from the route
// index) and the table docs/performance.md leads with (from bench/results.json, between its markers).
// The search's word data (English words, country names) is built at synth and at local start instead
// (lib/search-words.ts).
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { endpointsMarkdown } from '../lib/endpoints-doc.ts';
import { performanceMarkdown, readBenchResults } from '../lib/performance-doc.ts';

const root = path.resolve(import.meta.dirname, '..');
const performanceFile = path.join(root, 'docs', 'performance.md');
for (const [file, content] of [
  [path.join(root, 'docs', 'endpoints.md'), endpointsMarkdown()],
  [performanceFile, performanceMarkdown(readFileSync(performanceFile, 'utf8'), readBenchResults(root))],
] as const) {
  writeFileSync(file, content);
  console.log(`wrote ${path.relative(process.cwd(), file)}`);
}

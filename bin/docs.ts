// `npm run docs`: regenerates the files built from code and data (docs/endpoints.md, the country names table).
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { countryNamesModule } from '../lib/country-names.ts';
import { endpointsMarkdown } from '../lib/endpoints-doc.ts';

const root = path.resolve(import.meta.dirname, '..');
for (const [file, content] of [
  [path.join(root, 'docs', 'endpoints.md'), endpointsMarkdown()],
  [path.join(root, 'shared', 'schemas', 'country-names.ts'), countryNamesModule()],
] as const) {
  writeFileSync(file, content);
  console.log(`wrote ${path.relative(process.cwd(), file)}`);
}

// `npm run sdk:types`: regenerates the SDK's operation types from the route index's OpenAPI document.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { SDK_TYPES_FILE, sdkTypesModule } from '../lib/sdk-types.ts';

const file = path.resolve(import.meta.dirname, '..', SDK_TYPES_FILE);
writeFileSync(file, await sdkTypesModule());
console.log(`wrote ${path.relative(process.cwd(), file)}`);

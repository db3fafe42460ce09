// The SDK's committed operation types must be what openapi-typescript makes of the current document.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { SDK_TYPES_FILE, sdkTypesModule } from '../../lib/sdk-types.ts';

describe(SDK_TYPES_FILE, () => {
  it('is up to date with the OpenAPI document (run npm run sdk:types)', async () => {
    const committed = readFileSync(SDK_TYPES_FILE, 'utf8');
    const current = await sdkTypesModule();
    if (committed !== current) {
      throw new Error(`${SDK_TYPES_FILE} is stale: the OpenAPI document changed. Run \`npm run sdk:types\` and commit the result.`);
    }
    expect(committed).toContain('export interface operations');
  });
});

// The API reference's files as built for the bundle (lib/reference-assets.ts) and as the asset
// function answers them to Lambda: named by their content, every encoding the same bytes, nothing
// that loads from another origin, and every response within Lambda's 6 MB payload limit once
// API Gateway's base64 encoding of binary bodies is counted.
import { createHash } from 'node:crypto';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { buildReferenceAssets } from '../../lib/reference-assets.ts';
import { handler } from '../../functions/docs/get-asset.ts';
import { routeEvent } from '../../lib/local/lambda-events.ts';
import { lambdaContext } from '../../lib/local/lambda.ts';

/** Lambda's limit on a synchronous invocation's response payload. */
const LAMBDA_RESPONSE_LIMIT = 6 * 1024 * 1024;

describe('the reference page’s assets', () => {
  const { assets, manifest } = buildReferenceAssets();

  it('are Redoc and the module that starts it, each named by a hash of its content', () => {
    expect(assets.map((asset) => asset.name)).toEqual([expect.stringMatching(/^redoc-\d+\.\d+\.\d+\.[0-9a-f]{10}\.js$/), expect.stringMatching(/^reference\.[0-9a-f]{10}\.js$/)]);
    for (const asset of assets) {
      const hash = createHash('sha256').update(asset.identity).digest('hex').slice(0, 10);
      expect(asset.name).toContain(`.${hash}.js`);
      expect(brotliDecompressSync(asset.br).equals(asset.identity)).toBe(true);
      expect(gunzipSync(asset.gzip).equals(asset.identity)).toBe(true);
    }
    expect(manifest.entry).toBe(`/docs/assets/${assets[1]!.name}`);
    expect(manifest.modules).toEqual([`/docs/assets/${assets[0]!.name}`]);
  });

  it('start Redoc on the served document with telemetry off and hash routes, and load nothing from a CDN', () => {
    const [redoc, start] = assets;
    const startSource = start!.identity.toString('utf8');
    expect(startSource).toContain(`from './${redoc!.name}'`);
    expect(startSource).toContain(`init('/v1/openapi.json', { disableTelemetry: true, router: 'hash' }`);
    const redocSource = redoc!.identity.toString('utf8');
    expect(redocSource).not.toContain('cdn.redoc.ly');
    expect(redocSource).not.toMatch(/src:\s*`https:/);
  });

  it.each(['br', 'gzip', 'identity'])('each fits in a Lambda response when sent %s', async (encoding) => {
    for (const asset of assets) {
      // What the function returns to API Gateway.
      const event = routeEvent(handler.route, `/docs/assets/${asset.name}`, { headers: { 'accept-encoding': encoding } });
      const result = await handler(event, lambdaContext(handler.route.operationId, 10_000));
      expect(result.statusCode).toBe(200);
      expect(result.isBase64Encoded ?? false).toBe(encoding !== 'identity');
      const bytes = Buffer.from(result.body!, result.isBase64Encoded ? 'base64' : 'utf8');
      expect(bytes.equals(encoding === 'br' ? asset.br : encoding === 'gzip' ? asset.gzip : asset.identity)).toBe(true);
      const payload = Buffer.byteLength(JSON.stringify(result));
      console.log(`${asset.name} (${encoding}): ${(payload / 1024).toFixed(0)} kB of Lambda response`);
      expect(payload).toBeLessThan(LAMBDA_RESPONSE_LIMIT);
    }
  });
});

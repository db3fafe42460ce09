// Presigned feed upload URLs, as a deployed function makes them (S3's virtual host) and as the local
// runtime makes them (its upload proxy, path-style): only Host signed and no checksum in the URL, so
// that any client's PUT of the file is accepted. (The end-to-end tests PUT a file to a local one.)
import { afterEach, expect, it, vi } from 'vitest';

const KEY = 'feeds/agt_01JEXAMPLE/feed_01JEXAMPLE/01JUPLOAD.csv';
const saved = { ...process.env };

afterEach(() => {
  process.env = { ...saved };
  vi.resetModules();
});

/** A URL from a fresh copy of the module, created as a function's cold start creates it, in `env`. */
async function presignedIn(env: Record<string, string | undefined>): Promise<URL> {
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  vi.resetModules();
  const { presignFeedUpload } = await import('../../shared/data/feed-files.ts');
  return new URL(await presignFeedUpload(KEY, 900));
}

const DEPLOYED = {
  AWS_REGION: 'eu-west-1',
  AWS_ACCESS_KEY_ID: 'AKIDEXAMPLE',
  AWS_SECRET_ACCESS_KEY: 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY',
  FEEDS_BUCKET_NAME: 'marketplace-feeds-1a2b',
  AWS_ENDPOINT_URL_S3: undefined,
  AWS_ENDPOINT_URL: undefined,
  FEEDS_UPLOAD_ENDPOINT: undefined,
};

function expectPresignedPut(url: URL): void {
  expect(url.searchParams.get('X-Amz-Algorithm')).toBe('AWS4-HMAC-SHA256');
  expect(url.searchParams.get('X-Amz-SignedHeaders')).toBe('host');
  expect(url.searchParams.get('X-Amz-Content-Sha256')).toBe('UNSIGNED-PAYLOAD');
  expect(url.searchParams.get('X-Amz-Expires')).toBe('900');
  expect(url.searchParams.get('X-Amz-Signature')).toMatch(/^[0-9a-f]{64}$/);
  // A checksum in the URL would be the empty body's, which S3 would hold the uploaded file to.
  expect([...url.searchParams.keys()].filter((name) => /checksum/i.test(name))).toEqual([]);
}

it('signs a PUT on the bucket’s virtual host in AWS', async () => {
  const url = await presignedIn(DEPLOYED);
  expect(url.origin).toBe('https://marketplace-feeds-1a2b.s3.eu-west-1.amazonaws.com');
  expect(url.pathname).toBe(`/${KEY}`);
  expect(url.searchParams.get('X-Amz-Credential')).toMatch(/^AKIDEXAMPLE\/\d{8}\/eu-west-1\/s3\/aws4_request$/);
  expectPresignedPut(url);
});

it('signs a PUT on the local upload proxy, path-style, in the local runtime', async () => {
  const url = await presignedIn({ ...DEPLOYED, AWS_ENDPOINT_URL_S3: 'http://127.0.0.1:4566', FEEDS_UPLOAD_ENDPOINT: 'http://127.0.0.1:4571' });
  expect(url.origin).toBe('http://127.0.0.1:4571');
  expect(url.pathname).toBe(`/marketplace-feeds-1a2b/${KEY}`);
  expectPresignedPut(url);
});

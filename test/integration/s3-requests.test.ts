// Our S3 requests against an HTTP server answering as S3 does in the cases the local emulator never
// produces: throttling, a 200 that carries an error, a partial DeleteObjects, paged listings.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { completeMultipartUpload, copyObject, deleteObjects, getObject, headObject, listObjectsV2, putObject, S3RequestError } from '../../shared/data/s3-requests.ts';

interface Seen {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

let server: Server;
let seen: Seen[] = [];
/** The answers still to give, in order; then 200 with an empty body. */
let answers: { status: number; body?: string; headers?: Record<string, string> }[] = [];

beforeAll(async () => {
  server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      seen.push({ method: request.method ?? '', url: request.url ?? '', headers: request.headers, body: Buffer.concat(chunks).toString('utf8') });
      const answer = answers.shift() ?? { status: 200 };
      response.writeHead(answer.status, { 'content-type': 'application/xml', ...answer.headers });
      response.end(request.method === 'HEAD' ? undefined : (answer.body ?? ''));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  Object.assign(process.env, { AWS_ENDPOINT_URL_S3: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, AWS_ACCESS_KEY_ID: 'test', AWS_SECRET_ACCESS_KEY: 'test', AWS_REGION: 'us-east-1' });
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

beforeEach(() => {
  seen = [];
  answers = [];
});

const error = (code: string, message: string) => `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${code}</Code><Message>${message}</Message><RequestId>R1</RequestId></Error>`;

describe('S3 requests', () => {
  it('sends a signed PUT of the body, path-style to the configured endpoint', async () => {
    await putObject({ Bucket: 'feeds', Key: 'feeds/agt_1/feed_1/A B.csv', Body: Buffer.from('sku,title\n'), ContentType: 'text/csv' });
    expect(seen).toHaveLength(1);
    const [put] = seen as [Seen];
    expect(put.method).toBe('PUT');
    expect(put.url).toBe('/feeds/feeds/agt_1/feed_1/A%20B.csv');
    expect(put.body).toBe('sku,title\n');
    expect(put.headers['content-type']).toBe('text/csv');
    expect(put.headers['x-amz-content-sha256']).toMatch(/^[0-9a-f]{64}$/);
    expect(put.headers.authorization).toMatch(/^AWS4-HMAC-SHA256 Credential=test\/\d{8}\/us-east-1\/s3\/aws4_request, SignedHeaders=[a-z0-9;-]*host[a-z0-9;-]*, Signature=[0-9a-f]{64}$/);
  });

  it('sends a throttled request again after S3’s SlowDown, and returns the object', async () => {
    answers = [{ status: 503, body: error('SlowDown', 'Please reduce your request rate.') }, { status: 200, body: 'the file' }];
    const { body } = await getObject({ Bucket: 'feeds', Key: 'feeds/a.csv', Range: 'bytes=4-' });
    let text = '';
    for await (const chunk of body) text += String(chunk);
    expect(text).toBe('the file');
    expect(seen.map((request) => [request.method, request.headers.range])).toEqual([['GET', 'bytes=4-'], ['GET', 'bytes=4-']]);
  });

  it('throws S3’s refusal by its code without sending it again; a HEAD’s 404 is NotFound', async () => {
    answers = [{ status: 404, body: error('NoSuchKey', 'The specified key does not exist.') }];
    await expect(getObject({ Bucket: 'feeds', Key: 'feeds/missing.csv' })).rejects.toMatchObject({ name: 'NoSuchKey', message: 'The specified key does not exist.', $metadata: { httpStatusCode: 404 } });
    answers = [{ status: 404 }];
    await expect(headObject({ Bucket: 'feeds', Key: 'feeds/missing.csv' })).rejects.toBeInstanceOf(S3RequestError);
    expect(seen).toHaveLength(2);
    answers = [{ status: 200, headers: { 'content-length': '42' } }];
    expect(await headObject({ Bucket: 'feeds', Key: 'feeds/there.csv' })).toEqual({ contentLength: 42 });
  });

  it('gives up after three attempts at an S3 that keeps failing', async () => {
    answers = [0, 1, 2, 3].map(() => ({ status: 500, body: error('InternalError', 'We encountered an internal error. Please try again.') }));
    await expect(putObject({ Bucket: 'feeds', Key: 'feeds/a.csv', Body: Buffer.from('x') })).rejects.toMatchObject({ name: 'InternalError' });
    expect(seen).toHaveLength(3);
  });

  it('sends a CopyObject answered 200 with an error in its body again, as the S3 client does, and throws the error when it persists', async () => {
    answers = [{ status: 200, body: error('InternalError', 'We encountered an internal error.') }, { status: 200, body: '<CopyObjectResult><ETag>"e"</ETag></CopyObjectResult>' }];
    await copyObject({ Bucket: 'feeds', Key: 'feeds/b.csv', CopySource: 'feeds/feeds/a.csv' });
    expect(seen.map((request) => [request.method, request.url, request.headers['x-amz-copy-source']])).toEqual([
      ['PUT', '/feeds/feeds/b.csv', 'feeds/feeds/a.csv'],
      ['PUT', '/feeds/feeds/b.csv', 'feeds/feeds/a.csv'],
    ]);
    seen = [];
    // Whitespace before the error: S3 keeps a long copy's connection open with it.
    answers = [0, 1, 2].map(() => ({ status: 200, body: `\n\n${error('InternalError', 'We encountered an internal error.')}\n` }));
    await expect(copyObject({ Bucket: 'feeds', Key: 'feeds/b.csv', CopySource: 'feeds/feeds/a.csv' })).rejects.toMatchObject({ name: 'InternalError', message: 'We encountered an internal error.', $metadata: { httpStatusCode: 503 } });
    expect(seen).toHaveLength(3);
  });

  it('sends a CompleteMultipartUpload answered 200 with nothing again; an error that is not S3’s fault is not retried', async () => {
    answers = [{ status: 200 }, { status: 200, body: '<CompleteMultipartUploadResult><Key>k</Key></CompleteMultipartUploadResult>' }];
    await completeMultipartUpload({ Bucket: 'feeds', Key: 'snapshots/s.db', UploadId: 'u1', Parts: [{ PartNumber: 1, ETag: '"e1"' }] });
    expect(seen.map((request) => request.url)).toEqual(['/feeds/snapshots/s.db?uploadId=u1', '/feeds/snapshots/s.db?uploadId=u1']);
    // The ETag's quotes escaped, as the S3 client's XML builder (the same XmlNode) writes them.
    expect(seen[1]?.body).toBe('<CompleteMultipartUpload><Part><PartNumber>1</PartNumber><ETag>&quot;e1&quot;</ETag></Part></CompleteMultipartUpload>');
    seen = [];
    answers = [{ status: 400, body: error('InvalidPart', 'One or more of the specified parts could not be found.') }];
    await expect(completeMultipartUpload({ Bucket: 'feeds', Key: 'snapshots/s.db', UploadId: 'u1', Parts: [{ PartNumber: 1, ETag: '"e1"' }] })).rejects.toMatchObject({ name: 'InvalidPart', $metadata: { httpStatusCode: 400 } });
    expect(seen).toHaveLength(1);
  });

  it('deletes with a checksummed XML body, and throws the keys S3 could not delete', async () => {
    answers = [{ status: 200, body: '<DeleteResult><Error><Key>feeds/b.csv</Key><Code>AccessDenied</Code><Message>Access Denied</Message></Error></DeleteResult>' }];
    await expect(deleteObjects({ Bucket: 'feeds', Delete: { Objects: [{ Key: 'feeds/a.csv' }, { Key: 'feeds/b&c.csv' }] } })).rejects.toMatchObject({ name: 'AccessDenied' });
    const [request] = seen as [Seen];
    expect(request.method).toBe('POST');
    expect(request.url).toBe('/feeds?delete=');
    expect(request.body).toBe('<Delete><Quiet>true</Quiet><Object><Key>feeds/a.csv</Key></Object><Object><Key>feeds/b&amp;c.csv</Key></Object></Delete>');
    expect(request.headers['content-md5']).toMatch(/^[A-Za-z0-9+/]{22}==$/);
    answers = [{ status: 200, body: '<DeleteResult></DeleteResult>' }];
    await deleteObjects({ Bucket: 'feeds', Delete: { Objects: [{ Key: 'feeds/a.csv' }] } });
  });

  it('reads one key, several keys and the continuation of a listing', async () => {
    answers = [
      { status: 200, body: '<ListBucketResult><IsTruncated>true</IsTruncated><Contents><Key>feeds/a.csv</Key></Contents><NextContinuationToken>t&amp;2</NextContinuationToken></ListBucketResult>' },
      { status: 200, body: '<ListBucketResult><IsTruncated>false</IsTruncated><Contents><Key>feeds/b.csv</Key></Contents><Contents><Key>feeds/c.csv</Key></Contents></ListBucketResult>' },
      { status: 200, body: '<ListBucketResult><IsTruncated>false</IsTruncated></ListBucketResult>' },
    ];
    expect(await listObjectsV2({ Bucket: 'feeds', Prefix: 'feeds/' })).toEqual({ keys: ['feeds/a.csv'], nextContinuationToken: 't&2' });
    expect(await listObjectsV2({ Bucket: 'feeds', Prefix: 'feeds/', ContinuationToken: 't&2' })).toEqual({ keys: ['feeds/b.csv', 'feeds/c.csv'], nextContinuationToken: undefined });
    expect(await listObjectsV2({ Bucket: 'feeds', Prefix: 'feeds/' })).toEqual({ keys: [], nextContinuationToken: undefined });
    expect(seen[1]?.url).toBe('/feeds?continuation-token=t%262&list-type=2&prefix=feeds%2F');
  });
});

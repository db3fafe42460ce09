// The S3 requests of the feeds bucket, made with the AWS SDK's own parts — its SigV4 signer, Node
// HTTP handler, standard retry strategy and XML parser — instead of its S3 client, whose module
// evaluation alone cost every cold start of a function touching the bucket more than a quarter of a
// minimal function's (docs/decisions/s3-requests-of-our-own.md). Each operation takes the S3
// client's input shape, so that the local runtime's grant checks read the same fields.
// Endpoints: AWS_ENDPOINT_URL_S3 (the local emulator, path-style), else the bucket's virtual host.
import { createHash } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { parseXML, XmlNode } from '@aws-sdk/xml-builder';
import { formatUrl } from '@aws-sdk/core/util';
import { Sha256 } from '@smithy/core/checksum';
import { StandardRetryStrategy, isServerError, isThrottlingError, isTransientError } from '@smithy/core/retry';
import { HttpRequest } from '@smithy/core/transport';
import { NodeHttpHandler } from '@smithy/node-http-handler';
import { SignatureV4 } from '@smithy/signature-v4';
import type { Readable } from 'node:stream';
import { dynamoDb } from './client.ts';

export type S3Operation =
  | 'GetObject'
  | 'HeadObject'
  | 'PutObject'
  | 'CopyObject'
  | 'ListObjectsV2'
  | 'DeleteObjects'
  | 'CreateMultipartUpload'
  | 'UploadPart'
  | 'CompleteMultipartUpload'
  | 'AbortMultipartUpload';

/** The fields of an operation's input that name what it touches (the S3 client's names). */
export interface S3Input {
  Bucket: string;
  Key?: string;
  Prefix?: string;
  CopySource?: string;
  Delete?: { Objects: { Key: string }[] };
}

/** S3's refusal: `name` is S3's error code (NoSuchKey, AccessDenied, …), as the S3 client names it. */
export class S3RequestError extends Error {
  /** Where the SDK's error classification reads the status. */
  readonly $metadata: { httpStatusCode: number };
  constructor(name: string, message: string, status: number) {
    super(message);
    this.name = name;
    this.$metadata = { httpStatusCode: status };
  }
}

/** The S3 client's name for an error answer: S3's code, or, without a body (HEAD), its status's. */
export function s3ErrorName(status: number, code: string | undefined): string {
  if (code) return code;
  return { 301: 'PermanentRedirect', 304: 'NotModified', 400: 'BadRequest', 403: 'Forbidden', 404: 'NotFound', 412: 'PreconditionFailed', 416: 'InvalidRange' }[status] ?? 'UnknownError';
}

/** Whether a failed attempt is sent again, and how the retry strategy paces it: the AWS SDK's own classification. */
export function s3AttemptKind(failure: unknown): 'THROTTLING' | 'TRANSIENT' | 'SERVER_ERROR' | undefined {
  if (!(failure instanceof Error)) return undefined;
  const error = failure as Parameters<typeof isTransientError>[0];
  if (isThrottlingError(error)) return 'THROTTLING';
  if (isTransientError(error)) return 'TRANSIENT';
  if (isServerError(error)) return 'SERVER_ERROR';
  return undefined;
}

/** Called with each operation before it is sent: the local runtime checks its function's grants here. */
type BeforeSend = (operation: S3Operation, input: S3Input) => void;
let beforeSend: BeforeSend | undefined;

export function checkS3RequestsWith(check: BeforeSend): void {
  beforeSend = check;
}

// Module scope, pure: a bundle that never touches the bucket drops them.
/**
 * Its settings given as a function, as the SDK's clients give theirs: its HTTP agents (and Node's
 * `https`) are made by the first request, not at import, where they cost a cold start 10 M instructions.
 */
const http = /* @__PURE__ */ new NodeHttpHandler(() => Promise.resolve({ connectionTimeout: 10_000, requestTimeout: 60_000 }));
const retries = /* @__PURE__ */ new StandardRetryStrategy(3);
/** S3 signs the path as it is sent (no second escaping) and wants the payload's hash in a header. */
const signer = /* @__PURE__ */ new SignatureV4({
  service: 's3',
  region: () => dynamoDb.config.region(),
  credentials: () => dynamoDb.config.credentials(),
  sha256: Sha256,
  uriEscapePath: false,
  applyChecksum: true,
});

/** RFC 3986 escaping of one path segment, as S3 expects it. */
function escapeSegment(segment: string): string {
  return encodeURIComponent(segment).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

interface Target {
  bucket: string;
  key?: string;
  /** An endpoint other than S3's own (the local emulator or upload proxy): path-style addressing. */
  endpoint?: string;
}

async function requestFor(target: Target, method: string, query: Record<string, string>, headers: Record<string, string>, body?: Buffer): Promise<HttpRequest> {
  const keyPath = target.key === undefined ? '/' : `/${target.key.split('/').map(escapeSegment).join('/')}`;
  const endpoint = target.endpoint ?? process.env.AWS_ENDPOINT_URL_S3 ?? process.env.AWS_ENDPOINT_URL;
  const url = endpoint ? new URL(endpoint) : new URL(`https://${target.bucket}.s3.${await dynamoDb.config.region()}.amazonaws.com`);
  const path = endpoint ? `${url.pathname.replace(/\/$/, '')}/${target.bucket}${keyPath === '/' ? '' : keyPath}` : keyPath;
  return new HttpRequest({
    protocol: url.protocol,
    hostname: url.hostname,
    ...(url.port ? { port: Number(url.port) } : {}),
    method,
    path,
    query,
    headers: { host: url.host, ...headers, ...(body ? { 'content-length': String(body.length) } : {}) },
    ...(body ? { body } : {}),
  });
}

async function readText(stream: Readable): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** The `<Error>` of a response body, when it is one (S3 answers some failures with a 200). */
function errorIn(xml: string): { code: string; message: string } | undefined {
  if (!xml.includes('<Error>')) return undefined;
  const error = (parseXML(xml) as { Error?: { Code?: string; Message?: string } }).Error;
  return error ? { code: error.Code ?? 'UnknownError', message: error.Message ?? '' } : undefined;
}

interface S3Response {
  status: number;
  headers: Record<string, string>;
  body: IncomingMessage;
}

/**
 * Signs and sends one request, with the SDK's standard retry strategy (3 attempts) on throttling,
 * server errors and dropped connections; anything else not 2xx is thrown as S3's error. A 2xx is
 * handed to `accept`, whose throw counts as the attempt's failure (and is retried when it is one the
 * strategy retries). `build` runs per attempt: a signature holds the time it was made.
 */
async function attempt<T>(operation: S3Operation, input: S3Input, build: () => Promise<HttpRequest>, accept: (response: S3Response) => Promise<T>): Promise<T> {
  beforeSend?.(operation, input);
  let token = await retries.acquireInitialRetryToken('s3');
  for (;;) {
    let failure: unknown;
    try {
      const request = (await signer.sign(await build())) as HttpRequest;
      const { response } = await http.handle(request);
      const body = response.body as IncomingMessage;
      const status = response.statusCode;
      if (status < 300) {
        const accepted = await accept({ status, headers: response.headers, body });
        retries.recordSuccess(token);
        return accepted;
      }
      const text = operation === 'HeadObject' ? (body.resume(), '') : await readText(body);
      const error = errorIn(text);
      failure = new S3RequestError(s3ErrorName(status, error?.code), error?.message || `S3 answered ${status} to ${operation}`, status);
    } catch (error) {
      failure = error;
    }
    const kind = s3AttemptKind(failure);
    if (!kind) throw failure;
    try {
      token = await retries.refreshRetryTokenForRetry(token, { errorType: kind });
    } catch {
      throw failure;
    }
  }
}

/** One request whose answer is read as a stream (or not at all). */
function send(operation: S3Operation, input: S3Input, build: () => Promise<HttpRequest>): Promise<S3Response> {
  return attempt(operation, input, build, (response) => Promise.resolve(response));
}

/** Operations whose 2xx must carry a body: an empty one means S3 dropped the request. */
const ANSWERS_WITH_BODY: ReadonlySet<S3Operation> = new Set(['CopyObject', 'CompleteMultipartUpload']);

/**
 * One request whose answer is an XML document, returned as text. S3 answers some failures with a 200
 * whose body is an `<Error>` (CopyObject and CompleteMultipartUpload fail that way after the request
 * was accepted), or with an empty 200: the S3 client treats both as a 503 (its throw-200-exceptions
 * middleware), so they are retried as one, and thrown as S3's error when the attempts run out.
 */
function sendForText(operation: S3Operation, input: S3Input, build: () => Promise<HttpRequest>): Promise<string> {
  return attempt(operation, input, build, async (response) => {
    const text = await readText(response.body);
    if (text.length === 0 && ANSWERS_WITH_BODY.has(operation)) throw new S3RequestError('InternalError', `S3 aborted ${operation}`, 503);
    // As the S3 client checks: an answer that ends an <Error> (a DeleteResult listing per-key errors ends otherwise).
    if (text.trimEnd().endsWith('</Error>')) {
      const error = errorIn(text);
      throw new S3RequestError(error?.code ?? 'UnknownError', error?.message || `S3 refused ${operation}`, 503);
    }
    return text;
  });
}

/** One element or several: the XML parser gives an object for one, an array for more. */
function listOf<T>(value: T | T[] | undefined): T[] {
  return value === undefined ? [] : Array.isArray(value) ? value : [value];
}

export async function getObject(input: { Bucket: string; Key: string; Range?: string }): Promise<{ body: Readable; contentLength: number }> {
  const response = await send('GetObject', input, () => requestFor({ bucket: input.Bucket, key: input.Key }, 'GET', {}, input.Range ? { range: input.Range } : {}));
  return { body: response.body, contentLength: Number(response.headers['content-length'] ?? 0) };
}

export async function headObject(input: { Bucket: string; Key: string }): Promise<{ contentLength: number }> {
  const response = await send('HeadObject', input, () => requestFor({ bucket: input.Bucket, key: input.Key }, 'HEAD', {}, {}));
  response.body.resume();
  return { contentLength: Number(response.headers['content-length'] ?? 0) };
}

export async function putObject(input: { Bucket: string; Key: string; Body: Buffer; ContentType?: string }): Promise<void> {
  const headers: Record<string, string> = input.ContentType ? { 'content-type': input.ContentType } : {};
  const response = await send('PutObject', input, () => requestFor({ bucket: input.Bucket, key: input.Key }, 'PUT', {}, headers, input.Body));
  response.body.resume();
}

/** `CopySource` is `bucket/key`, the key URL-escaped, as the S3 client takes it. */
export async function copyObject(input: { Bucket: string; Key: string; CopySource: string }): Promise<void> {
  await sendForText('CopyObject', input, () => requestFor({ bucket: input.Bucket, key: input.Key }, 'PUT', {}, { 'x-amz-copy-source': input.CopySource }));
}

export interface ListedObjects {
  keys: string[];
  nextContinuationToken: string | undefined;
}

export async function listObjectsV2(input: { Bucket: string; Prefix: string; ContinuationToken?: string }): Promise<ListedObjects> {
  const query: Record<string, string> = { 'list-type': '2', prefix: input.Prefix, ...(input.ContinuationToken ? { 'continuation-token': input.ContinuationToken } : {}) };
  const text = await sendForText('ListObjectsV2', input, () => requestFor({ bucket: input.Bucket }, 'GET', query, {}));
  const result = (parseXML(text) as { ListBucketResult?: { Contents?: { Key?: string } | { Key?: string }[]; IsTruncated?: string; NextContinuationToken?: string } }).ListBucketResult ?? {};
  return {
    keys: listOf(result.Contents).flatMap((object) => (object.Key ? [object.Key] : [])),
    nextContinuationToken: result.IsTruncated === 'true' ? result.NextContinuationToken : undefined,
  };
}

/** Up to 1,000 keys; quiet: S3 names only the objects it failed to delete, and those are thrown. */
export async function deleteObjects(input: { Bucket: string; Delete: { Objects: { Key: string }[] } }): Promise<void> {
  const document = new XmlNode('Delete').c(XmlNode.of('Quiet', 'true'));
  for (const object of input.Delete.Objects) document.c(new XmlNode('Object').c(XmlNode.of('Key', object.Key)));
  const body = Buffer.from(document.toString(), 'utf8');
  // S3 requires a checksum of a DeleteObjects body.
  const headers = { 'content-type': 'application/xml', 'content-md5': createHash('md5').update(body).digest('base64') };
  const text = await sendForText('DeleteObjects', input, () => requestFor({ bucket: input.Bucket }, 'POST', { delete: '' }, headers, body));
  const result = (parseXML(text) as { DeleteResult?: { Error?: { Key?: string; Code?: string; Message?: string } | { Key?: string; Code?: string; Message?: string }[] } }).DeleteResult ?? {};
  const failed = listOf(result.Error);
  if (failed.length > 0) {
    const first = failed[0] as { Key?: string; Code?: string; Message?: string };
    throw new S3RequestError(first.Code ?? 'UnknownError', `S3 did not delete ${failed.length} object(s), ${first.Key ?? '?'} first: ${first.Message ?? ''}`, 200);
  }
}

export async function createMultipartUpload(input: { Bucket: string; Key: string; ContentType?: string }): Promise<string> {
  const headers: Record<string, string> = input.ContentType ? { 'content-type': input.ContentType } : {};
  const text = await sendForText('CreateMultipartUpload', input, () => requestFor({ bucket: input.Bucket, key: input.Key }, 'POST', { uploads: '' }, headers));
  const uploadId = (parseXML(text) as { InitiateMultipartUploadResult?: { UploadId?: string } }).InitiateMultipartUploadResult?.UploadId;
  if (!uploadId) throw new S3RequestError('InvalidResponse', 'S3 started a multipart upload without an UploadId', 200);
  return uploadId;
}

/** The part's ETag, which completing the upload names. */
export async function uploadPart(input: { Bucket: string; Key: string; UploadId: string; PartNumber: number; Body: Buffer }): Promise<string> {
  const query = { partNumber: String(input.PartNumber), uploadId: input.UploadId };
  const response = await send('UploadPart', input, () => requestFor({ bucket: input.Bucket, key: input.Key }, 'PUT', query, {}, input.Body));
  response.body.resume();
  const etag = response.headers.etag;
  if (!etag) throw new S3RequestError('InvalidResponse', `S3 stored part ${input.PartNumber} without an ETag`, response.status);
  return etag;
}

export async function completeMultipartUpload(input: { Bucket: string; Key: string; UploadId: string; Parts: { PartNumber: number; ETag: string }[] }): Promise<void> {
  const document = new XmlNode('CompleteMultipartUpload');
  for (const part of input.Parts) document.c(new XmlNode('Part').c(XmlNode.of('PartNumber', String(part.PartNumber))).c(XmlNode.of('ETag', part.ETag)));
  const body = Buffer.from(document.toString(), 'utf8');
  await sendForText('CompleteMultipartUpload', input, () => requestFor({ bucket: input.Bucket, key: input.Key }, 'POST', { uploadId: input.UploadId }, { 'content-type': 'application/xml' }, body));
}

export async function abortMultipartUpload(input: { Bucket: string; Key: string; UploadId: string }): Promise<void> {
  const response = await send('AbortMultipartUpload', input, () => requestFor({ bucket: input.Bucket, key: input.Key }, 'DELETE', { uploadId: input.UploadId }, {}));
  response.body.resume();
}

/**
 * A URL that accepts a PUT of the object for `expiresInSeconds`, as the SDK's presigner signs it: no
 * header but Host signed (any client's PUT works), the payload unsigned. `endpoint`: another host
 * than S3's (the local upload proxy), path-style.
 */
export async function presignPutObject(input: { Bucket: string; Key: string }, expiresInSeconds: number, endpoint?: string, signingDate?: Date): Promise<string> {
  // `x-id` as the S3 client adds it: the URL is the one its presigner makes (test/unit/s3-requests.test.ts).
  const request = await requestFor({ bucket: input.Bucket, key: input.Key, ...(endpoint ? { endpoint } : {}) }, 'PUT', { 'x-id': 'PutObject' }, { 'X-Amz-Content-Sha256': 'UNSIGNED-PAYLOAD' });
  const presigned = await signer.presign(request, { expiresIn: expiresInSeconds, unsignableHeaders: new Set(['content-type']), ...(signingDate ? { signingDate } : {}) });
  return formatUrl(presigned);
}

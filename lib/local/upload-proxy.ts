// The local stand-in for S3's presigned PUT endpoint. The emulator (fauxqs) takes at most 11 MiB per
// request, and feed files run to 100 MiB, so presigned URLs point here: a PUT of any size is streamed
// into the emulator as a multipart upload (@aws-sdk/lib-storage), whose completion fires the same
// ObjectCreated notification a single PUT would. Like S3, an expired URL is refused (403, XML error);
// signatures are not checked (the emulator does not check them either).
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { S3Client } from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { localClientConfig } from './aws.ts';

export interface UploadProxy {
  endpoint: string;
  stop(): Promise<void>;
}

/** Parts of 8 MiB, four in flight: a 100 MiB file never holds more than ~32 MiB here. */
const PART_BYTES = 8 * 1024 * 1024;

function s3Error(response: ServerResponse, status: number, code: string, message: string): void {
  response.writeHead(status, { 'Content-Type': 'application/xml' });
  response.end(`<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${code}</Code><Message>${message}</Message></Error>`);
}

/** X-Amz-Date (20261122T101530Z) + X-Amz-Expires seconds, as epoch ms; undefined when the URL is not presigned. */
export function presignedExpiry(url: URL): number | undefined {
  const date = url.searchParams.get('X-Amz-Date');
  const expires = Number(url.searchParams.get('X-Amz-Expires'));
  const match = date ? /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(date) : null;
  if (!match || !Number.isInteger(expires)) return undefined;
  const [year, month, day, hour, minute, second] = match.slice(1).map(Number);
  return Date.UTC(year ?? 0, (month ?? 1) - 1, day, hour, minute, second) + expires * 1000;
}

export async function startUploadProxy(options: { fauxqsEndpoint: string; port?: number }): Promise<UploadProxy> {
  const s3 = new S3Client({ ...localClientConfig(options.fauxqsEndpoint), forcePathStyle: true });

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = new URL(request.url ?? '/', 'http://localhost');
    const [, bucket, ...keyParts] = url.pathname.split('/');
    const key = keyParts.map(decodeURIComponent).join('/');
    if (request.method !== 'PUT' || !bucket || !key) {
      request.resume();
      s3Error(response, 405, 'MethodNotAllowed', 'Only PUT to a presigned object URL is supported here');
      return;
    }
    const expiry = presignedExpiry(url);
    if (expiry === undefined) {
      request.resume();
      s3Error(response, 403, 'AccessDenied', 'Not a presigned URL');
      return;
    }
    if (Date.now() > expiry) {
      request.resume();
      s3Error(response, 403, 'AccessDenied', 'Request has expired');
      return;
    }
    const upload = new Upload({
      client: s3,
      // Not the client's content type: curl's default, application/x-www-form-urlencoded, would make the
      // emulator take the request for an SNS call. The feed's format is on its record anyway.
      params: { Bucket: bucket, Key: key, Body: request, ContentType: 'application/octet-stream' },
      partSize: PART_BYTES,
      queueSize: 4,
    });
    const result = await upload.done();
    response.writeHead(200, { ETag: result.ETag ?? '""', 'Content-Length': '0' });
    response.end();
  }

  const server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      if (!response.headersSent) s3Error(response, 500, 'InternalError', error instanceof Error ? error.message : 'Upload failed');
      else response.destroy();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', resolve);
  });
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    stop: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      s3.destroy();
    },
  };
}

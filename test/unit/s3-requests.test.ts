import { PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { describe, expect, it } from 'vitest';
import { S3RequestError, presignPutObject, s3AttemptKind, s3ErrorName } from '../../shared/data/s3-requests.ts';

const CREDENTIALS = { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY', sessionToken: 'session-token' };
Object.assign(process.env, { AWS_ACCESS_KEY_ID: CREDENTIALS.accessKeyId, AWS_SECRET_ACCESS_KEY: CREDENTIALS.secretAccessKey, AWS_SESSION_TOKEN: CREDENTIALS.sessionToken, AWS_REGION: 'eu-west-1' });
delete process.env.AWS_ENDPOINT_URL_S3;
delete process.env.AWS_ENDPOINT_URL;

const signingDate = new Date('2026-11-24T10:15:30Z');
const key = 'feeds/agt_01JEXAMPLE/feed_01JEXAMPLE/01JUPLOAD.csv';

/** The SDK's presigned PUT, configured as the feed uploads were before our own requests. */
function sdkPresigned(endpoint?: string): Promise<string> {
  const client = new S3Client({ region: 'eu-west-1', credentials: CREDENTIALS, requestChecksumCalculation: 'WHEN_REQUIRED', ...(endpoint ? { endpoint, forcePathStyle: true } : {}) });
  return getSignedUrl(client, new PutObjectCommand({ Bucket: 'marketplace-feeds-1a2b', Key: key }), { expiresIn: 900, signingDate });
}

describe('presignPutObject', () => {
  it('makes the URL the S3 client’s presigner makes, on S3’s virtual host', async () => {
    const ours = await presignPutObject({ Bucket: 'marketplace-feeds-1a2b', Key: key }, 900, undefined, signingDate);
    expect(ours).toBe(await sdkPresigned());
    expect(new URL(ours).host).toBe('marketplace-feeds-1a2b.s3.eu-west-1.amazonaws.com');
  });

  it('makes the same URL as the presigner for another endpoint, path-style (the local upload proxy)', async () => {
    const ours = await presignPutObject({ Bucket: 'marketplace-feeds-1a2b', Key: key }, 3600, 'http://127.0.0.1:4571', signingDate);
    const client = new S3Client({ region: 'eu-west-1', credentials: CREDENTIALS, requestChecksumCalculation: 'WHEN_REQUIRED', endpoint: 'http://127.0.0.1:4571', forcePathStyle: true });
    const theirs = await getSignedUrl(client, new PutObjectCommand({ Bucket: 'marketplace-feeds-1a2b', Key: key }), { expiresIn: 3600, signingDate });
    expect(ours).toBe(theirs);
    expect(new URL(ours).pathname).toBe(`/marketplace-feeds-1a2b/${key}`);
  });
});

describe('S3 error answers', () => {
  it('names an answer by S3’s code, or by its status when it has no body (HEAD), as the S3 client does', () => {
    expect(s3ErrorName(404, 'NoSuchKey')).toBe('NoSuchKey');
    expect(s3ErrorName(404, undefined)).toBe('NotFound');
    expect(s3ErrorName(416, undefined)).toBe('InvalidRange');
    expect(s3ErrorName(403, undefined)).toBe('Forbidden');
    expect(s3ErrorName(418, undefined)).toBe('UnknownError');
  });

  it('retries throttling, server errors and dropped connections, and nothing a request must change to pass', () => {
    expect(s3AttemptKind(new S3RequestError('SlowDown', 'Reduce your request rate', 503))).toBe('THROTTLING');
    expect(s3AttemptKind(new S3RequestError('UnknownError', '', 429))).toBe('THROTTLING');
    expect(s3AttemptKind(new S3RequestError('InternalError', 'We encountered an internal error', 500))).toBe('TRANSIENT');
    expect(s3AttemptKind(new S3RequestError('ServiceUnavailable', '', 503))).toBe('TRANSIENT');
    expect(s3AttemptKind(new S3RequestError('NotImplemented', '', 501))).toBe('SERVER_ERROR');
    expect(s3AttemptKind(Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' }))).toBe('TRANSIENT');
    expect(s3AttemptKind(Object.assign(new Error('timed out'), { name: 'TimeoutError' }))).toBe('TRANSIENT');
    for (const [name, status] of [['NoSuchKey', 404], ['AccessDenied', 403], ['InvalidRange', 416], ['NotFound', 404]] as const) {
      expect(s3AttemptKind(new S3RequestError(name, '', status)), name).toBeUndefined();
    }
    expect(s3AttemptKind('not an error')).toBeUndefined();
  });
});

// S3 event notifications (ObjectCreated → Lambda), emulated from fauxqs's message spy: every
// `uploaded` event for the watched bucket and prefix invokes the handler with an S3Event shaped as
// AWS sends it. Invocations are asynchronous, like S3's: several may run at once. A failed invocation
// is retried twice, as Lambda retries asynchronous invocations (after 1 and 2 s here, 1 and 2 min
// there), then handed to `deadLetter` (the worker's dead-letter queue, the on-failure destination).
import { randomBytes } from 'node:crypto';
import { HeadObjectCommand, S3Client } from '@aws-sdk/client-s3';
import type { S3Event } from 'aws-lambda';
import type { FauxqsServer, S3SpyEvent, SpyMessage } from 'fauxqs';
import { LOCAL_REGION, localClientConfig } from './aws.ts';
import { lambdaContext, type LambdaHandler } from './lambda.ts';

/** Lambda's default timeout for an event-driven function (getRemainingTimeInMillis). */
const FUNCTION_TIMEOUT_MS = 60_000;

export interface S3NotificationOptions {
  fauxqs: FauxqsServer;
  /** The fauxqs endpoint, to read the object's size and ETag. */
  endpoint: string;
  bucket: string;
  prefix?: string;
  functionName: string;
  /** The function's timeout (getRemainingTimeInMillis); Lambda's default 60 s for event sources when unset. */
  timeoutMs?: number;
  handler: LambdaHandler<S3Event, unknown>;
  /** Pauses before the retries of a failed invocation; default 1 and 2 s (Lambda's retryAttempts 2). */
  retryDelaysMs?: readonly number[];
  /** Receives the event of an invocation that failed every attempt. */
  deadLetter?: (event: S3Event, error: unknown, attempts: number) => Promise<void>;
  logError?: (message: string, error?: unknown) => void;
}

const RETRY_DELAYS_MS = [1_000, 2_000];

export interface S3Notifications {
  stop(): Promise<void>;
}

/** Object keys in S3 events are URL-encoded as by Java's URLEncoder, slashes kept: `a b/c+d` → `a+b/c%2Bd`. */
export function encodeEventKey(key: string): string {
  return encodeURIComponent(key)
    .replace(/[!'()~]/g, (character) => `%${character.charCodeAt(0).toString(16).toUpperCase()}`)
    .replace(/%20/g, '+')
    .replace(/%2F/g, '/');
}

async function objectCreatedEvent(s3: S3Client, upload: S3SpyEvent): Promise<S3Event> {
  let size = 0;
  let eTag = '';
  try {
    const head = await s3.send(new HeadObjectCommand({ Bucket: upload.bucket, Key: upload.key }));
    size = head.ContentLength ?? 0;
    eTag = (head.ETag ?? '').replace(/"/g, '');
  } catch {
    // Deleted again before we looked: S3 still reports the creation.
  }
  return {
    Records: [
      {
        eventVersion: '2.1',
        eventSource: 'aws:s3',
        awsRegion: LOCAL_REGION,
        eventTime: new Date(upload.timestamp).toISOString(),
        eventName: 'ObjectCreated:Put',
        userIdentity: { principalId: 'AWS:LOCAL' },
        requestParameters: { sourceIPAddress: '127.0.0.1' },
        responseElements: { 'x-amz-request-id': randomBytes(8).toString('hex').toUpperCase(), 'x-amz-id-2': randomBytes(24).toString('base64') },
        s3: {
          s3SchemaVersion: '1.0',
          configurationId: 'local-notification',
          bucket: { name: upload.bucket, ownerIdentity: { principalId: 'LOCAL' }, arn: `arn:aws:s3:::${upload.bucket}` },
          object: { key: encodeEventKey(upload.key), size, eTag, sequencer: upload.timestamp.toString(16).toUpperCase().padStart(16, '0') },
        },
      },
    ],
  };
}

export function startS3Notifications(options: S3NotificationOptions): S3Notifications {
  const prefix = options.prefix ?? '';
  const logError = options.logError ?? ((message: string, error?: unknown) => console.error(message, error ?? ''));
  const s3 = new S3Client(localClientConfig(options.endpoint));
  // Spy events are shared by every watcher and stay in the spy's buffer: remember which we handled.
  const handled = new WeakSet<SpyMessage>();
  const running = new Set<Promise<void>>();
  let stopped = false;
  let wake: () => void = () => undefined;
  const stopSignal = new Promise<undefined>((resolve) => (wake = () => resolve(undefined)));

  const isOurs = (message: SpyMessage): boolean =>
    message.service === 's3' && message.status === 'uploaded' && message.bucket === options.bucket && message.key.startsWith(prefix) && !handled.has(message);

  async function deliver(upload: S3SpyEvent): Promise<void> {
    const where = `s3://${upload.bucket}/${upload.key}`;
    let event: S3Event;
    try {
      event = await objectCreatedEvent(s3, upload);
    } catch (error) {
      logError(`[s3] ${options.functionName}: no event for ${where}:`, error);
      return;
    }
    const delays = options.retryDelaysMs ?? RETRY_DELAYS_MS;
    for (let attempt = 1; ; attempt += 1) {
      try {
        await options.handler(event, lambdaContext(options.functionName, options.timeoutMs ?? FUNCTION_TIMEOUT_MS));
        return;
      } catch (error) {
        const delay = delays[attempt - 1];
        if (delay !== undefined && !stopped) {
          logError(`[s3] ${options.functionName} failed for ${where} (attempt ${attempt}; retried in ${delay} ms):`, error);
          await new Promise((resolve) => setTimeout(resolve, delay));
          continue;
        }
        logError(`[s3] ${options.functionName} failed for ${where} after ${attempt} attempts${options.deadLetter ? ' (sent to its dead-letter queue)' : ''}:`, error);
        await options.deadLetter?.(event, error, attempt).catch((sendError: unknown) => logError(`[s3] ${options.functionName}: dead letter not sent:`, sendError));
        return;
      }
    }
  }

  async function loop(): Promise<void> {
    while (!stopped) {
      const next = await Promise.race([options.fauxqs.spy.waitForMessage(isOurs), stopSignal]);
      if (next === undefined || stopped) return;
      handled.add(next);
      const invocation = deliver(next as S3SpyEvent).finally(() => running.delete(invocation));
      running.add(invocation);
    }
  }
  const looping = loop();

  return {
    async stop() {
      stopped = true;
      wake();
      await looping;
      await Promise.all(running);
      s3.destroy();
    },
  };
}

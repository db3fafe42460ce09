// What every emulator and local SDK client shares: region, account, fake credentials, and the
// shapes of queue URLs and ARNs.
import { LOCAL } from '../../shared/resources.ts';

/** Emulators accept any credentials; these make the SDK's signer happy. */
export const LOCAL_CREDENTIALS = { accessKeyId: 'local', secretAccessKey: 'local' };

/** The account id fauxqs puts in queue ARNs and URLs. */
export const LOCAL_ACCOUNT_ID = '000000000000';

export const LOCAL_REGION = LOCAL.region;

/** SDK client settings for a local emulator endpoint. */
export function localClientConfig(endpoint: string) {
  return { endpoint, region: LOCAL_REGION, credentials: LOCAL_CREDENTIALS };
}

/**
 * A queue's URL on the fauxqs endpoint itself. fauxqs hands out `sqs.<region>.localhost` URLs, which
 * not every resolver knows and which the SQS client would then use instead of its endpoint;
 * fauxqs finds a queue by the last path segment, so the endpoint's own origin works everywhere.
 */
export function localQueueUrl(fauxqsEndpoint: string, queueName: string): string {
  return `${fauxqsEndpoint}/${LOCAL_ACCOUNT_ID}/${queueName}`;
}

export function localQueueArn(queueName: string): string {
  return `arn:aws:sqs:${LOCAL_REGION}:${LOCAL_ACCOUNT_ID}:${queueName}`;
}

/** `arn:aws:sqs:<region>:<account>:<name>` → its parts, or undefined for any other ARN. */
export function parseQueueArn(arn: string): { region: string; accountId: string; queueName: string } | undefined {
  const match = /^arn:aws[\w-]*:sqs:([\w-]+):(\d{12}):([\w-]{1,80}(?:\.fifo)?)$/.exec(arn);
  if (!match) return undefined;
  return { region: match[1] as string, accountId: match[2] as string, queueName: match[3] as string };
}

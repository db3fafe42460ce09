// The webhook delivery queue (SQS; fauxqs locally). A message names one delivery and the attempt it
// is for; a retry is put back on it at its time by a schedule (./retry-schedules.ts).
import { SendMessageBatchCommand, SQSClient } from '@aws-sdk/client-sqs';
import { requiredSetting } from '../config.ts';
import { traced } from '../tracer.ts';

export interface DeliveryMessage {
  subscriptionId: string;
  deliveryId: string;
  /** The attempt this message is for (1 = the first). */
  attempt: number;
  /** A manual retry or a test event: one attempt, no automatic retries after it. */
  manual?: boolean;
}

/** At module scope: one client per instance, traced (exported for the local runtime's grant checks). */
export const deliveryQueueClient = traced(new SQSClient({}));

/** Sends the messages, ten per call, optionally delayed; throws if any is refused. */
export async function enqueueDeliveries(messages: readonly DeliveryMessage[], options: { delaySeconds?: number } = {}): Promise<void> {
  const queueUrl = requiredSetting('DELIVERY_QUEUE_URL');
  for (let i = 0; i < messages.length; i += 10) {
    const chunk = messages.slice(i, i + 10);
    const result = await deliveryQueueClient.send(new SendMessageBatchCommand({ QueueUrl: queueUrl, Entries: chunk.map((message, index) => ({ Id: String(index), MessageBody: JSON.stringify(message), ...(options.delaySeconds ? { DelaySeconds: options.delaySeconds } : {}) })) }));
    if (result.Failed && result.Failed.length > 0) throw new Error(`SQS refused ${result.Failed.length} delivery messages: ${result.Failed[0]?.Message ?? ''}`);
  }
}

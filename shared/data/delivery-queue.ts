// The webhook delivery queue (SQS; fauxqs locally) and the one-off EventBridge Scheduler schedules
// that put a retry back on it at its time (the scheduler emulator locally). A message names one
// delivery and the attempt it is for.
import { ConflictException, CreateScheduleCommand, SchedulerClient } from '@aws-sdk/client-scheduler';
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

/** At module scope: one client per instance, traced (exported for the local runtime's grant checks). Pure: a bundle that never sends drops them. */
export const deliveryQueueClient = /* @__PURE__ */ traced(/* @__PURE__ */ new SQSClient({}));
export const retrySchedulerClient = /* @__PURE__ */ traced(/* @__PURE__ */ new SchedulerClient({}));

/** Sends the messages, ten per call, optionally delayed; throws if any is refused. */
export async function enqueueDeliveries(messages: readonly DeliveryMessage[], options: { delaySeconds?: number } = {}): Promise<void> {
  const queueUrl = requiredSetting('DELIVERY_QUEUE_URL');
  for (let i = 0; i < messages.length; i += 10) {
    const chunk = messages.slice(i, i + 10);
    const result = await deliveryQueueClient.send(new SendMessageBatchCommand({ QueueUrl: queueUrl, Entries: chunk.map((message, index) => ({ Id: String(index), MessageBody: JSON.stringify(message), ...(options.delaySeconds ? { DelaySeconds: options.delaySeconds } : {}) })) }));
    if (result.Failed && result.Failed.length > 0) throw new Error(`SQS refused ${result.Failed.length} delivery messages: ${result.Failed[0]?.Message ?? ''}`);
  }
}

/** A one-off schedule that puts the message on the queue at `at` and then deletes itself. */
export async function scheduleDelivery(message: DeliveryMessage, at: Date): Promise<void> {
  // at() has whole seconds: round up, never early.
  const when = new Date(Math.ceil(at.getTime() / 1000) * 1000);
  try {
    await retrySchedulerClient.send(
    new CreateScheduleCommand({
      Name: `${message.deliveryId}-${message.attempt}`,
      GroupName: requiredSetting('SCHEDULER_GROUP_NAME'),
      ScheduleExpression: `at(${when.toISOString().slice(0, 19)})`,
      ScheduleExpressionTimezone: 'UTC',
      FlexibleTimeWindow: { Mode: 'OFF' },
      ActionAfterCompletion: 'DELETE',
      Target: { Arn: requiredSetting('DELIVERY_QUEUE_ARN'), RoleArn: requiredSetting('SCHEDULER_ROLE_ARN'), Input: JSON.stringify(message) },
    }),
    );
  } catch (error) {
    // The same attempt scheduled twice (a redelivered message): the first schedule stands.
    if (error instanceof ConflictException) return;
    throw error;
  }
}

// The one-off EventBridge Scheduler schedules (the scheduler emulator locally) that put a webhook
// delivery's retry back on the delivery queue at its time, then delete themselves.
import { ConflictException, CreateScheduleCommand, SchedulerClient } from '@aws-sdk/client-scheduler';
import { requiredSetting } from '../config.ts';
import { traced } from '../tracer.ts';
import type { DeliveryMessage } from './delivery-queue.ts';

/** At module scope: one client per instance, traced (exported for the local runtime's grant checks). */
export const retrySchedulerClient = traced(new SchedulerClient({}));

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

// Worker `webhookDelivery`, on the delivery queue: one signed POST per message, its attempt recorded,
// the next one scheduled on failure. A message that cannot be handled stays on the queue (reported as
// a batch item failure) and comes back after the visibility timeout.
import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { config } from '../../shared/config.ts';
import type { DeliveryMessage } from '../../shared/data/delivery-queue.ts';
import { deliver } from '../../shared/domain/webhook-delivery.ts';
import { logger } from '../../shared/logger.ts';

config(); // fail fast at cold start

export async function handler(event: SQSEvent): Promise<SQSBatchResponse> {
  const failures: SQSBatchResponse['batchItemFailures'] = [];
  // One batch's messages at once: they are different deliveries, usually to different receivers.
  await Promise.all(
    event.Records.map(async (record) => {
      try {
        const message = JSON.parse(record.body) as DeliveryMessage;
        const result = await deliver(message);
        logger.debug('Delivery handled', { ...message, result });
      } catch (error) {
        logger.error('Delivery failed to run', { messageId: record.messageId, error });
        failures.push({ itemIdentifier: record.messageId });
      }
    }),
  );
  return { batchItemFailures: failures };
}

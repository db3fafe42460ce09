// Worker `webhookDelivery`, on the delivery queue: the batch's deliveries sent as signed POSTs, one
// lane per subscription, their attempts recorded and retries scheduled on failure. A message that
// cannot be handled stays on the queue (reported as a batch item failure) and comes back after the
// visibility timeout.
import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { config } from '../../shared/config.ts';
import type { DeliveryMessage } from '../../shared/data/delivery-queue.ts';
import { deliverBatch } from '../../shared/domain/webhook-sending.ts';
import { logger } from '../../shared/logger.ts';
import { workerHandler } from '../../shared/powertools.ts';

config(); // fail fast at cold start

export const handler = workerHandler(async (event: SQSEvent): Promise<SQSBatchResponse> => {
  const failures: SQSBatchResponse['batchItemFailures'] = [];
  const messages: DeliveryMessage[] = [];
  const messageIds: string[] = [];
  for (const record of event.Records) {
    try {
      messages.push(JSON.parse(record.body) as DeliveryMessage);
      messageIds.push(record.messageId);
    } catch (error) {
      logger.error('Delivery message is not JSON', { messageId: record.messageId, error });
      failures.push({ itemIdentifier: record.messageId });
    }
  }
  const results = await deliverBatch(messages);
  for (const [index, result] of results.entries()) {
    if (typeof result === 'string') continue;
    logger.error('Delivery failed to run', { messageId: messageIds[index], ...messages[index], error: result.error });
    failures.push({ itemIdentifier: messageIds[index] as string });
  }
  logger.debug('Deliveries handled', { messages: messages.length, results: results.map((result) => (typeof result === 'string' ? result : 'error')) });
  return { batchItemFailures: failures };
});

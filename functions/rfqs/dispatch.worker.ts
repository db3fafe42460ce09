// Worker `rfqDispatch`, on the table's stream (RFQ items only): a new request for quotes is sent to its
// sellers — the invited ones, else those whose active catalog matches it as search would — each with
// its rfq.created; an awarded or cancelled one is told to every seller it reached but the winner, with
// rfq.closed. Each seller once, whichever run gets there first; the rfqClosing sweep catches what the
// stream missed.
import type { DynamoDBStreamEvent } from 'aws-lambda';
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import { config } from '../../shared/config.ts';
import { needsDispatch, RfqEntity } from '../../shared/data/rfqs.ts';
import { dispatchRfq } from '../../shared/domain/rfqs.ts';
import { logger } from '../../shared/logger.ts';
import { workerHandler } from '../../shared/powertools.ts';

config(); // fail fast at cold start

export const handler = workerHandler(async (event: DynamoDBStreamEvent): Promise<void> => {
  const due = new Set<string>();
  for (const record of event.Records) {
    if (!record.dynamodb?.NewImage || record.eventName === 'REMOVE') continue;
    const rfq = RfqEntity.parse(unmarshall(record.dynamodb.NewImage as Record<string, AttributeValue>));
    if (needsDispatch(rfq)) due.add(rfq.rfqId);
  }
  for (const rfqId of due) {
    const { sent, told } = await dispatchRfq(rfqId, new Date());
    logger.info('Request for quotes dispatched', { rfqId, sent, told });
  }
});

// Worker `houseAgents` (sandbox only), on the table's stream (new event items): the sandbox's house
// agents act on the events that concern them — the house seller confirms its new orders and answers
// negotiations its policy left to it and quotes on the requests for quotes it is sent; a house buyer answers the seller's asks by its strategy, orders
// once its session is accepted, and completes its delivered orders (shared/domain/house-agents.ts).
import type { DynamoDBStreamEvent } from 'aws-lambda';
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import { config } from '../../shared/config.ts';
import { CorruptItem } from '../../shared/data/entity.ts';
import { EventEntity } from '../../shared/data/events.ts';
import { actOnEvent } from '../../shared/domain/house-agents.ts';
import { logger } from '../../shared/logger.ts';
import { workerHandler } from '../../shared/powertools.ts';

config(); // fail fast at cold start

export const handler = workerHandler(async (event: DynamoDBStreamEvent): Promise<void> => {
  for (const record of event.Records) {
    // Only new events: marking an event dispatched writes it again.
    if (record.eventName !== 'INSERT' || !record.dynamodb?.NewImage) continue;
    let item;
    try {
      item = EventEntity.parse(unmarshall(record.dynamodb.NewImage as Record<string, AttributeValue>));
    } catch (error) {
      if (!(error instanceof CorruptItem)) throw error;
      logger.error('A stream record is not a valid event; the house agents pass it over', { sequenceNumber: record.dynamodb.SequenceNumber, error });
      continue;
    }
    // In order: a session's moves and an order's changes follow one another.
    await actOnEvent(item, new Date());
  }
});

// Worker `webhookFanOut`, on the table's stream (event items only): each new event becomes one
// delivery per matching active subscription of the agents it concerns, queued for sending.
import type { DynamoDBStreamEvent } from 'aws-lambda';
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import { config } from '../../shared/config.ts';
import { CorruptItem } from '../../shared/data/entity.ts';
import { EventEntity, type DomainEvent } from '../../shared/data/events.ts';
import { fanOut } from '../../shared/domain/webhook-fan-out.ts';
import { logger } from '../../shared/logger.ts';
import { workerHandler } from '../../shared/powertools.ts';

config(); // fail fast at cold start

export const handler = workerHandler(async (event: DynamoDBStreamEvent): Promise<void> => {
  const events: DomainEvent[] = [];
  for (const record of event.Records) {
    if (!record.dynamodb?.NewImage || record.eventName === 'REMOVE') continue;
    let item;
    try {
      item = EventEntity.parse(unmarshall(record.dynamodb.NewImage as Record<string, AttributeValue>));
    } catch (error) {
      // Parsing again cannot help: logged (the sweep logs it each minute too) and passed over, so the events after it go out.
      if (!(error instanceof CorruptItem)) throw error;
      logger.error('A stream record is not a valid event; it cannot be delivered', { sequenceNumber: record.dynamodb.SequenceNumber, error });
      continue;
    }
    // Only new events: marking an event dispatched writes it again.
    if (item.dispatchedAt) continue;
    const { expiresAt: _expires, dispatchedAt: _dispatched, ...domainEvent } = item;
    events.push(domainEvent);
  }
  if (events.length === 0) return;
  const queued = await fanOut(events);
  logger.debug('Events fanned out', { events: events.length, deliveries: queued });
});

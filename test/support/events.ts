// The events recorded for an agent, dispatched or not, read straight from the table (a test may
// scan; the product never does): the outbox index loses an event as soon as its deliveries are queued.
import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient } from '../../shared/data/client.ts';
import { EventEntity, type EventItem } from '../../shared/data/events.ts';
import { config } from '../../shared/config.ts';

export async function recordedEventsOf(agentId: string): Promise<EventItem[]> {
  const events: EventItem[] = [];
  let startKey: Record<string, unknown> | undefined;
  do {
    const page = await documentClient.send(
      new ScanCommand({
        TableName: config().TABLE_NAME,
        FilterExpression: 'entity = :event AND contains(agentIds, :agent)',
        ExpressionAttributeValues: { ':event': EventEntity.name, ':agent': agentId },
        ExclusiveStartKey: startKey,
      }),
    );
    events.push(...(page.Items ?? []).map((item) => EventEntity.parse(item)));
    startKey = page.LastEvaluatedKey;
  } while (startKey);
  return events.sort((a, b) => (a.eventId < b.eventId ? -1 : 1));
}

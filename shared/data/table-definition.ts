// The single table's physical shape. The CDK stack and the local runtime both create it from this,
// so the sandbox on a laptop and the deployed table cannot drift apart. Access patterns: docs/data-model.md.

export const TABLE_KEYS = {
  partitionKey: 'pk',
  sortKey: 'sk',
  /** Epoch seconds; DynamoDB TTL deletes expired items (rate-limit windows, idempotency records). */
  ttlAttribute: 'expiresAt',
} as const;

/** Global secondary indexes by name; entities declare which ones their items carry keys for. */
export const INDEXES = {
  gsi1: { indexName: 'gsi1', partitionKey: 'gsi1pk', sortKey: 'gsi1sk' },
  gsi2: { indexName: 'gsi2', partitionKey: 'gsi2pk', sortKey: 'gsi2sk' },
  gsi3: { indexName: 'gsi3', partitionKey: 'gsi3pk', sortKey: 'gsi3sk' },
  /** A buyer's events feed (its seller's side is in gsi2; gsi1 holds an event while it is in the outbox). */
  gsi4: { indexName: 'gsi4', partitionKey: 'gsi4pk', sortKey: 'gsi4sk' },
} as const;

export type IndexName = keyof typeof INDEXES;

export const GSI1 = INDEXES.gsi1;

export const GLOBAL_SECONDARY_INDEXES = Object.values(INDEXES);

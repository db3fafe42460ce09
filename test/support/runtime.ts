// The local runtime that the vitest global setup started for this run.
import { inject } from 'vitest';
import { TestClient } from './http-client.ts';

export function newClient(): TestClient {
  return new TestClient(inject('baseUrl'));
}

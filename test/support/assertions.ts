// Shared expectations about the contract's error shape.
import { expect } from 'vitest';
import type { TestResponse } from './http-client.ts';

export function expectError(response: TestResponse, status: number, code: string): void {
  expect(response.status, response.text).toBe(status);
  expect(response.json).toMatchObject({ code, status });
  expect(typeof response.json.error).toBe('string');
  expect(response.json.requestId).toMatch(/^req_[0-9A-Z]{26}$/);
  expect(response.headers['x-request-id']).toBe(response.json.requestId);
  expect(Object.keys(response.json).every((key) => ['error', 'code', 'status', 'requestId', 'details'].includes(key))).toBe(true);
}

// The proof an MCP tool's API call carries that the agent's POST /mcp request was counted: valid only
// for that agent, unaltered and unexpired.
import { describe, expect, it } from 'vitest';
import { countedCallProof, isCountedCall } from '../../shared/http/counted-calls.ts';

const AGENT = 'agt_01JF3Q5Z8X2C7V9B4N6M1K0PQR';
const OTHER = 'agt_01JF3Q5Z8X2C7V9B4N6M1K0PQS';
const REQUEST = 'req_01JF3Q5Z8X2C7V9B4N6M1K0PQR';

describe('counted calls', () => {
  const now = new Date('2026-11-22T10:15:30.123Z');
  const proof = countedCallProof(AGENT, REQUEST, now);

  it('names the counted request and is accepted for its agent for 30 s', () => {
    expect(proof.startsWith(`${REQUEST}.`)).toBe(true);
    expect(isCountedCall(proof, AGENT, now)).toBe(true);
    expect(isCountedCall(proof, AGENT, new Date(now.getTime() + 29_000))).toBe(true);
    expect(isCountedCall(proof, AGENT, new Date(now.getTime() + 31_000))).toBe(false);
  });

  it('is refused for another agent, altered, or malformed', () => {
    expect(isCountedCall(proof, OTHER, now)).toBe(false);
    const [requestId, expires, signature] = proof.split('.') as [string, string, string];
    expect(isCountedCall(`${requestId}.${Number(expires) + 3600}.${signature}`, AGENT, now)).toBe(false);
    expect(isCountedCall(`${requestId.replace('R', 'S')}.${expires}.${signature}`, AGENT, now)).toBe(false);
    expect(isCountedCall(`${requestId}.${expires}.${signature.slice(0, -2)}`, AGENT, now)).toBe(false);
    for (const malformed of [undefined, '', 'x', `${requestId}.${expires}`, `${requestId}.soon.${signature}`, `${proof}.extra`]) {
      expect(isCountedCall(malformed, AGENT, now), String(malformed)).toBe(false);
    }
  });
});

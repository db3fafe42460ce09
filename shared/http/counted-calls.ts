// A tool of POST /mcp calls the API on the agent's behalf, and the /mcp request that carried the tool
// call has already been counted against the agent's plan. Its API request carries a proof of that,
// so that the rate limiter does not count the one tool call twice. The proof is an HMAC under a key
// derived from the stack's CURSOR_SIGNING_KEY, bound to the agent and valid for 30 s: only the
// stack's own functions can make one, and it is never shown to a client.
import { createHmac, hkdfSync, timingSafeEqual } from 'node:crypto';
import { config } from '../config.ts';

/** Lower case, as API Gateway and the local gateway deliver header names. */
export const COUNTED_CALL_HEADER = 'marketplace-counted-call';
/** Longer than the MCP function may run (28 s). */
const VALID_SECONDS = 30;

let derived: { secret: string; key: Buffer } | undefined;

function proofKey(): Buffer {
  const secret = config().CURSOR_SIGNING_KEY;
  if (derived?.secret !== secret) derived = { secret, key: Buffer.from(hkdfSync('sha256', secret, 'agent-marketplace', 'counted-call', 32)) };
  return derived.key;
}

const mac = (agentId: string, requestId: string, expiresAt: number) =>
  createHmac('sha256', proofKey()).update(`${agentId}.${requestId}.${expiresAt}`).digest();

/** `<requestId>.<expires epoch seconds>.<HMAC>`: the counted request's id, for the logs. */
export function countedCallProof(agentId: string, requestId: string, now: Date): string {
  const expiresAt = Math.floor(now.getTime() / 1000) + VALID_SECONDS;
  return `${requestId}.${expiresAt}.${mac(agentId, requestId, expiresAt).toString('base64url')}`;
}

/** True for a valid, unexpired proof made for this agent; anything else is counted as usual. */
export function isCountedCall(proof: string | undefined, agentId: string, now: Date): boolean {
  const parts = proof?.split('.');
  if (parts?.length !== 3) return false;
  const [requestId, expires, signature] = parts as [string, string, string];
  const expiresAt = Number(expires);
  if (!/^\d{1,12}$/.test(expires) || expiresAt < now.getTime() / 1000) return false;
  const given = Buffer.from(signature, 'base64url');
  const expected = mac(agentId, requestId, expiresAt);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

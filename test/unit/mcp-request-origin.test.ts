// POST /mcp's DNS-rebinding defence (shared/http/request-origin.ts): which Origin and Host headers
// pass, on a deployed stack (the API's own origin and the stage's extra ones; Host unchecked) and on
// the local runtime (loopback host names only, and any page served from one of them).
import { describe, expect, it } from 'vitest';
import { originRefusal, originRules } from '../../shared/http/request-origin.ts';

const deployed = originRules({ apiBaseUrl: 'https://abc123.execute-api.eu-central-1.amazonaws.com', allowedOrigins: ['https://api.example.com'], allowedHosts: undefined });
const local = originRules({ apiBaseUrl: 'http://127.0.0.1:3000', allowedOrigins: [], allowedHosts: ['localhost', '127.0.0.1', '[::1]'] });

describe('POST /mcp: Origin and Host', () => {
  it('lets clients that send no Origin through (MCP clients that are not browsers)', () => {
    expect(originRefusal({ host: 'abc123.execute-api.eu-central-1.amazonaws.com' }, deployed)).toBeUndefined();
    expect(originRefusal({ host: '127.0.0.1:3000' }, local)).toBeUndefined();
  });

  it('allows the API’s own origin and the configured ones on a deployed stack, and no other page', () => {
    expect(originRefusal({ origin: 'https://abc123.execute-api.eu-central-1.amazonaws.com' }, deployed)).toBeUndefined();
    expect(originRefusal({ origin: 'https://api.example.com' }, deployed)).toBeUndefined();
    for (const origin of ['https://evil.example.com', 'http://api.example.com', 'https://api.example.com:8443', 'http://localhost:6274', 'null', 'not a url']) {
      expect(originRefusal({ origin }, deployed), origin).toMatch(/^Invalid Origin header: /);
    }
    // A custom domain's Host is not refused: API Gateway answers only for the domains it has.
    expect(originRefusal({ host: 'api.example.com' }, deployed)).toBeUndefined();
  });

  it('answers loopback names only on the local runtime, and pages served from them on any port', () => {
    for (const host of ['localhost:3000', '127.0.0.1:3000', '[::1]:3000', 'LOCALHOST:3000', 'localhost']) expect(originRefusal({ host }, local), host).toBeUndefined();
    for (const origin of ['http://127.0.0.1:3000', 'http://localhost:6274', 'http://[::1]:5173', 'https://localhost']) expect(originRefusal({ host: 'localhost:3000', origin }, local), origin).toBeUndefined();
    expect(originRefusal({ host: 'evil.example.com:3000', origin: 'http://evil.example.com:3000' }, local)).toMatch(/^Invalid Host header: evil\.example\.com:3000/);
    expect(originRefusal({ host: '127.0.0.1:3000', origin: 'http://evil.example.com:3000' }, local)).toMatch(/^Invalid Origin header: http:\/\/evil\.example\.com:3000/);
    for (const host of [undefined, '', 'localhost@evil.example.com', 'evil.example.com/localhost']) expect(originRefusal({ host }, local), String(host)).toMatch(/^Invalid Host header/);
  });
});

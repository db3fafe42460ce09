// A small HTTP client for end-to-end tests. Each client sends from its own loopback address
// (127.x.y.z all reach the local runtime on Linux), so per-source-IP rate limits of one test file
// never spill into another.
import { request } from 'node:http';
import { randomInt } from 'node:crypto';

export interface TestResponse {
  status: number;
  headers: Record<string, string>;
  text: string;
  /** The body as received (still compressed when the response has a Content-Encoding). */
  bytes: Buffer;
  /** The body parsed as JSON (undefined when it is not JSON). */
  json: any;
}

export interface SendOptions {
  headers?: Record<string, string>;
  /** A JSON value to send, or a raw string/Buffer sent as-is. */
  body?: unknown;
  apiKey?: string;
}

export function randomLoopbackAddress(): string {
  return `127.${randomInt(1, 255)}.${randomInt(0, 255)}.${randomInt(1, 255)}`;
}

export class TestClient {
  readonly baseUrl: string;
  readonly sourceAddress: string;

  constructor(baseUrl: string, sourceAddress = randomLoopbackAddress()) {
    this.baseUrl = baseUrl;
    this.sourceAddress = sourceAddress;
  }

  send(method: string, path: string, options: SendOptions = {}): Promise<TestResponse> {
    const url = new URL(path, this.baseUrl);
    const headers: Record<string, string> = { ...options.headers };
    let payload: Buffer | undefined;
    if (options.body !== undefined) {
      if (typeof options.body === 'string' || Buffer.isBuffer(options.body)) {
        payload = Buffer.from(options.body);
      } else {
        payload = Buffer.from(JSON.stringify(options.body));
        headers['content-type'] ??= 'application/json';
      }
      headers['content-length'] = String(payload.byteLength);
    }
    if (options.apiKey) headers.authorization = `Bearer ${options.apiKey}`;
    return new Promise((resolve, reject) => {
      const req = request(
        { method, hostname: url.hostname, port: url.port, path: `${url.pathname}${url.search}`, headers, localAddress: this.sourceAddress },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('end', () => {
            const bytes = Buffer.concat(chunks);
            const text = bytes.toString('utf8');
            let json: unknown;
            try {
              json = JSON.parse(text);
            } catch {
              json = undefined;
            }
            const flat: Record<string, string> = {};
            for (const [name, value] of Object.entries(res.headers)) if (value !== undefined) flat[name] = String(value);
            resolve({ status: res.statusCode ?? 0, headers: flat, text, bytes, json });
          });
        },
      );
      req.on('error', reject);
      if (payload) req.write(payload);
      req.end();
    });
  }

  get(path: string, options?: SendOptions) {
    return this.send('GET', path, options);
  }
  post(path: string, body?: unknown, options: SendOptions = {}) {
    return this.send('POST', path, { ...options, body });
  }
  patch(path: string, body?: unknown, options: SendOptions = {}) {
    return this.send('PATCH', path, { ...options, body });
  }
  delete(path: string, options?: SendOptions) {
    return this.send('DELETE', path, options);
  }
}

let sequence = 0;

/** A valid registration body; `overrides` replaces top-level fields. */
export function registration(overrides: Record<string, unknown> = {}) {
  sequence += 1;
  return {
    name: `Test agent ${sequence}`,
    role: 'buyer',
    organization: { legalName: 'Acme Safety GmbH', country: 'DE' },
    contactEmail: `agent${sequence}@acme.example`,
    ...overrides,
  };
}

/** Registers an agent and returns its id and key. */
export async function registerAgent(client: TestClient, overrides: Record<string, unknown> = {}) {
  const response = await client.post('/v1/agents/register', registration(overrides));
  if (response.status !== 201) throw new Error(`registration failed: ${response.status} ${response.text}`);
  return { agentId: response.json.data.agentId as string, apiKey: response.json.data.apiKey as string, response };
}

/** Waits until at least `seconds` remain in the current UTC minute, so a test's requests share one window. */
export async function awaitFreshMinute(seconds = 20): Promise<void> {
  const left = 60 - (Date.now() / 1000) % 60;
  if (left < seconds) await new Promise((resolve) => setTimeout(resolve, left * 1000 + 100));
}

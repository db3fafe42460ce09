// A webhook receiver on loopback for end-to-end tests: records every request (headers, exact body,
// arrival time) and answers as told per path: a status, a redirect, a hang, or a script of statuses.
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  at: number;
}

/** A status, a status with response headers (e.g. Retry-After), or no answer for a while. */
export type Answer = number | { status: number; headers: Record<string, string> } | { hangMs: number };

export type Behaviour = { status: number } | { script: Answer[]; then: number } | { redirect: string } | { hangMs: number } | { delayMs: number; status: number };

export class Receiver {
  readonly received: Received[] = [];
  private readonly behaviours = new Map<string, Behaviour>();
  private readonly served = new Map<string, number>();
  private server: Server | undefined;
  port = 0;

  async start(): Promise<this> {
    this.server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const path = request.url ?? '/';
        this.received.push({ path, headers: request.headers, body: Buffer.concat(chunks).toString('utf8'), at: Date.now() });
        const behaviour = this.behaviours.get(path) ?? { status: 200 };
        const count = (this.served.get(path) ?? 0) + 1;
        this.served.set(path, count);
        if ('hangMs' in behaviour) {
          setTimeout(() => response.destroyed || response.end('late'), behaviour.hangMs).unref();
          return;
        }
        if ('delayMs' in behaviour) {
          setTimeout(() => response.destroyed || response.writeHead(behaviour.status).end('slow answer'), behaviour.delayMs).unref();
          return;
        }
        if ('redirect' in behaviour) {
          response.writeHead(302, { location: behaviour.redirect }).end();
          return;
        }
        const answer = 'script' in behaviour ? (behaviour.script[count - 1] ?? behaviour.then) : behaviour.status;
        if (typeof answer === 'object' && 'hangMs' in answer) {
          setTimeout(() => response.destroyed || response.end('late'), answer.hangMs).unref();
          return;
        }
        const { status, headers } = typeof answer === 'number' ? { status: answer, headers: {} } : answer;
        response.writeHead(status, { 'content-type': 'text/plain', ...headers }).end(`answer ${count} from ${path}`);
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.port = (this.server.address() as AddressInfo).port;
    return this;
  }

  url(path: string): string {
    return `http://127.0.0.1:${this.port}${path}`;
  }

  on(path: string, behaviour: Behaviour): void {
    this.behaviours.set(path, behaviour);
  }

  at(path: string): Received[] {
    return this.received.filter((request) => request.path === path);
  }

  /** Waits until `path` has received `count` requests. */
  async waitFor(path: string, count: number, timeoutMs = 20_000): Promise<Received[]> {
    const deadline = Date.now() + timeoutMs;
    while (this.at(path).length < count) {
      if (Date.now() > deadline) throw new Error(`${path} received ${this.at(path).length} of ${count} requests in ${timeoutMs} ms`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    return this.at(path);
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}

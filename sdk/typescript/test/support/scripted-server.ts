// A real HTTP server on the loopback interface whose answers a test scripts request by request:
// JSON replies, connection resets and hanging requests. It records every request it receives.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export interface RecordedRequest {
  method: string;
  /** Path and query string, as sent. */
  url: string;
  path: string;
  query: URLSearchParams;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
  /** Milliseconds since the server started, when the request arrived. */
  at: number;
}

export type Reply =
  | { status: number; headers?: Record<string, string>; json?: unknown; text?: string }
  /** Destroys the connection without an answer. */
  | 'reset'
  /** Never answers (until the server closes). */
  | 'hang';

export type Script = (request: RecordedRequest, index: number) => Reply | Promise<Reply>;

export interface ScriptedServer {
  url: string;
  requests: RecordedRequest[];
  close(): Promise<void>;
}

let requestCounter = 0;

/** `{data, meta}` with a request id, as the API answers a success. */
export function ok(data: unknown, status = 200, headers: Record<string, string> = {}): Reply {
  requestCounter += 1;
  const requestId = `req_test${requestCounter}`;
  return { status, headers: { 'x-request-id': requestId, ...headers }, json: { data, meta: { requestId, timestamp: new Date().toISOString() } } };
}

/** The API's error body. */
export function apiError(status: number, code: string, message: string, options: { details?: unknown[]; headers?: Record<string, string> } = {}): Reply {
  requestCounter += 1;
  const requestId = `req_err${requestCounter}`;
  return {
    status,
    headers: { 'x-request-id': requestId, ...options.headers },
    json: { error: message, code, status, requestId, ...(options.details ? { details: options.details } : {}) },
  };
}

export async function scriptedServer(script: Script): Promise<ScriptedServer> {
  const requests: RecordedRequest[] = [];
  const sockets = new Set<Socket>();
  const started = Date.now();
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://localhost');
      const recorded: RecordedRequest = {
        method: req.method ?? '',
        url: req.url ?? '',
        path: url.pathname,
        query: url.searchParams,
        headers: req.headers,
        body: Buffer.concat(chunks),
        at: Date.now() - started,
      };
      requests.push(recorded);
      void Promise.resolve(script(recorded, requests.length - 1)).then((reply) => {
        if (reply === 'reset') return req.socket.destroy();
        if (reply === 'hang') return;
        const body = reply.json !== undefined ? JSON.stringify(reply.json) : (reply.text ?? '');
        res.writeHead(reply.status, { 'content-type': reply.json !== undefined ? 'application/json' : 'text/plain', ...reply.headers });
        res.end(body);
      });
    });
  });
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** A header's single value. */
export function header(request: RecordedRequest, name: string): string | undefined {
  const value = request.headers[name.toLowerCase()];
  return Array.isArray(value) ? value[0] : value;
}

// The local API Gateway: a node:http server generated from the route table. Each request becomes the
// payload 2.0 event API Gateway would deliver (lambda-events.ts), given to its route function's
// `handler` export with a Lambda context (the `$default` fallback for anything unmatched), and the
// structured result is written back as API Gateway writes it, with API Gateway's own limits and errors:
// 10 MB bodies (413), a 30 s integration timeout (503), and a crashed handler or an unusable result
// (500). Benchmarked against raw DynamoDB Local: no per-request logging, keep-alive.
import { createServer, STATUS_CODES, type IncomingMessage, type OutgoingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { ERROR_CODES, type ErrorCode } from '../../shared/http/error-codes.ts';
import { newId } from '../../shared/ids.ts';
import { fallbackRoute as defaultFallback, routeList } from '../../functions/registry.ts';
import type { RouteDefinition } from '../../shared/http/route-table.ts';
import { routeGrants } from '../function-grants.ts';
import { LocalRuntimeError } from './errors.ts';
import { installGrantChecks, runWithGrants } from './grant-checks.ts';
import { gatewayAnswer, httpApiEvent, requestFacts, writeGatewayAnswer } from './lambda-events.ts';
import { lambdaContext, loadHandler } from './lambda.ts';
import { RouteMatcher, type RouteMatch } from './route-matcher.ts';

/** API Gateway HTTP API's payload limit. */
export const MAX_PAYLOAD_BYTES = 10 * 1024 * 1024;
/** Request headers beyond this are refused with 431 (Node's default, stated here as the contract's). */
export const MAX_HEADER_BYTES = 16 * 1024;
/** API Gateway HTTP API's maximum integration timeout. */
const INTEGRATION_TIMEOUT_MS = 30_000;

export interface GatewayOptions {
  /** 0 picks a free port. */
  port: number;
  /** Loopback by default: the sandbox is not for the network. */
  host?: string;
  routes?: readonly RouteDefinition[];
  fallback?: RouteDefinition;
  timeoutMs?: number;
  /** Where crashes and timeouts are reported (never per-request lines). */
  logError?: (message: string, error?: unknown) => void;
}

export interface Gateway {
  /** `http://127.0.0.1:<port>` */
  url: string;
  port: number;
  stop(): Promise<void>;
}

class PayloadTooLarge extends Error {}

function readBody(request: IncomingMessage): Promise<Buffer | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    request.on('data', (chunk: Buffer) => {
      size += chunk.byteLength;
      if (size > MAX_PAYLOAD_BYTES) {
        request.removeAllListeners('data');
        request.resume(); // drain the rest; the response closes the connection
        reject(new PayloadTooLarge());
        return;
      }
      chunks.push(chunk);
    });
    request.once('end', () => resolve(chunks.length === 0 ? undefined : chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, size)));
    request.once('error', reject);
  });
}

const TIMED_OUT = Symbol('timed out');

/** The work's result, or TIMED_OUT; the work itself runs on (Lambda would be cut off, we cannot). */
function withTimeout<T>(work: Promise<T>, timeoutMs: number): Promise<T | typeof TIMED_OUT> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<typeof TIMED_OUT>((resolve) => {
    timer = setTimeout(() => resolve(TIMED_OUT), timeoutMs);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

export async function startGateway(options: GatewayOptions): Promise<Gateway> {
  const routes = options.routes ?? routeList;
  const fallback = options.fallback ?? defaultFallback;
  const matcher = new RouteMatcher(routes, fallback);
  const timeoutMs = options.timeoutMs ?? INTEGRATION_TIMEOUT_MS;
  const logError = options.logError ?? ((message: string, error?: unknown) => console.error(message, error ?? ''));

  installGrantChecks(); // each invocation may do what its row grants, as in AWS
  // Cold starts up front, so the first requests are not slow; a module that fails to load is
  // reported now and answers 500.
  for (const route of [...routes, fallback]) {
    loadHandler(route.handler).catch((error: unknown) => logError(`[gateway] ${route.handler} failed to load:`, error));
  }

  async function invoke(request: IncomingMessage, response: ServerResponse, match: RouteMatch): Promise<void> {
    const declaredLength = Number(request.headers['content-length'] ?? 0);
    if (declaredLength > MAX_PAYLOAD_BYTES) throw new PayloadTooLarge();
    const body = await readBody(request);
    const event = httpApiEvent(requestFacts(request, body), match);
    const requestId = event.requestContext.requestId;
    try {
      const handler = await loadHandler(match.route.handler);
      const grants = routeGrants(match.route);
      const context = lambdaContext(match.route.operationId, timeoutMs);
      const result = await withTimeout(
        runWithGrants(grants, () => handler(event, context)),
        timeoutMs,
      );
      if (result === TIMED_OUT) {
        logError(`[gateway] ${match.routeKey} timed out after ${timeoutMs} ms`);
        sendGatewayError(response, 503, 'Service Unavailable', requestId);
        return;
      }
      const answer = gatewayAnswer(result);
      if (!answer) {
        logError(`[gateway] ${match.routeKey} (${match.route.handler}) answered a result API Gateway cannot use:`, result);
        sendGatewayError(response, 500, 'Internal Server Error', requestId);
        return;
      }
      writeGatewayAnswer(response, answer, requestId);
    } catch (error) {
      logError(`[gateway] ${match.routeKey} (${match.route.handler}) failed:`, error);
      if (!response.headersSent) sendGatewayError(response, 500, 'Internal Server Error', requestId);
    }
  }

  /** Requests being handled: stopping lets them finish (each within its timeout) before the emulators go. */
  const inFlight = new Set<Promise<void>>();
  const server = createServer({ keepAlive: true, maxHeaderSize: MAX_HEADER_BYTES }, (request, response) => {
    const url = request.url ?? '/';
    const queryStart = url.indexOf('?');
    const match = matcher.match(request.method ?? 'GET', queryStart === -1 ? url : url.slice(0, queryStart));
    const handling = invoke(request, response, match)
      .catch((error: unknown) => {
        if (response.headersSent) return;
        if (error instanceof PayloadTooLarge) sendGatewayError(response, 413, 'Request Entity Too Large', '', true);
        else sendGatewayError(response, 400, 'Bad Request', '', true);
      })
      .finally(() => inFlight.delete(handling));
    inFlight.add(handling);
  });
  server.keepAliveTimeout = 65_000; // longer than common clients' idle timeouts, so they close first
  server.on('clientError', answerProtocolError);

  await new Promise<void>((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) =>
      reject(error.code === 'EADDRINUSE' ? new LocalRuntimeError(`Port ${options.port} (API) is already in use`) : error),
    );
    server.listen(options.port, options.host ?? '127.0.0.1', () => {
      server.removeAllListeners('error');
      server.on('error', (error) => logError('[gateway] server error:', error));
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    stop: async () => {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      await Promise.all(inFlight);
      server.closeAllConnections();
      await closed;
    },
  };
}

/** API Gateway's own error responses (not the function's). */
function sendGatewayError(response: ServerResponse, status: number, message: string, requestId: string, close = false): void {
  const body = JSON.stringify({ message });
  const headers: OutgoingHttpHeaders = {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(body),
    'apigw-requestid': requestId,
  };
  if (close) headers.connection = 'close';
  response.writeHead(status, headers);
  response.end(body);
}

/**
 * A request Node's HTTP parser refused before any handler saw it (headers over 16 KB, a bad
 * Content-Length, Content-Length together with Transfer-Encoding, broken framing): answered in the
 * contract's error shape while the socket can still take a response, then closed, since the rest of
 * the stream cannot be trusted.
 */
function answerProtocolError(error: NodeJS.ErrnoException, socket: Socket): void {
  if (!socket.writable || error.code === 'ECONNRESET') {
    socket.destroy();
    return;
  }
  const code: ErrorCode = error.code === 'HPE_HEADER_OVERFLOW' ? 'request/headers-too-large' : 'request/malformed';
  const status = ERROR_CODES[code].status;
  const requestId = newId('request');
  const message =
    code === 'request/headers-too-large'
      ? `Request headers are over ${MAX_HEADER_BYTES / 1024} KB: send fewer or shorter headers`
      : `The HTTP request could not be read (${error.code ?? 'parse error'}): send one valid Content-Length, or Transfer-Encoding: chunked without a Content-Length`;
  const body = JSON.stringify({ error: message, code, status, requestId });
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\nx-request-id: ${requestId}\r\nconnection: close\r\n\r\n${body}`,
  );
}

#!/usr/bin/env node
// `agent-marketplace`: the developer's command line for the Agent Marketplace API, built on this SDK.
//   listen --forward-to <url> [--events a,b]   follow the events feed and POST each event to a local
//                                             handler, signed (Standard Webhooks) with a local secret
//   trigger <type>                            a sample event to your webhooks and events feed (sandbox)
//   events tail [--events a,b]                print each new event
//   requests tail [--status 4xx] [--path /v1/orders]   print each new request of your request log
// MARKETPLACE_API_KEY is the agent's key, MARKETPLACE_BASE_URL the API (default http://localhost:3000).
// One line per event or request on standard output; errors are one line on standard error, with exit
// code 2 for something to fix in the command or its settings and 1 for an API that refused the key,
// could not be reached, or refused the request.
import { createHmac, randomBytes } from 'node:crypto';
import { parseArgs } from 'node:util';
import { Marketplace } from './client.ts';
import { AuthenticationError, MarketplaceConnectionError, MarketplaceError, NotFoundError } from './errors.ts';
import type { LoggedRequest, MarketplaceEvent, QueryParams } from './types.ts';
import { SDK_VERSION } from './version.ts';

const DEFAULT_BASE_URL = 'http://localhost:3000';
/** The local handler has as long as a webhook receiver has: 10 s. */
const FORWARD_TIMEOUT_MS = 10_000;
const REQUESTS_POLL_MS = 1_000;

const USAGE = `Usage: agent-marketplace <command>

Commands:
  listen --forward-to <url> [--events <type,type>]   forward your events to a local webhook handler, signed
  trigger <type>                                     send yourself a sample event (sandbox: mk_test_ keys, npm start)
  events tail [--events <type,type>]                 print each new event
  requests tail [--status <4xx|5xx|422>] [--path </v1/…>]   print each new request of your request log

Settings: MARKETPLACE_API_KEY (your agent's key), MARKETPLACE_BASE_URL (default ${DEFAULT_BASE_URL}).`;

class Exit extends Error {
  readonly code: 1 | 2;
  constructor(message: string, code: 1 | 2) {
    super(message);
    this.code = code;
  }
}

const usageError = (message: string) => new Exit(`${message}\n\n${USAGE}`, 2);

function client(): { mk: Marketplace; baseUrl: string } {
  const apiKey = process.env.MARKETPLACE_API_KEY?.trim();
  if (!apiKey) throw new Exit('MARKETPLACE_API_KEY is not set: set it to your agent’s API key (mk_test_… for the sandbox)', 2);
  const baseUrl = process.env.MARKETPLACE_BASE_URL?.trim() || DEFAULT_BASE_URL;
  try {
    return { mk: new Marketplace({ apiKey, baseUrl }), baseUrl };
  } catch (error) {
    throw new Exit(`MARKETPLACE_BASE_URL: ${(error as Error).message}`, 2);
  }
}

/** An API failure as the one line to print. */
function apiFailure(error: unknown, baseUrl: string): Exit {
  if (error instanceof AuthenticationError) return new Exit(`the marketplace at ${baseUrl} refused MARKETPLACE_API_KEY (${error.message}): check the key and that it belongs to this environment (mk_test_ for the sandbox)`, 1);
  if (error instanceof MarketplaceConnectionError) return new Exit(`no marketplace answered at ${baseUrl} (${error.message}): start it (npm start) or set MARKETPLACE_BASE_URL`, 1);
  if (error instanceof MarketplaceError) return new Exit(`${error.status} ${error.code}: ${error.message}${error.requestId ? ` (request ${error.requestId})` : ''}`, 1);
  if (error instanceof Error && error.name === 'AbortError') return new Exit('stopped', 1);
  return new Exit(`unexpected error: ${error instanceof Error ? error.message : String(error)}`, 1);
}

/** The key works and the API answers: what every command checks first. */
async function connect(): Promise<{ mk: Marketplace; baseUrl: string }> {
  const connection = client();
  try {
    await connection.mk.agents.me({ maxRetries: 1 });
  } catch (error) {
    throw apiFailure(error, connection.baseUrl);
  }
  return connection;
}

function eventTypes(value: string | undefined): string[] | undefined {
  if (value === undefined) return undefined;
  const types = value.split(',').map((type) => type.trim()).filter((type) => type !== '');
  if (types.length === 0) throw usageError('--events needs event types, comma-separated (order.created,order.shipped)');
  return types;
}

/** One line of output (events, requests, answers); messages about the command itself go to standard error. */
const print = (line: string) => process.stdout.write(`${line}\n`);
const note = (line: string) => process.stderr.write(`${line}\n`);

const clock = (at: Date = new Date()) => at.toISOString().replace('T', ' ').slice(0, 19);

/** Until Ctrl+C (or SIGTERM): the signal the long polls stop on. */
function untilInterrupted(): AbortSignal {
  const controller = new AbortController();
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => controller.abort(new Error('interrupted')));
  return controller.signal;
}

/** `whsec_` + base64 of 24 random bytes: the key is the bytes, as Standard Webhooks libraries read it. */
function newSigningSecret(): { secret: string; key: Buffer } {
  const key = randomBytes(24);
  return { secret: `whsec_${key.toString('base64')}`, key };
}

/** The Standard Webhooks headers of a delivery of `body` (and the marketplace's own, keyed by the same bytes). */
function signedHeaders(key: Buffer, eventId: string, body: string, at: Date = new Date()): Record<string, string> {
  const timestamp = String(Math.floor(at.getTime() / 1000));
  const signature = createHmac('sha256', key).update(`${eventId}.${timestamp}.${body}`).digest('base64');
  return {
    'content-type': 'application/json',
    'user-agent': `agent-marketplace-cli/${SDK_VERSION}`,
    'webhook-id': eventId,
    'webhook-timestamp': timestamp,
    'webhook-signature': `v1,${signature}`,
    'x-marketplace-event-id': eventId,
    'x-marketplace-timestamp': timestamp,
    'x-marketplace-signature': `sha256=${createHmac('sha256', key).update(body).digest('hex')}`,
  };
}

/** Why a forward got no answer, in a few words: a refused connection, a timeout, a name that did not resolve. */
function forwardProblem(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } } | undefined)?.cause;
  if (cause?.code === 'ECONNREFUSED') return 'connection refused: is your handler listening there?';
  if (cause?.code === 'ENOTFOUND' || cause?.code === 'EAI_AGAIN') return 'host not found';
  if (error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError')) return `no answer within ${FORWARD_TIMEOUT_MS / 1000} s`;
  return cause?.message ?? (error instanceof Error ? error.message : String(error));
}

async function follow(mk: Marketplace, baseUrl: string, types: string[] | undefined, each: (event: MarketplaceEvent) => Promise<void>): Promise<void> {
  const signal = untilInterrupted();
  try {
    for await (const event of mk.events.follow({ signal, ...(types ? { type: types as QueryParams<'listEvents'>['type'] } : {}) })) await each(event);
  } catch (error) {
    if (signal.aborted) return;
    throw apiFailure(error, baseUrl);
  }
}

async function listen(args: string[]): Promise<void> {
  const { values } = parse(args, { 'forward-to': { type: 'string' }, events: { type: 'string' } });
  const target = values['forward-to'];
  if (typeof target !== 'string') throw usageError('listen needs --forward-to <url>, the local URL of your webhook handler');
  let url: URL | undefined;
  try {
    url = new URL(target);
  } catch {
    url = undefined;
  }
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) throw usageError(`--forward-to must be an http(s) URL, got ${JSON.stringify(target)}`);
  const types = eventTypes(values.events);
  const { mk, baseUrl } = await connect();
  const { secret, key } = newSigningSecret();
  print(`Ready! Forwarding ${types ? types.join(', ') : 'every'} event of ${baseUrl} to ${url.href}`);
  print(`Your webhook signing secret is ${secret} (verify with verifyWebhook or any Standard Webhooks library). Ctrl+C to stop.`);
  await follow(mk, baseUrl, types, async (event) => {
    const body = JSON.stringify(event);
    const started = Date.now();
    let outcome: string;
    try {
      const response = await fetch(url, { method: 'POST', headers: signedHeaders(key, event.id, body), body, redirect: 'manual', signal: AbortSignal.timeout(FORWARD_TIMEOUT_MS) });
      await response.arrayBuffer();
      outcome = `[${response.status}]`;
    } catch (error) {
      outcome = `[ERROR] ${forwardProblem(error)}`;
    }
    print(`${clock()}  --> ${event.type} [${event.id}]  <-- ${outcome} POST ${url.href} (${Date.now() - started} ms)`);
  });
}

async function trigger(args: string[]): Promise<void> {
  const { positionals } = parse(args, {});
  const [type, extra] = positionals;
  if (!type || extra !== undefined) throw usageError('trigger needs one event type (order.created, negotiation.counter, …)');
  const { mk, baseUrl } = client();
  try {
    const event = await mk.testHelpers.triggerEvent(type as Parameters<Marketplace['testHelpers']['triggerEvent']>[0], { maxRetries: 1 });
    print(`Triggered ${event.type} [${event.id}]: a sample event (data.sample: true) to your webhooks and your events feed`);
  } catch (error) {
    if (error instanceof NotFoundError) throw new Exit(`the marketplace at ${baseUrl} has no test helpers: trigger works against a sandbox (mk_test_ keys) or npm start`, 1);
    throw apiFailure(error, baseUrl);
  }
}

async function eventsTail(args: string[]): Promise<void> {
  const { values } = parse(args, { events: { type: 'string' } });
  const types = eventTypes(values.events);
  const { mk, baseUrl } = await connect();
  note(`Following ${types ? types.join(', ') : 'every'} event of ${baseUrl}. Ctrl+C to stop.`);
  await follow(mk, baseUrl, types, (event) => {
    const data = event.data as Record<string, unknown>;
    const subject = ['orderId', 'sessionId', 'feedId'].map((field) => data[field]).find((value) => typeof value === 'string');
    const status = typeof data.status === 'string' ? ` ${data.status}` : '';
    print(`${clock(new Date(event.timestamp))}  ${event.type}  ${event.id}${subject ? `  ${String(subject)}` : ''}${status}${data.sample === true ? '  (sample)' : ''}`);
    return Promise.resolve();
  });
}

function requestLine(request: LoggedRequest): string {
  const outcome = request.code ? `${request.status} ${request.code}` : String(request.status);
  const replay = request.idempotentReplayed ? '  (replayed)' : '';
  return `${clock(new Date(request.at))}  ${request.method.padEnd(6)} ${request.path}  ${outcome}  ${Math.round(request.durationMs)} ms  ${request.requestId}${replay}`;
}

async function requestsTail(args: string[]): Promise<void> {
  const { values } = parse(args, { status: { type: 'string' }, path: { type: 'string' } });
  const { mk, baseUrl } = await connect();
  const query = { limit: 100, ...(values.status ? { status: values.status } : {}), ...(values.path ? { path: values.path } : {}) };
  const signal = untilInterrupted();
  // Entries land a moment after their responses, not always in order: each poll prints what it has not printed.
  const printed = new Set<string>();
  const since = new Date().toISOString();
  note(`Following the request log of ${baseUrl}${values.status ? ` (status ${String(values.status)})` : ''}${values.path ? ` (path ${String(values.path)}…)` : ''}. Ctrl+C to stop.`);
  while (!signal.aborted) {
    let items: LoggedRequest[];
    try {
      items = (await mk.requests.list(query, { signal })).items;
    } catch (error) {
      if (signal.aborted) return;
      throw apiFailure(error, baseUrl);
    }
    for (const request of items.filter((item) => item.at >= since && !printed.has(item.requestId)).reverse()) {
      printed.add(request.requestId);
      print(requestLine(request));
    }
    await new Promise((resolve) => setTimeout(resolve, REQUESTS_POLL_MS));
  }
}

function parse(args: string[], options: Record<string, { type: 'string' }>) {
  try {
    return parseArgs({ args, options, allowPositionals: true, strict: true });
  } catch (error) {
    throw usageError((error as Error).message);
  }
}

async function main(argv: string[]): Promise<void> {
  const [command, ...rest] = argv;
  if (command === undefined || command === 'help' || command === '--help' || command === '-h') {
    print(USAGE);
    return;
  }
  if (command === '--version' || command === 'version') {
    print(SDK_VERSION);
    return;
  }
  if (command === 'listen') return listen(rest);
  if (command === 'trigger') return trigger(rest);
  if (command === 'events' && rest[0] === 'tail') return eventsTail(rest.slice(1));
  if (command === 'requests' && rest[0] === 'tail') return requestsTail(rest.slice(1));
  throw usageError(`unknown command: ${argv.join(' ')}`);
}

main(process.argv.slice(2)).then(
  () => process.exit(0),
  (error: unknown) => {
    const exit = error instanceof Exit ? error : new Exit(`unexpected error: ${error instanceof Error ? error.message : String(error)}`, 1);
    process.stderr.write(`agent-marketplace: ${exit.message}\n`);
    process.exit(exit.code);
  },
);

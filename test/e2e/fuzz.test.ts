// OpenAPI-driven fuzzing: every operation of the served document gets generated invalid and
// edge-case requests (test/support/fuzz-cases.ts), sent with the key of a role that may call it and
// real ids of records the caller is a party to, so authorization passes and validation is reached.
// No answer may be a 5xx; every error must have the contract's shape and be documented for the
// operation; a request the document forbids must be refused, and the refused ones write nothing (the
// callers' items in the table, and the seller's feed files in the bucket, are the same before and after).
//
// Seeded: the seed is printed; FUZZ_SEED=<n> reproduces a run, FUZZ_SEED=random explores, FUZZ_CASES=<n> sets the cases per
// operation (default 6).
import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { dereference } from '@readme/openapi-parser';
import { beforeAll, describe, expect, inject, it, vi } from 'vitest';
import { routeList } from '../../functions/registry.ts';
import { documentClient, tableName } from '../../shared/data/client.ts';
import { hashApiKey } from '../../shared/domain/api-keys.ts';
import { ERROR_CODE_NAMES, statusOf, type ErrorCode } from '../../shared/http/error-codes.ts';
import { registerUnlimited } from '../support/catalog.ts';
import { FuzzCaseBuilder, type FuzzCase, type FuzzOperation } from '../support/fuzz-cases.ts';
import { TestClient, type TestResponse } from '../support/http-client.ts';
import { OpenApiResponseValidator } from '../support/openapi-validator.ts';
import { newClient } from '../support/runtime.ts';
import { acceptedSession, listProduct, negotiate, type Listing } from '../support/trade.ts';

/** Body fields valid only in a window around the time of the request: an example's date falls out of it. */
const CLOCK_BOUND_FIELDS: readonly string[] = ['closesAt'];

// One seed by default, so that npm test is the same run every time; FUZZ_SEED=random explores.
const DEFAULT_SEED = 20_261_124;
const SEED = process.env.FUZZ_SEED === 'random' ? Math.floor(Math.random() * 2 ** 31) : process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : DEFAULT_SEED;
const CASES_PER_OPERATION = process.env.FUZZ_CASES ? Number(process.env.FUZZ_CASES) : 6;
const IN_FLIGHT = 6;
const timings: [number, string][] = [];

const client = newClient();
let operations: FuzzOperation[];
let validator: OpenApiResponseValidator;
let buyer: { agentId: string; apiKey: string };
let listing: Listing;
let ids: Record<string, string>;

beforeAll(async () => {
  console.log(`fuzz seed ${SEED} (FUZZ_SEED=${SEED} reproduces this run), ${CASES_PER_OPERATION} cases per operation`);
  const served = await client.get('/v1/openapi.json');
  expect(served.status).toBe(200);
  validator = await OpenApiResponseValidator.create(served.json);
  const document: any = await dereference(structuredClone(served.json));
  operations = Object.entries(document.paths as Record<string, Record<string, any>>).flatMap(([path, item]) =>
    Object.entries(item).map(([method, operation]) => ({ method: method.toUpperCase(), path, operation })),
  );

  // Records of every kind, with the fuzzing buyer and seller as their parties.
  buyer = await registerUnlimited(client, 'buyer');
  listing = await listProduct(client);
  const open = await negotiate(client, buyer.apiKey, { offerId: listing.offerId, quantity: 20, unitPrice: 900 });
  expect(open.status, open.text).toBe(201);
  const ordered = await acceptedSession(client, listing, buyer);
  const order = await client.post('/v1/create-order', { sessionId: ordered }, { apiKey: buyer.apiKey });
  expect(order.status, order.text).toBe(201);
  const hook = await client.post('/v1/webhooks', { url: 'http://127.0.0.1:9/hooks', events: ['feed.failed'], secret: 'a-secret-of-16-or-more' }, { apiKey: buyer.apiKey });
  expect(hook.status, hook.text).toBe(201);
  const feeds = await client.get('/v1/seller/feeds?limit=1', { apiKey: listing.seller.apiKey });
  const events = await client.get('/v1/events?limit=1', { apiKey: buyer.apiKey });
  ids = {
    agt_: buyer.agentId,
    prd_: listing.productId,
    ofr_: listing.offerId,
    neg_: open.json.data.sessionId,
    ord_: order.json.data.orderId,
    whk_: hook.json.data.id,
    feed_: feeds.json.data.items[0].feedId,
    evt_: events.json.data.items[0].id,
  };
  // Events are marked dispatched by the fan-out in the background; wait for the table to be still.
  await vi.waitFor(async () => expect(await undispatchedEvents()).toBe(0), { timeout: 60_000, interval: 200 });
}, 120_000);

/** The key that may call the operation: the buyer's where buyers may, else the seller's; none for public ones. */
function keyFor(operationId: string): string | undefined {
  const route = routeList.find((row) => row.operationId === operationId);
  if (!route || route.auth === 'public') return undefined;
  return (route.roles as readonly string[]).includes('buyer') ? buyer.apiKey : listing.seller.apiKey;
}

async function send(fuzzCase: FuzzCase, sender: TestClient): Promise<TestResponse> {
  const apiKey = keyFor(fuzzCase.operationId);
  const response = await sender.send(fuzzCase.method, fuzzCase.url, {
    headers: fuzzCase.headers,
    ...(fuzzCase.body !== undefined ? { body: Buffer.from(fuzzCase.body) } : {}),
    ...(apiKey ? { apiKey } : {}),
  });
  // An edge case the document allows may rotate the caller's key: go on with the new one.
  if (fuzzCase.template === '/v1/agents/me/rotate-key' && response.status === 200 && apiKey === buyer.apiKey) buyer.apiKey = response.json.data.apiKey;
  return response;
}

/** What is wrong with the response, by the contract: a 5xx, an error not in its shape, an undocumented answer. */
function problemsOf(fuzzCase: FuzzCase, response: TestResponse): string[] {
  const problems: string[] = [];
  if (response.status >= 500) problems.push(`status ${response.status}: ${response.text.slice(0, 300)}`);
  if (fuzzCase.forbidden && (response.status < 400 || response.status >= 500)) problems.push(`a request the document forbids was answered ${response.status}`);
  // POST /mcp is a protocol endpoint: the contract's checks (key, limits, body envelope) answer in its
  // error shape before the MCP transport runs; a message the transport itself refuses is a JSON-RPC error.
  // A message without an id is a notification: the protocol answers it 202 with no body, as the
  // document's 202 says (no content to validate); its 400 is the transport's JSON-RPC error.
  if (fuzzCase.template === '/mcp' && response.status === 202) return response.text === '' ? problems : [...problems, `a 202 with a body: ${response.text.slice(0, 200)}`];
  if (fuzzCase.template === '/mcp' && response.status === 400) {
    const body = response.json;
    if (body?.jsonrpc !== '2.0' || typeof body?.error?.code !== 'number' || typeof body?.error?.message !== 'string') problems.push(`not a JSON-RPC error: ${response.text.slice(0, 200)}`);
    return [...problems, ...validator.problems(fuzzCase.method, fuzzCase.template, response).map((problem) => `not as documented: ${problem}`)];
  }
  if (response.status >= 400) {
    const body = response.json;
    if (body === null || typeof body !== 'object') return [...problems, `error body is not JSON: ${response.text.slice(0, 200)}`];
    const extra = Object.keys(body).filter((key) => !['error', 'code', 'status', 'requestId', 'details'].includes(key));
    if (extra.length) problems.push(`error body has ${extra.join(', ')}`);
    if (!ERROR_CODE_NAMES.includes(body.code)) problems.push(`code ${body.code} is not in the error table`);
    else if (statusOf(body.code as ErrorCode) !== response.status) problems.push(`code ${body.code} with status ${response.status}`);
    if (body.status !== response.status) problems.push(`body status ${body.status}, HTTP status ${response.status}`);
    if (typeof body.error !== 'string' || body.error.length === 0) problems.push('no error message');
    if (!/^req_[0-9A-HJKMNP-TV-Z]{26}$/.test(body.requestId ?? '')) problems.push(`requestId ${body.requestId}`);
    if (response.headers['x-request-id'] !== body.requestId) problems.push('X-Request-Id differs from the body’s requestId');
    if (body.details !== undefined) {
      if (!Array.isArray(body.details) || body.details.length === 0) problems.push('details is not a non-empty array');
      else if (!body.details.every((detail: any) => typeof detail?.path === 'string' && typeof detail?.message === 'string' && detail.message.length > 0)) {
        problems.push(`details entries are not {path, message}: ${JSON.stringify(body.details).slice(0, 200)}`);
      }
    }
    if (body.code === 'validation/invalid' && fuzzCase.field !== undefined && fuzzCase.label.startsWith('body') && Array.isArray(body.details)) {
      // The problem is named where it is: the changed field, a field under it, the object that holds it,
      // or `body` (the whole body, when it cannot be read at all).
      // A field whose validity depends on the clock (a request for quotes' closesAt must be 1 h to 14 days
      // ahead) is refused in the document's example once its date has passed, whatever else changed.
      const field = fuzzCase.field;
      const clockBound = body.details.every((detail: any) => CLOCK_BOUND_FIELDS.includes(detail.path));
      const named = field === '' || clockBound || body.details.some((detail: any) => detail.path === '' || detail.path === 'body' || detail.path === field || detail.path.startsWith(`${field}.`) || field.startsWith(`${detail.path}.`));
      if (!named) problems.push(`details name ${body.details.map((detail: any) => detail.path).join(', ')}, not ${field}`);
    }
  }
  problems.push(...validator.problems(fuzzCase.method, fuzzCase.template, response).map((problem) => `not as documented: ${problem}`));
  return problems;
}

/** Every table item of the fuzzing callers and their records (dispatch bookkeeping left out). */
async function callersItems(): Promise<Map<string, string>> {
  const seller = listing.seller;
  const lookups: { index?: string; name: string; value: string }[] = [
    { name: 'pk', value: `AGENT#${buyer.agentId}` },
    { name: 'pk', value: `AGENT#${seller.agentId}` },
    { name: 'pk', value: `APIKEY#${hashApiKey(buyer.apiKey)}` },
    { name: 'pk', value: `APIKEY#${hashApiKey(seller.apiKey)}` },
    { name: 'pk', value: `CATALOG#${seller.agentId}#${listing.sku}` },
    { name: 'pk', value: `OFFER#${listing.offerId}` },
    { name: 'pk', value: `NEGOTIATION#${ids.neg_}` },
    { name: 'pk', value: `ORDER#${ids.ord_}` },
    { index: 'gsi1', name: 'gsi1pk', value: `BUYER#${buyer.agentId}#NEGOTIATIONS` },
    { index: 'gsi1', name: 'gsi1pk', value: `BUYER#${buyer.agentId}#ORDERS` },
    { index: 'gsi2', name: 'gsi2pk', value: `SELLER#${seller.agentId}#NEGOTIATIONS` },
    { index: 'gsi2', name: 'gsi2pk', value: `SELLER#${seller.agentId}#ORDERS` },
    { index: 'gsi2', name: 'gsi2pk', value: `SELLER#${seller.agentId}#PRODUCTS` },
    { index: 'gsi2', name: 'gsi2pk', value: `SELLER#${seller.agentId}#EVENTS` },
    { index: 'gsi4', name: 'gsi4pk', value: `BUYER#${buyer.agentId}#EVENTS` },
  ];
  const items = new Map<string, string>();
  for (const lookup of lookups) {
    let start: Record<string, unknown> | undefined;
    do {
      const page = await documentClient.send(
        new QueryCommand({
          TableName: tableName(),
          ...(lookup.index ? { IndexName: lookup.index } : {}),
          KeyConditionExpression: '#k = :v',
          ExpressionAttributeNames: { '#k': lookup.name },
          ExpressionAttributeValues: { ':v': lookup.value },
          ...(start ? { ExclusiveStartKey: start } : {}),
        }),
      );
      for (const item of page.Items ?? []) {
        const { dispatchedAt: _dispatched, gsi1pk, gsi1sk, ...rest } = item;
        const kept = item.entity === 'event' ? rest : { ...rest, ...(gsi1pk !== undefined ? { gsi1pk, gsi1sk } : {}) };
        items.set(`${item.pk as string}|${item.sk as string}`, JSON.stringify(kept, Object.keys(kept).sort()));
      }
      start = page.LastEvaluatedKey;
    } while (start);
  }
  return items;
}

const s3 = new S3Client({ forcePathStyle: true });

/** The seller's feed files in the bucket (an upload writes its file before the feed is queued), by key with their ETags. */
async function sellerFeedFiles(): Promise<Map<string, string>> {
  const files = new Map<string, string>();
  let token: string | undefined;
  do {
    const page = await s3.send(new ListObjectsV2Command({ Bucket: inject('env').FEEDS_BUCKET_NAME, Prefix: `feeds/${listing.seller.agentId}/`, ContinuationToken: token }));
    for (const object of page.Contents ?? []) files.set(`s3:${object.Key as string}`, `${object.ETag as string} ${object.Size as number}`);
    token = page.NextContinuationToken;
  } while (token);
  return files;
}

async function undispatchedEvents(): Promise<number> {
  let count = 0;
  for (const [name, value, index] of [['gsi2pk', `SELLER#${listing.seller.agentId}#EVENTS`, 'gsi2'], ['gsi4pk', `BUYER#${buyer.agentId}#EVENTS`, 'gsi4']] as const) {
    const page = await documentClient.send(
      new QueryCommand({ TableName: tableName(), IndexName: index, KeyConditionExpression: '#k = :v', ExpressionAttributeNames: { '#k': name }, ExpressionAttributeValues: { ':v': value } }),
    );
    count += (page.Items ?? []).filter((item) => item.dispatchedAt === undefined).length;
  }
  return count;
}

function changes(before: Map<string, string>, after: Map<string, string>): string[] {
  const keys = new Set([...before.keys(), ...after.keys()]);
  return [...keys].filter((key) => before.get(key) !== after.get(key)).map((key) => `${key}: ${before.get(key) ?? '(none)'} → ${after.get(key) ?? '(none)'}`);
}

/** Runs the cases IN_FLIGHT at a time; public operations from a fresh source address per operation (their per-IP limit). */
async function run(cases: FuzzCase[]): Promise<string[]> {
  const senders = new Map<string, TestClient>();
  const senderFor = (fuzzCase: FuzzCase) => {
    if (keyFor(fuzzCase.operationId)) return client;
    const existing = senders.get(fuzzCase.operationId);
    if (existing) return existing;
    const fresh = new TestClient(client.baseUrl);
    senders.set(fuzzCase.operationId, fresh);
    return fresh;
  };
  const failures: string[] = [];
  let next = 0;
  const worker = async () => {
    while (next < cases.length) {
      const fuzzCase = cases[next++]!;
      const started = performance.now();
      const response = await send(fuzzCase, senderFor(fuzzCase));
      timings.push([performance.now() - started, `${fuzzCase.method} ${fuzzCase.url.slice(0, 80)} [${fuzzCase.label}] ${response.status}`]);
      for (const problem of problemsOf(fuzzCase, response)) failures.push(`${fuzzCase.method} ${fuzzCase.template} [${fuzzCase.label}] ${problem}`);
    }
  };
  await Promise.all(Array.from({ length: IN_FLIGHT }, worker));
  return failures;
}

describe(`fuzzing every operation of the served OpenAPI document (seed ${SEED})`, () => {
  it('answers generated invalid and edge-case requests without a 5xx, in the contract’s error shape, and writes nothing when it refuses', async () => {
    const builder = new FuzzCaseBuilder(ids);
    const all = operations.flatMap((operation, index) => builder.cases(operation, SEED + index, CASES_PER_OPERATION));
    const forbidden = all.filter((fuzzCase) => fuzzCase.forbidden);
    const others = all.filter((fuzzCase) => !fuzzCase.forbidden);
    expect(forbidden.length).toBeGreaterThan(all.length / 3);

    // First every request the document forbids: all must be refused, and the callers' items stay as they were.
    const before = new Map([...(await callersItems()), ...(await sellerFeedFiles())]);
    expect([...before.keys()].some((key) => key.startsWith('s3:feeds/')), 'the seller has a feed file to compare').toBe(true);
    const failures = await run(forbidden);
    const after = new Map([...(await callersItems()), ...(await sellerFeedFiles())]);
    for (const change of changes(before, after)) failures.push(`a refused request wrote: ${change}`);

    // Then the edge cases the document allows: they may succeed, but never with a 5xx or an undocumented answer.
    failures.push(...(await run(others)));
    console.log(`${all.length} requests (${forbidden.length} forbidden by the document); slowest:\n${timings.sort((a, b) => b[0] - a[0]).slice(0, 8).map(([ms, what]) => `  ${Math.round(ms)} ms ${what}`).join('\n')}`);
    expect(failures, `FUZZ_SEED=${SEED}`).toEqual([]);
  }, 120_000);
});

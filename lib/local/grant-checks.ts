// IAM, emulated: each invocation of a route or worker handler in the local runtime may send only the
// AWS commands its row grants, exactly what the CDK stack grants its function (one derivation:
// lib/function-grants.ts) — table actions; feed files (`feeds/`) and search index snapshots
// (`search-index/`) in the feeds bucket; sending to the delivery queue; retry schedules in the stack's
// schedule group. A missing grant fails here, in `npm start` and the end-to-end tests, with AWS's
// AccessDeniedException and a message naming the action, the resource and the row, instead of in AWS.
// (iam:PassRole of the scheduler role has nothing to check locally: the emulator assumes no roles.)
import { AsyncLocalStorage } from 'node:async_hooks';
import { dynamoDb } from '../../shared/data/client.ts';
import { deliveryQueueClient } from '../../shared/data/delivery-queue.ts';
import { FEED_FILES_PREFIX } from '../../shared/data/feed-file-keys.ts';
import { feedsBucketClient } from '../../shared/data/feeds-bucket.ts';
import { retrySchedulerClient } from '../../shared/data/retry-schedules.ts';
import { SEARCH_SNAPSHOTS_PREFIX } from '../../shared/data/search-snapshot-keys.ts';
import { ENV } from '../../shared/resources.ts';
import type { FunctionGrants } from '../function-grants.ts';

export type { FunctionGrants } from '../function-grants.ts';

const invocation = new AsyncLocalStorage<FunctionGrants>();

/** Runs one invocation under its function's grants. */
export function runWithGrants<T>(grants: FunctionGrants, work: () => Promise<T>): Promise<T> {
  return invocation.run(grants, work);
}

/** The route or worker whose invocation is running here (undefined outside one): benchmarks count per function. */
export function currentFunctionName(): string | undefined {
  return invocation.getStore()?.functionName;
}

/** The IAM actions a command needs, by the SDK's command name (document-client names included). */
const DYNAMODB_ACTIONS: Record<string, string> = {
  GetItem: 'GetItem',
  Get: 'GetItem',
  PutItem: 'PutItem',
  Put: 'PutItem',
  UpdateItem: 'UpdateItem',
  Update: 'UpdateItem',
  DeleteItem: 'DeleteItem',
  Delete: 'DeleteItem',
  Query: 'Query',
  Scan: 'Scan',
  BatchGetItem: 'BatchGetItem',
  BatchGet: 'BatchGetItem',
  BatchWriteItem: 'BatchWriteItem',
  BatchWrite: 'BatchWriteItem',
};

/** A transaction needs the action of each of its items (IAM has no TransactWriteItems action). */
const TRANSACTION_ITEM_ACTIONS: Record<string, string> = { Put: 'PutItem', Update: 'UpdateItem', Delete: 'DeleteItem', ConditionCheck: 'ConditionCheckItem', Get: 'GetItem' };

const S3_ACTIONS: Record<string, string[]> = {
  PutObject: ['s3:PutObject'],
  CreateMultipartUpload: ['s3:PutObject'],
  UploadPart: ['s3:PutObject'],
  CompleteMultipartUpload: ['s3:PutObject'],
  AbortMultipartUpload: ['s3:AbortMultipartUpload'],
  GetObject: ['s3:GetObject'],
  HeadObject: ['s3:GetObject'],
  DeleteObject: ['s3:DeleteObject'],
  DeleteObjects: ['s3:DeleteObject'],
  ListObjectsV2: ['s3:ListBucket'],
};

const SQS_ACTIONS: Record<string, string> = { SendMessage: 'sqs:SendMessage', SendMessageBatch: 'sqs:SendMessage' };

const SCHEDULER_ACTIONS: Record<string, string> = { CreateSchedule: 'scheduler:CreateSchedule', DeleteSchedule: 'scheduler:DeleteSchedule' };

export class AccessDenied extends Error {
  override readonly name = 'AccessDeniedException';
}

/** One permission a command needs: an action on a resource, and which of the row's grants may hold it. */
interface Needed {
  action: string;
  /** The resource, as the message names it. */
  resource: string;
  /** The row's actions on that resource (none: nothing of the row reaches it). */
  granted: readonly string[];
  /** What to add to the row. */
  fix: string;
}

/** The input fields the checks read, across the services' commands. */
interface Input {
  TransactItems?: Record<string, unknown>[];
  Bucket?: string;
  Key?: string;
  Prefix?: string;
  CopySource?: string;
  Delete?: { Objects?: { Key?: string }[] };
  QueueUrl?: string;
  GroupName?: string;
}

function commandName(name: string | undefined): string {
  return (name ?? '').replace(/Command$/, '');
}

function dynamodbNeeds(grants: FunctionGrants, name: string, input: Input): Needed[] {
  const actions = name.startsWith('Transact')
    ? [...new Set((input.TransactItems ?? []).flatMap((item) => Object.keys(item)).map((kind) => `dynamodb:${TRANSACTION_ITEM_ACTIONS[kind] ?? kind}`))]
    : [`dynamodb:${DYNAMODB_ACTIONS[name] ?? name}`];
  return actions.map((action) => ({ action, resource: 'the table', granted: grants.table, fix: `add ${action} to the row's tableActions` }));
}

/** S3 grants are per prefix of the feeds bucket: `feeds/` (feed files) and `search-index/` (snapshots). */
function s3Needs(grants: FunctionGrants, name: string, input: Input): Needed[] {
  const actions = S3_ACTIONS[name] ?? [`s3:${name}`];
  const bucket = process.env[ENV.feedsBucketName];
  const keys: string[] =
    name === 'DeleteObjects'
      ? (input.Delete?.Objects ?? []).map((object) => object.Key ?? '')
      : name === 'ListObjectsV2'
        ? [input.Prefix ?? '']
        : [input.Key ?? ''];
  const area = (key: string): { resource: string; granted: readonly string[]; field: string } => {
    if (input.Bucket !== bucket) return { resource: `bucket ${input.Bucket ?? '(none)'}`, granted: [], field: 'nothing' };
    if (key.startsWith(FEED_FILES_PREFIX)) return { resource: `${FEED_FILES_PREFIX}* in the feeds bucket`, granted: grants.feedFiles, field: 'feedFileActions' };
    if (key.startsWith(SEARCH_SNAPSHOTS_PREFIX)) return { resource: `${SEARCH_SNAPSHOTS_PREFIX}* in the feeds bucket`, granted: grants.searchIndex, field: 'searchIndexActions' };
    return { resource: `${key || '(no prefix)'} in the feeds bucket`, granted: [], field: 'nothing' };
  };
  const needs = keys.flatMap((key) => actions.map((action) => ({ action, ...area(key) })));
  if (name === 'CopyObject') {
    // Reading the source, writing the destination.
    const source = decodeURIComponent((input.CopySource ?? '').replace(/^[^/]*\//, ''));
    needs.splice(0, needs.length, { action: 's3:GetObject', ...area(source) }, { action: 's3:PutObject', ...area(input.Key ?? '') });
  }
  return needs.map(({ action, resource, granted, field }) => ({
    action,
    resource,
    granted,
    fix: field === 'nothing' ? 'no row may be granted this' : `add ${action} to the row's ${field}`,
  }));
}

function sqsNeeds(grants: FunctionGrants, name: string, input: Input): Needed[] {
  const action = SQS_ACTIONS[name] ?? `sqs:${name}`;
  const onDeliveryQueue = input.QueueUrl === process.env[ENV.deliveryQueueUrl];
  return [
    {
      action,
      resource: onDeliveryQueue ? 'the delivery queue' : `queue ${input.QueueUrl ?? '(none)'}`,
      granted: onDeliveryQueue ? grants.deliveryQueue : [],
      fix: onDeliveryQueue ? 'set sendsDeliveries on the row' : 'no row may be granted this',
    },
  ];
}

function schedulerNeeds(grants: FunctionGrants, name: string, input: Input): Needed[] {
  const action = SCHEDULER_ACTIONS[name] ?? `scheduler:${name}`;
  const inGroup = input.GroupName === process.env[ENV.schedulerGroupName];
  return [
    {
      action,
      resource: inGroup ? 'the retry schedule group' : `schedule group ${input.GroupName ?? 'default'}`,
      granted: inGroup ? grants.retrySchedules : [],
      fix: inGroup ? 'set schedulesDeliveryRetries on the row' : 'no row may be granted this',
    },
  ];
}

const NEEDS = { dynamodb: dynamodbNeeds, s3: s3Needs, sqs: sqsNeeds, scheduler: schedulerNeeds };
type Service = keyof typeof NEEDS;

function check(service: Service, name: string | undefined, input: unknown): void {
  const grants = invocation.getStore();
  if (!grants) return; // not inside a handler invocation (provisioning, tests' own calls)
  const missing = NEEDS[service](grants, commandName(name), (input ?? {}) as Input).filter((need) => !need.granted.includes(need.action));
  const first = missing[0];
  if (!first) return;
  const actions = [...new Set(missing.map((need) => need.action))].join(', ');
  throw new AccessDenied(
    `${grants.functionName} is not authorized to perform ${actions} on ${first.resource}: its row grants ${first.granted.join(', ') || 'nothing'} there (${first.fix})`,
  );
}

let installed = false;

/** Adds the check to the data layer's clients, once per process. */
export function installGrantChecks(): void {
  if (installed) return;
  installed = true;
  // The same middleware on each client, written out so that each gets its client's own types.
  dynamoDb.middlewareStack.add(
    (next, context) => (args) => {
      check('dynamodb', context.commandName, args.input);
      return next(args);
    },
    { step: 'initialize', name: 'localGrantCheck' },
  );
  feedsBucketClient.middlewareStack.add(
    (next, context) => (args) => {
      check('s3', context.commandName, args.input);
      return next(args);
    },
    { step: 'initialize', name: 'localGrantCheck' },
  );
  deliveryQueueClient.middlewareStack.add(
    (next, context) => (args) => {
      check('sqs', context.commandName, args.input);
      return next(args);
    },
    { step: 'initialize', name: 'localGrantCheck' },
  );
  retrySchedulerClient.middlewareStack.add(
    (next, context) => (args) => {
      check('scheduler', context.commandName, args.input);
      return next(args);
    },
    { step: 'initialize', name: 'localGrantCheck' },
  );
}

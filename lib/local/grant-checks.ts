// IAM, emulated for the table and the feeds bucket: each invocation of a route or worker handler in
// the local runtime may send only the DynamoDB and S3 commands its row grants, exactly what the CDK
// stack grants its function. A missing grant fails here, in `npm start` and the end-to-end tests, with
// AWS's AccessDeniedException and a message naming the action and the row, instead of in AWS.
import { AsyncLocalStorage } from 'node:async_hooks';
import { dynamoDb } from '../../shared/data/client.ts';
import { feedFilesClient } from '../../shared/data/feed-files.ts';

export interface FunctionGrants {
  /** The route's operationId or the worker's id. */
  functionName: string;
  /** `dynamodb:*` actions (tableActionsFor(route), or the worker row's). */
  tableActions: readonly string[];
  /** `s3:*` actions on feed files (the row's, plus s3:GetObject for an S3-triggered worker). */
  feedFileActions: readonly string[];
}

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
  CopyObject: ['s3:GetObject', 's3:PutObject'],
  DeleteObject: ['s3:DeleteObject'],
  DeleteObjects: ['s3:DeleteObject'],
  ListObjectsV2: ['s3:ListBucket'],
};

export class AccessDenied extends Error {
  override readonly name = 'AccessDeniedException';
}

function required(service: 'dynamodb' | 's3', commandName: string | undefined, input: unknown): string[] {
  const name = (commandName ?? '').replace(/Command$/, '');
  if (service === 's3') return S3_ACTIONS[name] ?? [`s3:${name}`];
  if (name.startsWith('Transact')) {
    const items = ((input as { TransactItems?: Record<string, unknown>[] } | undefined)?.TransactItems ?? []).flatMap((item) => Object.keys(item));
    return [...new Set(items.map((kind) => `dynamodb:${TRANSACTION_ITEM_ACTIONS[kind] ?? kind}`))];
  }
  return [`dynamodb:${DYNAMODB_ACTIONS[name] ?? name}`];
}

function check(service: 'dynamodb' | 's3', commandName: string | undefined, input: unknown): void {
  const grants = invocation.getStore();
  if (!grants) return; // not inside a handler invocation (provisioning, tests' own calls)
  const granted = service === 'dynamodb' ? grants.tableActions : grants.feedFileActions;
  const missing = required(service, commandName, input).filter((action) => !granted.includes(action));
  if (missing.length > 0) {
    throw new AccessDenied(
      `${grants.functionName} is not authorized to perform ${missing.join(', ')}: its row grants ${granted.join(', ') || 'nothing'} on the ${service === 'dynamodb' ? 'table' : 'feeds bucket'} (add ${missing.join(', ')} to the row)`,
    );
  }
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
  feedFilesClient.middlewareStack.add(
    (next, context) => (args) => {
      check('s3', context.commandName, args.input);
      return next(args);
    },
    { step: 'initialize', name: 'localGrantCheck' },
  );
}

// Names of the stack's resources and the environment variables that carry them to functions.
// The CDK stack sets these on every function; the local runtime sets the same ones for its handlers.
import { readFileSync } from 'node:fs';

export const ENV = {
  stage: 'STAGE',
  tableName: 'TABLE_NAME',
  cursorSigningKey: 'CURSOR_SIGNING_KEY',
  allowPrivateWebhookUrls: 'ALLOW_PRIVATE_WEBHOOK_URLS',
  feedsBucketName: 'FEEDS_BUCKET_NAME',
  feedsUploadEndpoint: 'FEEDS_UPLOAD_ENDPOINT',
  deliveryQueueUrl: 'DELIVERY_QUEUE_URL',
  deliveryQueueArn: 'DELIVERY_QUEUE_ARN',
  schedulerGroupName: 'SCHEDULER_GROUP_NAME',
  schedulerRoleArn: 'SCHEDULER_ROLE_ARN',
  logLevel: 'LOG_LEVEL',
  bundledFilesDir: 'BUNDLED_FILES_DIR',
  apiBaseUrl: 'API_BASE_URL',
  orderApprovalSeconds: 'ORDER_APPROVAL_SECONDS',
  webhookDisableAfterSeconds: 'WEBHOOK_DISABLE_AFTER_SECONDS',
  rfqMinCloseSeconds: 'RFQ_MIN_CLOSE_SECONDS',
  mcpAllowedOrigins: 'MCP_ALLOWED_ORIGINS',
  mcpAllowedHosts: 'MCP_ALLOWED_HOSTS',
  houseShipAfterSeconds: 'HOUSE_SHIP_AFTER_SECONDS',
  houseDeliverAfterSeconds: 'HOUSE_DELIVER_AFTER_SECONDS',
} as const;

export type Stage = 'test' | 'live';

/**
 * Does a route or worker row exist in this stage? Rows without `stages` exist in both; the sandbox's
 * test helpers and house agents say `['test']` (docs/decisions/test-stage-routes.md).
 */
export function servedOn(stage: Stage): (row: { stages?: readonly Stage[] | undefined }) => boolean {
  return (row) => row.stages === undefined || row.stages.includes(stage);
}

/**
 * IAM actions on the table that a function may be granted (route and worker rows list theirs).
 * TransactWriteItems has no action of its own: IAM checks each item's action.
 */
export type TableAction =
  | 'dynamodb:GetItem'
  | 'dynamodb:BatchGetItem'
  | 'dynamodb:BatchWriteItem'
  | 'dynamodb:Query'
  | 'dynamodb:PutItem'
  | 'dynamodb:UpdateItem'
  | 'dynamodb:DeleteItem'
  | 'dynamodb:ConditionCheckItem';

/**
 * What a function may do with the feeds bucket's files (under `feeds/`). Presigning an upload URL needs
 * PutObject: the URL acts with the signing function's permissions.
 */
export type FeedFileAction = 's3:PutObject' | 's3:GetObject' | 's3:DeleteObject' | 's3:ListBucket';

/**
 * What a function may do with the search index's snapshots (the feeds bucket's `search-index/` prefix).
 * Snapshots are uploaded in parts: AbortMultipartUpload lets a failed upload clean up after itself.
 */
export type SearchIndexAction = 's3:PutObject' | 's3:GetObject' | 's3:DeleteObject' | 's3:ListBucket' | 's3:AbortMultipartUpload';

/** Physical names, fixed per stage so that operators and the admin command can find them. */
export function resourceNames(stage: Stage) {
  return {
    stackName: `AgentMarketplace-${stage}`,
    tableName: `agent-marketplace-${stage}`,
    deliveryQueueName: `agent-marketplace-${stage}-webhook-delivery`,
    deliveryDlqName: `agent-marketplace-${stage}-webhook-delivery-dlq`,
    schedulerGroupName: `agent-marketplace-${stage}`,
  };
}

/** A worker's own dead-letter queue (stream and S3-triggered workers: shared/workers.ts). */
export function workerFailureQueueName(stage: Stage, workerId: string): string {
  return `agent-marketplace-${stage}-${workerId}-failures`;
}

/** The local runtime is a sandbox stack on one machine. */
export const LOCAL = {
  stage: 'test' as Stage,
  region: 'us-east-1',
  feedsBucketName: 'agent-marketplace-local-feeds',
  ...resourceNames('test'),
};

/**
 * Files built at synth and shipped beside a function's bundle (a route or worker row's `bundledFiles`):
 * `openapi.json`: the OpenAPI document. `reference-assets`: a folder of the API reference's files
 * (Redoc and its start module, each also brotli- and gzip-compressed), not JavaScript that the
 * function runs; `reference-assets.json`: their manifest (names, types, sizes). `search-words.json`:
 * the word lists intent reading uses (English words, country names, the thesaurus). `llms.txt`: the
 * llmstxt.org summary of the API for language models. `dashboard.json`: the dashboard page (its HTML with
 * the bundled browser script inline) and its Content-Security-Policy (lib/dashboard-page.ts).
 * `route-methods.json`: every path template of the route table with the methods it serves (the fallback
 * answers 405 with Allow from it). `agent-card.json`: the A2A agent card (lib/agent-card.ts).
 * `house-catalog.json`: the sandbox's house seller's catalog, as JSON feed rows.
 */
export type BundledFile = 'openapi.json' | 'reference-assets' | 'reference-assets.json' | 'search-words.json' | 'llms.txt' | 'dashboard.json' | 'route-methods.json' | 'agent-card.json' | 'house-catalog.json';

/**
 * Where a function finds the files built for it (a route's `bundledFiles`): beside its bundle when
 * deployed, or in the folder the local runtime names in BUNDLED_FILES_DIR.
 */
export function bundledFilePath(name: string, moduleUrl: string): string | URL {
  const dir = process.env[ENV.bundledFilesDir];
  return dir ? `${dir}/${name}` : new URL(`./${name}`, moduleUrl);
}

/** A bundled file's text; a missing one says what to fix (the route's row lists what ships beside it). */
export function readBundledFile(name: string, moduleUrl: string): string {
  const file = bundledFilePath(name, moduleUrl);
  try {
    return readFileSync(file, 'utf8');
  } catch (error) {
    throw new Error(`${name} is missing (${String(file)}): the route's row must list it in bundledFiles`, { cause: error });
  }
}

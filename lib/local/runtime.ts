// The whole stack on one machine: DynamoDB Local, fauxqs (S3 + SQS), the scheduler emulator, the
// worker table's event sources, and the API gateway, with every handler running in this process.
// Used by `npm start` (bin/local.ts), the test suite's global setup, and the benchmark.
//
// Handlers are imported once per process, and their SDK clients keep the endpoints they first saw:
// a second runtime in the same process must reuse the first one's ports (pass them explicitly).
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { resetConfig } from '../../shared/config.ts';
import { ENV, LOCAL, servedOn } from '../../shared/resources.ts';
import { workers } from '../../functions/registry.ts';
import { workerTimeoutSeconds, type WorkerDefinition } from '../../shared/workers.ts';
import { writeBundledFiles } from '../bundled-files.ts';
import { SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { asyncFailureRecord, streamFailureRecord } from '../worker-failure-records.ts';
import { LOCAL_ACCOUNT_ID, LOCAL_CREDENTIALS, LOCAL_REGION, localClientConfig } from './aws.ts';
import { startDynamoDbLocal, type DynamoDbLocal } from './dynamodb-local.ts';
import { LocalRuntimeError } from './errors.ts';
import { startLocalFauxqs, type LocalFauxqs } from './fauxqs.ts';
import { startGateway } from './gateway.ts';
import { CONCURRENT_INVOCATIONS_ENV, loadHandler } from './lambda.ts';
import { loadLocalSecrets } from './local-secrets.ts';
import { assertPortFree } from './ports.ts';
import { isAlive, processIdentity } from './processes.ts';
import { provisionLocalResources, type ProvisionedResources } from './provision.ts';
import { runAtDeploy } from './deployments.ts';
import { startLogSubscription } from './log-subscriptions.ts';
import { startS3Notifications } from './s3-notifications.ts';
import { startSchedulerEmulator } from './scheduler.ts';
import { startSchedule } from './schedules.ts';
import { startStreamReader } from './stream-reader.ts';
import { startUploadProxy } from './upload-proxy.ts';
import { installGrantChecks, runWithGrants } from './grant-checks.ts';
import { workerGrants } from '../function-grants.ts';
import { startSqsPoller } from './sqs-poller.ts';

export interface LocalRuntimeOptions {
  /** Everything persists here: the table, queues, objects, schedules, secrets. */
  dataDir: string;
  /** The API's port; 0 picks a free one. */
  port: number;
  dynamoPort?: number;
  fauxqsPort?: number;
  schedulerPort?: number;
  /** The presigned-upload proxy's port; 0 (default) picks a free one. */
  uploadPort?: number;
  /** No handler logs (LOG_LEVEL SILENT unless LOG_LEVEL is set); errors are still reported. */
  quiet?: boolean;
  /** Workers (by id) not to start, for the bench to measure what one adds to the start (bench/sandbox-start.ts); `npm start` starts every one. */
  withoutWorkers?: readonly string[];
}

export interface LocalRuntime {
  /** `http://127.0.0.1:<port>` */
  baseUrl: string;
  dataDir: string;
  /** What the handlers see: also what tests and the admin command need to reach the same stack. */
  env: Record<string, string>;
  endpoints: { api: string; dynamodb: string; fauxqs: string; scheduler: string; uploads: string };
  resources: ProvisionedResources;
  fauxqs: LocalFauxqs;
  stop(): Promise<void>;
}

/** <dataDir>/runtime.json while a runtime runs; the admin command reads it. */
export interface RuntimeFile {
  pid: number;
  pidIdentity: string | undefined;
  dataDir: string;
  baseUrl: string;
  startedAt: string;
  endpoints: LocalRuntime['endpoints'];
  env: Record<string, string>;
}

export function runtimeFilePath(dataDir: string): string {
  return join(resolve(dataDir), 'runtime.json');
}

/** Another live runtime owns the folder: refuse rather than kill its DynamoDB Local. */
function assertDataDirFree(dataDir: string): void {
  const file = runtimeFilePath(dataDir);
  if (!existsSync(file)) return;
  try {
    const running = JSON.parse(readFileSync(file, 'utf8')) as RuntimeFile;
    if (isAlive(running.pid) && processIdentity(running.pid) === running.pidIdentity) {
      throw new LocalRuntimeError(`A local runtime (pid ${running.pid}) already uses ${dataDir} at ${running.baseUrl}; stop it or set another DATA_DIR`);
    }
  } catch (error) {
    if (error instanceof LocalRuntimeError) throw error;
  }
  rmSync(file, { force: true }); // left by a runtime that was killed
}

/** The names a browser uses for this machine: the local gateway listens on loopback only. */
const LOOPBACK_HOST_NAMES = ['localhost', '127.0.0.1', '[::1]'];

function handlerEnv(options: { dataDir: string; quiet: boolean; endpoints: LocalRuntime['endpoints']; resources: ProvisionedResources }) {
  const { endpoints, resources } = options;
  return {
    [ENV.stage]: LOCAL.stage,
    [ENV.tableName]: resources.tableName,
    [ENV.cursorSigningKey]: loadLocalSecrets(options.dataDir).cursorSigningKey,
    [ENV.allowPrivateWebhookUrls]: 'true',
    [ENV.feedsBucketName]: resources.feedsBucketName,
    [ENV.feedsUploadEndpoint]: endpoints.uploads,
    [ENV.deliveryQueueUrl]: resources.deliveryQueueUrl,
    [ENV.deliveryQueueArn]: resources.deliveryQueueArn,
    [ENV.schedulerGroupName]: LOCAL.schedulerGroupName,
    [ENV.schedulerRoleArn]: `arn:aws:iam::${LOCAL_ACCOUNT_ID}:role/${LOCAL.stackName}-scheduler`,
    [ENV.logLevel]: process.env.LOG_LEVEL ?? (options.quiet ? 'SILENT' : 'INFO'),
    // Powertools: no EMF metric lines on standard output and no X-Ray segments outside Lambda.
    POWERTOOLS_METRICS_DISABLED: 'true',
    POWERTOOLS_TRACE_ENABLED: 'false',
    [ENV.bundledFilesDir]: join(options.dataDir, 'bundled-files'),
    // POST /mcp answers loopback names only, and pages served from them (DNS-rebinding protection);
    // MCP_ALLOWED_ORIGINS, when set for npm start, lets other pages call it too.
    [ENV.mcpAllowedHosts]: LOOPBACK_HOST_NAMES.join(','),
    ...(process.env[ENV.mcpAllowedOrigins] ? { [ENV.mcpAllowedOrigins]: process.env[ENV.mcpAllowedOrigins] } : {}),
    AWS_REGION: LOCAL_REGION,
    AWS_ACCESS_KEY_ID: LOCAL_CREDENTIALS.accessKeyId,
    AWS_SECRET_ACCESS_KEY: LOCAL_CREDENTIALS.secretAccessKey,
    AWS_ENDPOINT_URL_DYNAMODB: endpoints.dynamodb,
    AWS_ENDPOINT_URL_S3: endpoints.fauxqs,
    AWS_ENDPOINT_URL_SQS: endpoints.fauxqs,
    AWS_ENDPOINT_URL_SCHEDULER: endpoints.scheduler,
  };
}

/** Sets variables and returns how to put the previous values back. */
function applyEnv(env: Record<string, string>): () => void {
  const previous = Object.fromEntries(Object.keys(env).map((name) => [name, process.env[name]]));
  Object.assign(process.env, env);
  resetConfig(); // config() re-reads the environment
  return () => {
    for (const [name, value] of Object.entries(previous)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
    resetConfig();
  };
}

type Stopper = () => Promise<void> | void;

/** The local ARN of a worker's function, as lambdaContext() names it. */
export function localFunctionArn(functionName: string): string {
  return `arn:aws:lambda:${LOCAL_REGION}:${LOCAL_ACCOUNT_ID}:function:${functionName}`;
}

/** Starts the worker table's event sources; returns their stoppers. */
async function startWorkers(fauxqs: LocalFauxqs, dynamo: { endpoint: string; dataDir: string }, resources: ProvisionedResources, list: readonly WorkerDefinition[]): Promise<Stopper[]> {
  installGrantChecks();
  const stoppers: Stopper[] = [];
  // Lambda's on-failure destinations: what an event source gives up on goes to the worker's own queue.
  const failureQueue = new SQSClient(localClientConfig(fauxqs.endpoint));
  stoppers.push(() => failureQueue.destroy());
  const sendFailure = async (workerId: string, record: object) => {
    const queueUrl = resources.workerFailureQueueUrls[workerId];
    if (!queueUrl) throw new Error(`No dead-letter queue for worker ${workerId}`);
    await failureQueue.send(new SendMessageCommand({ QueueUrl: queueUrl, MessageBody: JSON.stringify(record) }));
  };
  for (const worker of list) {
    const trigger = worker.trigger;
    // The worker's grants, as the CDK stack gives them (an S3 trigger may also read its objects).
    const grants = workerGrants(worker);
    const loaded = await loadHandler(worker.handler);
    const handler: typeof loaded = (event, context) => runWithGrants(grants, () => loaded(event, context));
    if (trigger.type === 's3') {
      const notifications = startS3Notifications({
        fauxqs: fauxqs.server,
        endpoint: fauxqs.endpoint,
        bucket: resources.feedsBucketName,
        prefix: trigger.prefix,
        functionName: worker.id,
        timeoutMs: workerTimeoutSeconds(worker) * 1000,
        handler,
        deadLetter: (event, error, attempts) => sendFailure(worker.id, asyncFailureRecord(localFunctionArn(worker.id), event, error, attempts)),
      });
      stoppers.push(() => notifications.stop());
    } else if (trigger.type === 'stream') {
      const reader = startStreamReader({
        endpoint: dynamo.endpoint,
        tableName: resources.tableName,
        dataDir: dynamo.dataDir,
        functionName: worker.id,
        entities: trigger.entities,
        batchSize: trigger.batchSize,
        timeoutMs: workerTimeoutSeconds(worker) * 1000,
        handler,
        deadLetter: (skipped) =>
          sendFailure(
            worker.id,
            streamFailureRecord(
              localFunctionArn(worker.id),
              {
                shardId: skipped.shardId,
                streamArn: skipped.streamArn,
                first: { sequenceNumber: skipped.sequenceNumber, ...(skipped.arrival ? { arrival: skipped.arrival } : {}) },
                last: { sequenceNumber: skipped.sequenceNumber, ...(skipped.arrival ? { arrival: skipped.arrival } : {}) },
                size: 1,
              },
              skipped.attempts,
            ),
          ),
      });
      stoppers.push(() => reader.stop());
    } else if (trigger.type === 'deploy') {
      // A deploy's custom resource, once per start, before anything is served.
      await runAtDeploy({ functionName: worker.id, timeoutMs: workerTimeoutSeconds(worker) * 1000, handler, stackName: LOCAL.stackName });
    } else if (trigger.type === 'logs') {
      const subscription = startLogSubscription({
        functionName: worker.id,
        timeoutMs: workerTimeoutSeconds(worker) * 1000,
        handler,
        deadLetter: (event, error, attempts) => sendFailure(worker.id, asyncFailureRecord(localFunctionArn(worker.id), event, error, attempts)),
      });
      stoppers.push(() => subscription.stop());
    } else if (trigger.type === 'schedule') {
      const schedule = startSchedule({ functionName: worker.id, everyMinutes: trigger.everyMinutes, timeoutMs: workerTimeoutSeconds(worker) * 1000, handler });
      stoppers.push(() => schedule.stop());
    } else {
      const poller = startSqsPoller({
        endpoint: fauxqs.endpoint,
        queueUrl: resources.deliveryQueueUrl,
        queueArn: resources.deliveryQueueArn,
        batchSize: trigger.batchSize,
        concurrency: trigger.maxConcurrency,
        functionName: worker.id,
        handler,
      });
      stoppers.push(() => poller.stop());
    }
  }
  return stoppers;
}

async function runStoppers(stoppers: Stopper[]): Promise<void> {
  for (const stop of stoppers.reverse()) {
    try {
      await stop();
    } catch (error) {
      console.error('[local] error while stopping:', error);
    }
  }
}

export async function startLocalRuntime(options: LocalRuntimeOptions): Promise<LocalRuntime> {
  const dataDir = resolve(options.dataDir);
  mkdirSync(dataDir, { recursive: true });
  assertDataDirFree(dataDir);
  // Fail fast on taken ports, before the slow Java start.
  await assertPortFree(options.port, 'API', 'set PORT to use another one');
  if (options.schedulerPort) await assertPortFree(options.schedulerPort, 'scheduler emulator');

  const stoppers: Stopper[] = [];
  try {
    const [dynamo, fauxqs] = await Promise.allSettled([
      startDynamoDbLocal({ dataDir, port: options.dynamoPort ?? 0 }),
      startLocalFauxqs({ dataDir, port: options.fauxqsPort ?? 0 }),
    ]);
    if (dynamo.status === 'fulfilled') stoppers.push(() => dynamo.value.stop());
    if (fauxqs.status === 'fulfilled') stoppers.push(() => fauxqs.value.stop());
    if (dynamo.status === 'rejected') throw dynamo.reason;
    if (fauxqs.status === 'rejected') throw fauxqs.reason;
    const dynamoDb: DynamoDbLocal = dynamo.value;
    const localFauxqs: LocalFauxqs = fauxqs.value;

    const scheduler = await startSchedulerEmulator({
      dataDir,
      port: options.schedulerPort ?? 0,
      sendToQueue: ({ queueName, region, body, messageGroupId }) =>
        localFauxqs.server.sendMessage(queueName, body, { region, ...(messageGroupId ? { messageGroupId } : {}) }),
    });
    stoppers.push(() => scheduler.stop());

    const resources = await provisionLocalResources({ dynamodb: dynamoDb.endpoint, fauxqs: localFauxqs.endpoint });
    // Presigned feed uploads go through a streaming proxy: the emulator takes at most 11 MiB per request.
    const uploadProxy = await startUploadProxy({ fauxqsEndpoint: localFauxqs.endpoint, port: options.uploadPort ?? 0 });
    stoppers.push(() => uploadProxy.stop());
    const endpoints = { api: '', dynamodb: dynamoDb.endpoint, fauxqs: localFauxqs.endpoint, scheduler: scheduler.endpoint, uploads: uploadProxy.endpoint };
    // Before any handler module loads: they read the environment at import.
    const handlerSettings = handlerEnv({ dataDir, quiet: options.quiet ?? false, endpoints, resources });
    const env: Record<string, string> = handlerSettings;
    writeBundledFiles(handlerSettings[ENV.bundledFilesDir], LOCAL.stage); // what synth ships beside the bundles (the OpenAPI document)
    stoppers.push(applyEnv(env));
    // Invocations here share the process: Powertools keeps each one's Lambda context apart (lambda.ts).
    // Not in `env`, which test workers and operator commands copy: they call a handler one at a time,
    // outside the invocation contexts this process gives.
    stoppers.push(applyEnv(CONCURRENT_INVOCATIONS_ENV));

    stoppers.push(...(await startWorkers(localFauxqs, { endpoint: dynamoDb.endpoint, dataDir }, resources, workers.filter(servedOn(LOCAL.stage)).filter((worker) => !options.withoutWorkers?.includes(worker.id)))));
    const gateway = await startGateway({ port: options.port });
    stoppers.push(() => gateway.stop());
    endpoints.api = gateway.url;
    // Functions that call the API as a client (the MCP tools) call this gateway, as a deployed one
    // calls its stack's API; known only now that the gateway listens (config() re-reads it).
    env[ENV.apiBaseUrl] = gateway.url;
    stoppers.push(applyEnv({ [ENV.apiBaseUrl]: gateway.url }));

    const runtimeFile: RuntimeFile = {
      pid: process.pid,
      pidIdentity: processIdentity(process.pid),
      dataDir,
      baseUrl: gateway.url,
      startedAt: new Date().toISOString(),
      endpoints,
      env,
    };
    const runtimeFileName = runtimeFilePath(dataDir);
    writeFileSync(runtimeFileName, `${JSON.stringify(runtimeFile, null, 2)}\n`, { mode: 0o600 });
    stoppers.push(() => rmSync(runtimeFileName, { force: true }));

    let stopping: Promise<void> | undefined;
    return {
      baseUrl: gateway.url,
      dataDir,
      env,
      endpoints,
      resources,
      fauxqs: localFauxqs,
      stop: () => (stopping ??= runStoppers(stoppers)),
    };
  } catch (error) {
    await runStoppers(stoppers);
    throw error;
  }
}

// Operator commands (`npm run admin -- <command>`), against the local runtime or a deployed stack:
//   set-plan <agentId> <free|pro|enterprise> [--stage test|live]
//   replace-key <agentId> [--stage test|live]      prints the new key once; the old key stops working
//   replay-dead-letters <worker> [--stage test|live]   what a worker's event source gave up on, again (lib/dead-letters.ts)
//   rebuild-search-log [--stage test|live]           every product and offer appended to the search log again
// Without --stage the command talks to the local runtime started by `npm start` (same DATA_DIR).
// With --stage it talks to that AWS stack, using the usual AWS credentials and region.
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { resetConfig } from '../shared/config.ts';
import { LOCAL, resourceNames, workerFailureQueueName, type Stage } from '../shared/resources.ts';
import { workers } from '../functions/registry.ts';
import { hasFailureQueue, workerTimeoutSeconds, type WorkerDefinition } from '../shared/workers.ts';

/** Workers with dead letters to replay: their own queue (stream, S3) or their queue's (SQS). */
const REPLAYABLE = workers.filter((worker) => hasFailureQueue(worker) || worker.trigger.type === 'sqs').map((worker) => worker.id);

export const USAGE = `Usage:
  npm run admin -- set-plan <agentId> <free|pro|enterprise> [--stage test|live]
  npm run admin -- replace-key <agentId> [--stage test|live]
  npm run admin -- replay-dead-letters <${REPLAYABLE.join('|')}> [--stage test|live]
  npm run admin -- rebuild-search-log [--stage test|live]`;

export interface OperatorOutput {
  log(message: string): void;
  error(message: string): void;
}

class UsageError extends Error {}

function localRuntimeEnv(): Record<string, string> {
  const dataDir = resolve(process.env.DATA_DIR ?? '.data');
  const file = join(dataDir, 'runtime.json');
  if (!existsSync(file)) throw new UsageError(`No local runtime is running on ${dataDir} (start it with npm start, or pass --stage).`);
  return (JSON.parse(readFileSync(file, 'utf8')) as { env: Record<string, string> }).env;
}

function stackEnv(stage: Stage): Record<string, string> {
  return {
    STAGE: stage,
    TABLE_NAME: resourceNames(stage).tableName,
    // Operator commands never sign or read pagination cursors; config() only needs a well-formed value.
    CURSOR_SIGNING_KEY: 'operator-commands-do-not-use-cursors-0000',
  };
}

/** What an AWS SDK failure means to an operator. */
function explain(error: unknown, stage: Stage | undefined): string {
  const name = error instanceof Error ? error.name : 'Error';
  const message = error instanceof Error ? error.message : String(error);
  const where = stage ? `the ${stage} stack (table ${resourceNames(stage).tableName})` : 'the local runtime';
  if (name === 'ResourceNotFoundException') return `The table of ${where} does not exist: is the stack deployed in this account and region?`;
  if (name === 'CredentialsProviderError' || /credential/i.test(message)) return `No AWS credentials found for ${where}: set AWS_PROFILE or the AWS_* variables.`;
  if (name === 'AccessDeniedException' || name === 'UnrecognizedClientException') return `AWS refused the call to ${where} (${name}): check the credentials' permissions.`;
  return `The command failed against ${where}: ${name}: ${message}`;
}

function replayableWorker(id: string | undefined): WorkerDefinition {
  const worker = workers.find((candidate) => candidate.id === id);
  if (!worker || !REPLAYABLE.includes(worker.id)) {
    throw new UsageError(`${id ? `${id} has no dead-letter queue` : 'A worker is required'}: one of ${REPLAYABLE.join(', ')} (scheduled workers have none: their next run does the work).\n${USAGE}`);
  }
  return worker;
}

/** Runs a worker with an event: in AWS its deployed function (as the failure record names it), locally its handler here, under its grants. */
async function workerInvoker(worker: WorkerDefinition, stage: Stage | undefined): Promise<(event: unknown, functionArn: string) => Promise<void>> {
  if (stage) {
    const { InvokeCommand, LambdaClient } = await import('@aws-sdk/client-lambda');
    const lambda = new LambdaClient({});
    return async (event, functionArn) => {
      const result = await lambda.send(new InvokeCommand({ FunctionName: functionArn, InvocationType: 'RequestResponse', Payload: Buffer.from(JSON.stringify(event)) }));
      if (result.FunctionError) throw new Error(`${functionArn} failed again: ${Buffer.from(result.Payload ?? new Uint8Array()).toString('utf8')}`);
    };
  }
  const { lambdaContext, loadHandler } = await import('./local/lambda.ts');
  const { installGrantChecks, runWithGrants } = await import('./local/grant-checks.ts');
  const { workerGrants } = await import('./function-grants.ts');
  installGrantChecks();
  const handler = await loadHandler(worker.handler);
  return async (event) => {
    await runWithGrants(workerGrants(worker), () => handler(event, lambdaContext(worker.id, workerTimeoutSeconds(worker) * 1000)));
  };
}

async function replay(worker: WorkerDefinition, stage: Stage | undefined, out: OperatorOutput): Promise<number> {
  const { GetQueueUrlCommand, SQSClient } = await import('@aws-sdk/client-sqs');
  const { DynamoDBClient } = await import('@aws-sdk/client-dynamodb');
  const { DynamoDBStreamsClient } = await import('@aws-sdk/client-dynamodb-streams');
  const { localQueueUrl } = await import('./local/aws.ts');
  const { replayDeadLetters } = await import('./dead-letters.ts');
  const sqs = new SQSClient({});
  const names = resourceNames(stage ?? LOCAL.stage);
  const queueName = worker.trigger.type === 'sqs' ? names.deliveryDlqName : workerFailureQueueName(stage ?? LOCAL.stage, worker.id);
  // Locally queue URLs come from the emulator's endpoint (fauxqs's own URLs name hosts not every resolver knows).
  const queueUrl = async (name: string) =>
    stage ? ((await sqs.send(new GetQueueUrlCommand({ QueueName: name }))).QueueUrl ?? '') : localQueueUrl(process.env.AWS_ENDPOINT_URL_SQS ?? '', name);
  const outcome = await replayDeadLetters({
    worker,
    sqs,
    deadLetterQueueUrl: await queueUrl(queueName),
    ...(worker.trigger.type === 'sqs' ? { sourceQueueUrl: await queueUrl(names.deliveryQueueName) } : {}),
    // Locally the stream is DynamoDB Local's, on the table's endpoint.
    streams: new DynamoDBStreamsClient(stage ? {} : { endpoint: process.env.AWS_ENDPOINT_URL_DYNAMODB }),
    dynamodb: new DynamoDBClient({}),
    tableName: process.env.TABLE_NAME ?? names.tableName,
    invoke: worker.trigger.type === 'sqs' ? () => Promise.resolve() : await workerInvoker(worker, stage),
    log: (message) => out.error(message),
  });
  const lines = [`${worker.id}: ${outcome.replayed} dead letter${outcome.replayed === 1 ? '' : 's'} replayed.`];
  if (outcome.gone > 0) lines.push(`${outcome.gone} named records that have left the stream (older than 24 h) and were removed: ${worker.whenRecordsAreGone ?? 'they cannot be replayed'}.`);
  if (outcome.failed > 0) lines.push(`${outcome.failed} failed again and stay in ${queueName}: fix the cause and run this again.`);
  out.log(lines.join('\n'));
  return outcome.failed > 0 ? 1 : 0;
}

/** Runs one operator command; returns the process exit code. */
export async function runOperatorCommand(args: readonly string[], out: OperatorOutput): Promise<number> {
  let stage: Stage | undefined;
  try {
    const { values, positionals } = parseArgs({
      args: [...args],
      options: { stage: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
      allowPositionals: true,
    });
    const [command, agentId, plan] = positionals;
    if (values.help || !command) throw new UsageError(USAGE);
    const forAgent = command === 'set-plan' || command === 'replace-key';
    if (forAgent && (!agentId || !/^agt_[0-9A-Z]{26}$/.test(agentId))) throw new UsageError(`An agent id (agt_…) is required.\n${USAGE}`);
    if (values.stage !== undefined && values.stage !== 'test' && values.stage !== 'live') throw new UsageError('--stage must be test or live');
    const worker = command === 'replay-dead-letters' ? replayableWorker(positionals[1]) : undefined;
    stage = values.stage;
    Object.assign(process.env, stage ? stackEnv(stage) : localRuntimeEnv(), { LOG_LEVEL: 'SILENT' });
    resetConfig(); // config() reads the environment just set

    if (command === 'replay-dead-letters' && worker) return await replay(worker, stage, out);
    if (command === 'rebuild-search-log') {
      const { rebuildSearchLog } = await import('./search-log-rebuild.ts');
      const rebuilt = await rebuildSearchLog();
      out.log(
        rebuilt.items === 0
          ? 'No products or offers in the table: nothing to append.'
          : `Appended ${rebuilt.items} products and offers to the search log (up to entry ${rebuilt.lastSeq}); search instances apply them within their refresh interval.`,
      );
      return 0;
    }
    if (!agentId) throw new UsageError(`Unknown command ${command}.\n${USAGE}`);

    // Imported after the environment is set: the data layer reads it when it loads.
    const { setAgentPlan } = await import('../shared/data/agents.ts');
    const { replaceLostKey } = await import('../shared/domain/agents.ts');
    const { Plan } = await import('../shared/schemas/agents.ts');
    const now = new Date();
    switch (command) {
      case 'set-plan': {
        const parsed = Plan.safeParse(plan);
        if (!parsed.success) throw new UsageError(`The plan must be free, pro or enterprise.\n${USAGE}`);
        const agent = await setAgentPlan(agentId, parsed.data, now.toISOString());
        if (!agent) throw new UsageError(`No agent ${agentId}.`);
        out.log(`${agentId} is now on the ${agent.plan} plan (running containers apply it within 30 s).`);
        return 0;
      }
      case 'replace-key': {
        const rotated = await replaceLostKey(agentId, now);
        if (!rotated) throw new UsageError(`No agent ${agentId}.`);
        out.log(`New API key for ${agentId} (shown once; the previous key no longer works):\n${rotated.apiKey}`);
        return 0;
      }
      default:
        throw new UsageError(`Unknown command ${command}.\n${USAGE}`);
    }
  } catch (error) {
    out.error(error instanceof UsageError ? error.message : explain(error, stage));
    return 1;
  }
}

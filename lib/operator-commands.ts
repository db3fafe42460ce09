// Operator commands (`npm run admin -- <command>`), against the local runtime or a deployed stack:
//   set-plan <agentId> <free|pro|enterprise> [--stage test|live]
//   replace-key <agentId> [--stage test|live]      prints the new key once; the old key stops working
// Without --stage the command talks to the local runtime started by `npm start` (same DATA_DIR).
// With --stage it talks to that AWS stack, using the usual AWS credentials and region.
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { resetConfig } from '../shared/config.ts';
import { resourceNames, type Stage } from '../shared/resources.ts';

export const USAGE = `Usage:
  npm run admin -- set-plan <agentId> <free|pro|enterprise> [--stage test|live]
  npm run admin -- replace-key <agentId> [--stage test|live]`;

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
    if (!agentId || !/^agt_[0-9A-Z]{26}$/.test(agentId)) throw new UsageError(`An agent id (agt_…) is required.\n${USAGE}`);
    if (values.stage !== undefined && values.stage !== 'test' && values.stage !== 'live') throw new UsageError('--stage must be test or live');
    stage = values.stage;
    Object.assign(process.env, stage ? stackEnv(stage) : localRuntimeEnv(), { LOG_LEVEL: 'SILENT' });
    resetConfig(); // config() reads the environment just set

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

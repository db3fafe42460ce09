// Operator commands (`npm run admin -- <command>`), against the local runtime or a deployed stack.
//   set-plan <agentId> <free|pro|enterprise> [--stage test|live]
//   replace-key <agentId> [--stage test|live]      prints the new key once; the old key stops working
// Without --stage the command talks to the local runtime started by `npm start` (same DATA_DIR).
// With --stage it talks to that AWS stack, using the usual AWS credentials and region.
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { resourceNames, type Stage } from '../shared/resources.ts';

const USAGE = `Usage:
  npm run admin -- set-plan <agentId> <free|pro|enterprise> [--stage test|live]
  npm run admin -- replace-key <agentId> [--stage test|live]`;

function fail(message: string): never {
  console.error(message);
  process.exit(1);
}

function useLocalRuntime(): void {
  const dataDir = resolve(process.env.DATA_DIR ?? '.data');
  const file = join(dataDir, 'runtime.json');
  if (!existsSync(file)) fail(`No local runtime is running on ${dataDir} (start it with npm start, or pass --stage).`);
  const runtime = JSON.parse(readFileSync(file, 'utf8')) as { env: Record<string, string> };
  Object.assign(process.env, runtime.env, { LOG_LEVEL: 'SILENT' });
}

function useStack(stage: Stage): void {
  Object.assign(process.env, {
    STAGE: stage,
    TABLE_NAME: resourceNames(stage).tableName,
    // Operator commands never sign or read pagination cursors; config() only needs a well-formed value.
    CURSOR_SIGNING_KEY: 'operator-commands-do-not-use-cursors-0000',
    LOG_LEVEL: 'SILENT',
  });
}

async function main(): Promise<void> {
  const { values, positionals } = parseArgs({
    args: process.argv.slice(2),
    options: { stage: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
    allowPositionals: true,
  });
  const [command, agentId, plan] = positionals;
  if (values.help || !command) fail(USAGE);
  if (!agentId || !/^agt_[0-9A-Z]{26}$/.test(agentId)) fail(`An agent id (agt_…) is required.\n${USAGE}`);
  if (values.stage !== undefined && values.stage !== 'test' && values.stage !== 'live') fail('--stage must be test or live');
  if (values.stage) useStack(values.stage);
  else useLocalRuntime();

  // Imported after the environment is set: the data layer reads it when it loads.
  const { setAgentPlan } = await import('../shared/data/agents.ts');
  const { replaceLostKey } = await import('../shared/domain/agents.ts');
  const { Plan } = await import('../shared/schemas/agents.ts');
  const now = new Date();

  switch (command) {
    case 'set-plan': {
      const parsed = Plan.safeParse(plan);
      if (!parsed.success) fail(`The plan must be free, pro or enterprise.\n${USAGE}`);
      const agent = await setAgentPlan(agentId, parsed.data, now.toISOString());
      if (!agent) fail(`No agent ${agentId}.`);
      console.log(`${agentId} is now on the ${agent.plan} plan (running containers apply it within 30 s).`);
      return;
    }
    case 'replace-key': {
      const rotated = await replaceLostKey(agentId, now);
      if (!rotated) fail(`No agent ${agentId}.`);
      console.log(`New API key for ${agentId} (shown once; the previous key no longer works):\n${rotated.apiKey}`);
      return;
    }
    default:
      fail(`Unknown command ${command}.\n${USAGE}`);
  }
}

await main();

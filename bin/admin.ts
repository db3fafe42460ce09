// `npm run admin -- <command>`: operator commands against the local runtime or a deployed stack
// (lib/operator-commands.ts says which commands and how).
import { runOperatorCommand } from '../lib/operator-commands.ts';

process.exitCode = await runOperatorCommand(process.argv.slice(2), { log: console.log, error: console.error });

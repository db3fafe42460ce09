// `npm start` (bin/local.ts) as a child process, for the tests and the benchmark that need the whole
// runtime in a process of its own (to kill it, restart it, or measure its memory).
import { spawn, type ChildProcess } from 'node:child_process';
import { resolve } from 'node:path';
import { createInterface } from 'node:readline';

export const LOCAL_COMMAND = resolve(import.meta.dirname, '../../bin/local.ts');

/** Starts `node bin/local.ts` with these variables added to this process's environment. */
export function spawnLocalCommand(env: Record<string, string>): ChildProcess {
  return spawn(process.execPath, [LOCAL_COMMAND], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
}

/** Resolves with the base URL (`http://127.0.0.1:<port>`) the command printed once it listens; rejects if it exits first. */
export function listeningUrl(child: ChildProcess): Promise<string> {
  return new Promise((resolveUrl, reject) => {
    let stderr = '';
    child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.once('exit', (code, signal) => reject(new Error(`npm start exited (${code ?? signal}) before listening: ${stderr}`)));
    createInterface({ input: child.stdout! }).on('line', (line) => {
      const match = /listening on (http:\/\/localhost:\d+)/.exec(line);
      if (match) resolveUrl((match[1] as string).replace('localhost', '127.0.0.1'));
    });
  });
}

// Child-process bookkeeping for the local runtime: identify a pid reliably (pids are reused), stop a
// process and wait for it to go, and a watchdog that kills a child when its parent disappears —
// even when the parent is killed with SIGKILL and cannot clean up after itself.
import { execFileSync, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';

/** Whether the process runs. A zombie (exited, not yet reaped by its parent) does not. */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  return !isZombie(pid);
}

function isZombie(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const state = stat.charAt(stat.lastIndexOf(')') + 2);
    return state === 'Z' || state === 'X';
  } catch {
    return false; // no /proc (macOS): kill(0) has to do
  }
}

function ps(pid: number, field: string): string | undefined {
  try {
    const output = execFileSync('ps', ['-o', `${field}=`, '-p', String(pid)], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
    return output.trim() || undefined;
  } catch {
    return undefined;
  }
}

/** The process's arguments (argv), or undefined when it does not exist. */
export function commandLineOf(pid: number): string[] | undefined {
  try {
    const raw = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
    return raw.split('\0').filter((arg) => arg !== '');
  } catch {
    if (process.platform === 'linux') return undefined;
    return ps(pid, 'command')?.split(/\s+/); // macOS: no /proc
  }
}

/**
 * A token that changes when the pid is reused: the process's start time. Undefined when the
 * process does not exist.
 */
export function processIdentity(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may contain spaces and parentheses); starttime is field 22.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return fields[19];
  } catch {
    if (process.platform === 'linux') return undefined;
    return ps(pid, 'lstart');
  }
}

/** SIGTERM, then SIGKILL if the process is still there after `graceMs`. Resolves once it is gone (or stuck beyond reach). */
export async function terminate(pid: number, graceMs = 5_000): Promise<void> {
  const signal = (name: NodeJS.Signals) => {
    try {
      process.kill(pid, name);
    } catch {
      // already gone
    }
  };
  signal('SIGTERM');
  const deadline = Date.now() + graceMs;
  while (isAlive(pid) && Date.now() < deadline) await sleep(50);
  if (!isAlive(pid)) return;
  signal('SIGKILL');
  const killDeadline = Date.now() + graceMs;
  while (isAlive(pid) && Date.now() < killDeadline) await sleep(20);
}

// Polls both pids; when the owner is gone but the child is not, stops the child (TERM, then KILL).
// Exits on its own once the child is gone, so a normal stop leaves nothing behind.
const WATCHDOG_SCRIPT = `
owner=$1; child=$2
while kill -0 "$owner" 2>/dev/null && kill -0 "$child" 2>/dev/null; do sleep 0.5; done
kill -0 "$child" 2>/dev/null || exit 0
kill "$child" 2>/dev/null
i=0
while [ $i -lt 100 ]; do kill -0 "$child" 2>/dev/null || exit 0; sleep 0.1; i=$((i+1)); done
kill -9 "$child" 2>/dev/null
`;

export const WATCHDOG_MARKER = 'local-runtime-watchdog';

/**
 * Starts a detached `sh` that kills `childPid` when this process dies. Returns the watchdog's pid.
 * Detached: a Ctrl+C aimed at the terminal's process group must not take the watchdog down first.
 */
export function startWatchdog(childPid: number): number {
  const watchdog = spawn('sh', ['-c', WATCHDOG_SCRIPT, WATCHDOG_MARKER, String(process.pid), String(childPid)], {
    detached: true,
    stdio: 'ignore',
  });
  watchdog.unref();
  if (watchdog.pid === undefined) throw new Error('Could not start the watchdog shell (sh)');
  return watchdog.pid;
}

// Reading what functions log. The logger's level is read once, when its module loads, and Powertools
// puts it back at the start of every invocation, so a test that reads the logs loads a fresh copy of
// the function code at the level it needs (vi.resetModules) and captures standard output and error.
import { vi } from 'vitest';

/** `load`'s modules imported afresh with these variables set (LOG_LEVEL, POWERTOOLS_*), which are then put back. */
export async function loadWithEnv<T>(env: Record<string, string>, load: () => Promise<T>): Promise<T> {
  const previous = Object.fromEntries(Object.keys(env).map((name) => [name, process.env[name]]));
  Object.assign(process.env, env);
  vi.resetModules();
  try {
    return await load();
  } finally {
    for (const [name, value] of Object.entries(previous)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  }
}

/** Everything written to standard output and error while `run` runs. */
export async function captureOutput(run: () => Promise<void>): Promise<{ stdout: string; stderr: string }> {
  const written = { stdout: '', stderr: '' };
  const originals = { stdout: process.stdout.write.bind(process.stdout), stderr: process.stderr.write.bind(process.stderr) };
  for (const stream of ['stdout', 'stderr'] as const) {
    process[stream].write = ((chunk: string | Uint8Array) => {
      written[stream] += String(chunk);
      return true;
    });
  }
  try {
    await run();
  } finally {
    process.stdout.write = originals.stdout;
    process.stderr.write = originals.stderr;
  }
  return written;
}

// Port helpers: check a requested port before starting anything slow, or pick a free one.
import { createServer } from 'node:net';
import { LocalRuntimeError } from './errors.ts';

function listenOnce(port: number, host?: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.once('error', reject);
    server.listen({ port, host, exclusive: true }, () => {
      const address = server.address();
      const bound = typeof address === 'object' && address ? address.port : port;
      server.close(() => resolve(bound));
    });
  });
}

/** A port nothing listens on right now (the OS picks it). */
export function freePort(): Promise<number> {
  return listenOnce(0, '127.0.0.1');
}

/**
 * Fails with a one-line message when `port` is taken. Checks every interface (the dual-stack
 * wildcard), so a server on 127.0.0.1 or ::1 alone also counts as taken.
 */
export async function assertPortFree(port: number, what: string, hint = ''): Promise<void> {
  if (port === 0) return;
  try {
    await listenOnce(port);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE' || code === 'EACCES') {
      throw new LocalRuntimeError(`Port ${port} (${what}) is ${code === 'EACCES' ? 'not permitted' : 'already in use'}${hint ? `; ${hint}` : ''}`);
    }
    throw error;
  }
}

/** `port`, or a free one when it is 0 (for servers that cannot report the port they bound). */
export async function resolvePort(port: number, what: string, hint?: string): Promise<number> {
  if (port === 0) return freePort();
  await assertPortFree(port, what, hint);
  return port;
}

// fauxqs (S3 + SQS emulator) in this process, persisted under the data folder: SQS state in
// SQLite (<dataDir>/fauxqs), S3 objects as plain files (<dataDir>/s3). The message spy feeds the
// emulated S3 event notifications.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { startFauxqs, type FauxqsServer } from 'fauxqs';
import { LOCAL_REGION } from './aws.ts';
import { assertPortFree } from './ports.ts';

/** Spy events kept for late waiters; S3 notifications skip the ones they handled. */
const SPY_BUFFER_SIZE = 10_000;

export interface LocalFauxqs {
  server: FauxqsServer;
  endpoint: string;
  port: number;
  stop(): Promise<void>;
}

export async function startLocalFauxqs(options: { dataDir: string; port?: number }): Promise<LocalFauxqs> {
  const sqsDir = join(options.dataDir, 'fauxqs');
  const s3Dir = join(options.dataDir, 's3');
  mkdirSync(sqsDir, { recursive: true });
  mkdirSync(s3Dir, { recursive: true });
  const port = options.port ?? 0;
  await assertPortFree(port, 'fauxqs');
  const server = await startFauxqs({
    port,
    logger: false,
    defaultRegion: LOCAL_REGION,
    dataDir: sqsDir,
    s3StorageDir: s3Dir,
    messageSpies: { bufferSize: SPY_BUFFER_SIZE },
  });
  return { server, endpoint: `http://127.0.0.1:${server.port}`, port: server.port, stop: () => server.stop() };
}

// Where a search instance keeps its replica files: one folder per process under the system's temporary
// folder, so that the files of processes that are gone can be removed.
import { mkdirSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Where this process keeps its replica files; files of processes that are gone are removed. */
function replicaDirectory(): string {
  const root = join(tmpdir(), 'agent-marketplace-search');
  mkdirSync(root, { recursive: true });
  for (const entry of readdirSync(root)) {
    const pid = Number(entry);
    if (!Number.isInteger(pid) || pid === process.pid) continue;
    try {
      process.kill(pid, 0);
    } catch {
      rmSync(join(root, entry), { recursive: true, force: true });
    }
  }
  const directory = join(root, String(process.pid));
  mkdirSync(directory, { recursive: true });
  return directory;
}

let fileCount = 0;
/** A new file name for a replica of this process. */
export function newReplicaFile(): string {
  fileCount += 1;
  return join(replicaDirectory(), `replica-${Date.now()}-${fileCount}.sqlite`);
}

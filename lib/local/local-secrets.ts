// Secrets a deployed stack keeps in its configuration, generated once per data folder and kept in
// <dataDir>/local-secrets.json: a restart must keep accepting the cursors it handed out.
import { randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export interface LocalSecrets {
  cursorSigningKey: string;
}

export function loadLocalSecrets(dataDir: string): LocalSecrets {
  const file = join(dataDir, 'local-secrets.json');
  try {
    const saved = JSON.parse(readFileSync(file, 'utf8')) as Partial<LocalSecrets>;
    if (typeof saved.cursorSigningKey === 'string' && saved.cursorSigningKey.length >= 32) return { cursorSigningKey: saved.cursorSigningKey };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  const secrets: LocalSecrets = { cursorSigningKey: randomBytes(32).toString('base64url') };
  writeFileSync(file, `${JSON.stringify(secrets, null, 2)}\n`, { mode: 0o600 });
  return secrets;
}

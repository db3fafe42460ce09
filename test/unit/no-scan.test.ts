// The data model promises no Scan on any request path: nothing the handlers load may use one.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? sourceFiles(path) : path.endsWith('.ts') ? [path] : [];
  });
}

describe('request paths', () => {
  it('never scan the table', () => {
    const offenders = [...sourceFiles('functions'), ...sourceFiles('shared')].filter((file) =>
      /\bScan(Command|Input)?\b|\.scan\(/.test(readFileSync(file, 'utf8')),
    );
    expect(offenders).toEqual([]);
  });
});

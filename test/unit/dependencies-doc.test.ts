// docs/dependencies.md says why each dependency is there: one row per package of package.json, in the
// table of its kind (Runtime for `dependencies`, Development and deployment for `devDependencies`), and
// no row for a package we no longer depend on.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const packageJson = JSON.parse(readFileSync('package.json', 'utf8')) as { dependencies: Record<string, string>; devDependencies: Record<string, string> };
const doc = readFileSync('docs/dependencies.md', 'utf8');

/** The rows of the first table under `## <heading>`: the package in the first cell, and the reason. */
function tableRows(heading: string): { cell: string; packages: string[]; why: string }[] {
  const start = doc.indexOf(`\n## ${heading}\n`);
  if (start === -1) throw new Error(`docs/dependencies.md has no "## ${heading}" section`);
  const end = doc.indexOf('\n## ', start + 1);
  const lines = doc.slice(start, end === -1 ? undefined : end).split('\n');
  const first = lines.findIndex((line) => line.startsWith('|'));
  const table = lines.slice(first, lines.findIndex((line, index) => index > first && !line.startsWith('|')));
  return table.slice(2).map((line) => {
    const [cell = '', why = ''] = line.slice(1, -1).split(' | ');
    return { cell: cell.trim(), packages: [...cell.matchAll(/`([^`]+)`/g)].map((match) => match[1]!), why: why.trim() };
  });
}

describe.each([
  ['Runtime', 'dependencies'],
  ['Development and deployment', 'devDependencies'],
] as const)('docs/dependencies.md, %s', (heading, field) => {
  const rows = tableRows(heading);
  const listed = rows.flatMap((row) => row.packages);

  it('names one package per row, with why', () => {
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.filter((row) => row.packages.length !== 1 || !row.why).map((row) => row.cell)).toEqual([]);
    expect(listed.filter((name, index) => listed.indexOf(name) !== index)).toEqual([]);
  });

  it(`has a row for every package of package.json's ${field}`, () => {
    const missing = Object.keys(packageJson[field]).filter((name) => !listed.includes(name));
    expect(missing, `add a row to the ${heading} table of docs/dependencies.md for each`).toEqual([]);
  });

  it(`has no row for a package that is not in package.json's ${field}`, () => {
    const extra = listed.filter((name) => !(name in packageJson[field]));
    expect(extra, `remove their rows, or move them to the table of their kind`).toEqual([]);
  });
});

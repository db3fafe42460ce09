// docs/decisions/: one short record per decision (Context, Decision, Status, Consequences), and an index
// (docs/decisions/README.md) that lists every record with its status, so that a newcomer finds a decision
// and knows whether it still holds. A superseded record names the record that replaced it.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const DIR = 'docs/decisions';
const INDEX = path.join(DIR, 'README.md');
const HEADINGS = ['Context', 'Decision', 'Status', 'Consequences'] as const;

interface Status {
  kind: 'accepted' | 'superseded';
  /** The record that replaced this one, when superseded. */
  by?: string;
  /** The Status section's lines after the status itself. */
  rest: string[];
}

const records = readdirSync(DIR)
  .filter((file) => file.endsWith('.md') && file !== 'README.md')
  .map((file) => ({ slug: file.slice(0, -'.md'.length), text: readFileSync(path.join(DIR, file), 'utf8') }));

/** The lines under a `##` (or deeper) heading, up to the next heading of any level. */
function section(text: string, heading: string): string[] | undefined {
  const lines = text.split('\n');
  const start = lines.findIndex((line) => new RegExp(`^#{2,}\\s+${heading}\\s*$`, 'i').test(line));
  if (start === -1) return undefined;
  const end = lines.findIndex((line, index) => index > start && /^#{1,6}\s/.test(line));
  return lines.slice(start + 1, end === -1 ? undefined : end).map((line) => line.trim()).filter(Boolean);
}

/** `accepted`, or `superseded by <slug>` (plain, in backticks or as a link to `<slug>.md`). */
function parseStatus(line: string | undefined): Omit<Status, 'rest'> | undefined {
  const text = (line ?? '').replace(/^status:\s*/i, '').replace(/[`*]/g, '').trim();
  if (/^accepted\b/i.test(text)) return { kind: 'accepted' };
  const superseded = /^superseded by \[?([a-z0-9-]+)/i.exec(text);
  return superseded ? { kind: 'superseded', by: superseded[1]!.toLowerCase() } : undefined;
}

function recordStatus(text: string): Status | undefined {
  const lines = section(text, 'Status');
  if (!lines) return undefined;
  const status = parseStatus(lines[0]);
  return status && { ...status, rest: lines.slice(1) };
}

const statusText = (status: Omit<Status, 'rest'>) => (status.kind === 'accepted' ? 'accepted' : `superseded by ${status.by}`);

/** The index's rows: `| [slug](slug.md) | decision | status |`. */
const indexRows = readFileSync(INDEX, 'utf8')
  .split('\n')
  .map((line) => /^\|\s*\[([^\]]+)\]\(([^)]+)\)\s*\|(.*)\|\s*([^|]*?)\s*\|\s*$/.exec(line))
  .filter((match) => match !== null)
  .map(([, slug, target, summary, status]) => ({ slug: slug!, target: target!, summary: summary!.trim(), status: parseStatus(status) }));

describe('docs/decisions/', () => {
  it('holds records', () => {
    expect(records.length).toBeGreaterThan(0);
  });

  it('gives every record a title, the four headings and a status', () => {
    const problems = records.flatMap(({ slug, text }) => [
      ...(/^# \S/.test(text) ? [] : [`${slug}.md: the first line is not a "# " title`]),
      ...HEADINGS.filter((heading) => section(text, heading) === undefined).map((heading) => `${slug}.md: no "## ${heading}" heading`),
      ...(section(text, 'Status') && !recordStatus(text) ? [`${slug}.md: its Status is neither "accepted" nor "superseded by <slug>"`] : []),
    ]);
    expect(problems).toEqual([]);
  });

  it('says what replaced every superseded record, and lists the replacement in the index', () => {
    const listed = new Set(indexRows.map((row) => row.slug));
    const problems = records.flatMap(({ slug, text }) => {
      const status = recordStatus(text);
      if (status?.kind !== 'superseded') return [];
      return [
        ...(status.rest.length > 0 ? [] : [`${slug}.md: say in a line under its status what replaced it`]),
        ...(status.by === slug ? [`${slug}.md: superseded by itself`] : []),
        ...(listed.has(status.by!) ? [] : [`${slug}.md: superseded by ${status.by}, which ${INDEX} does not list`]),
      ];
    });
    expect(problems).toEqual([]);
  });

  it('lists every record in the index, with the status the record has', () => {
    const rows = new Map(indexRows.map((row) => [row.slug, row]));
    const problems = records.flatMap(({ slug, text }) => {
      const row = rows.get(slug);
      if (!row) return [`${slug}.md is not listed in ${INDEX}: add a row in its area`];
      const status = recordStatus(text);
      return [
        ...(row.target === `${slug}.md` ? [] : [`${INDEX}: the row of ${slug} links ${row.target}`]),
        ...(row.summary ? [] : [`${INDEX}: the row of ${slug} has no summary`]),
        ...(status && (!row.status || statusText(row.status) !== statusText(status))
          ? [`${INDEX}: ${slug} is "${row.status ? statusText(row.status) : '?'}" there, "${statusText(status)}" in the record`]
          : []),
      ];
    });
    expect(problems).toEqual([]);
  });

  it('lists only records that exist, or the replacement a superseded record names', () => {
    const slugs = new Set(records.map((record) => record.slug));
    const replacements = new Set(records.map(({ text }) => recordStatus(text)?.by).filter((by) => by !== undefined));
    const duplicates = indexRows.filter((row, index) => indexRows.findIndex((other) => other.slug === row.slug) !== index);
    expect(duplicates.map((row) => row.slug)).toEqual([]);
    expect(indexRows.filter((row) => !slugs.has(row.slug) && !replacements.has(row.slug)).map((row) => row.slug)).toEqual([]);
  });
});

describe('docs/decisions.md', () => {
  // The decisions were one long file; every reference now names its record (docs/decisions/<slug>.md).
  // A record may still name the old file's section it supersedes, so docs/decisions/ itself is not searched.
  const SEARCHED = ['README.md', 'docs', 'functions', 'shared', 'lib', 'bin', 'test', 'bench', 'sdk', '.ci', 'eslint.config.js', 'vitest.config.ts'];
  const SKIPPED = new Set(['node_modules', 'dist', '.tmp', DIR]);

  function* files(entry: string): Generator<string> {
    if (!existsSync(entry) || SKIPPED.has(entry) || SKIPPED.has(path.basename(entry))) return;
    if (statSync(entry).isDirectory()) for (const child of readdirSync(entry)) yield* files(path.join(entry, child));
    else if (/\.(ts|js|mjs|md|json|yaml|yml)$|^run$/.test(path.basename(entry))) yield entry;
  }

  it('is gone: its decisions are records in docs/decisions/', () => {
    expect(existsSync('docs/decisions.md')).toBe(false);
  });

  it('is referred to nowhere', () => {
    const references = SEARCHED.flatMap((entry) => [...files(entry)])
      .filter((file) => file !== 'test/unit/decisions-doc.test.ts')
      .flatMap((file) =>
        readFileSync(file, 'utf8')
          .split('\n')
          .flatMap((line, index) => (line.includes('decisions.md') ? [`${file}:${index + 1}: ${line.trim()}`] : [])),
      );
    expect(references, 'name the record instead: docs/decisions/<slug>.md').toEqual([]);
  });
});

// zod issues → field problems (`{path, message}` with dot paths), with messages that say what to fix.
import type * as z from './zod.ts';
import type { FieldProblem } from '../failures.ts';

/** A key a dot path carries as it is: a name (letters, digits, `_`, `$`, `-`) or an array index. */
const PLAIN_KEY = /^(?:[A-Za-z_$][\w$-]*|\d+)$/;

/**
 * `organization.country`, `events.1`; a key a dot would make ambiguous (`"a.b"`, `""`, spaces) is
 * quoted as JSON in brackets, `attributes["a.b"]`, so that a path names exactly one place.
 */
export function dotPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const key of path) {
    const text = String(key);
    if (typeof key === 'number' || PLAIN_KEY.test(text)) out += out === '' ? text : `.${text}`;
    else out += `[${JSON.stringify(text)}]`;
  }
  return out;
}

export function zodProblems(issues: readonly z.core.$ZodIssue[], prefix: readonly PropertyKey[] = []): FieldProblem[] {
  const problems: FieldProblem[] = [];
  for (const issue of issues) {
    const path = [...prefix, ...issue.path];
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) problems.push({ path: dotPath([...path, key]), message: 'Unknown field; remove it' });
    } else if (issue.code === 'invalid_type' && /received undefined/.test(issue.message)) {
      problems.push({ path: dotPath(path), message: `Required (${issue.expected})` });
    } else if (issue.code === 'invalid_union' && issue.errors.length > 0) {
      problems.push(...zodProblems(issue.errors[0] ?? [], path));
    } else {
      problems.push({ path: dotPath(path), message: issue.message });
    }
  }
  return problems;
}

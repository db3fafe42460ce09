// zod issues → field problems (`{path, message}` with dot paths), with messages that say what to fix.
import type * as z from './zod.ts';
import type { FieldProblem } from '../failures.ts';

function dotPath(path: readonly PropertyKey[]): string {
  return path.map(String).join('.');
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

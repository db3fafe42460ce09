// zod issues → the contract's `details: [{path, message}]`, with dot paths and messages that say
// what to fix.
import type { z } from 'zod';
import { errors, type ApiError, type ErrorDetail } from './errors.ts';

function dotPath(path: readonly PropertyKey[]): string {
  return path.map(String).join('.');
}

export function issuesToDetails(issues: readonly z.core.$ZodIssue[], prefix: readonly PropertyKey[] = []): ErrorDetail[] {
  const details: ErrorDetail[] = [];
  for (const issue of issues) {
    const path = [...prefix, ...issue.path];
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) details.push({ path: dotPath([...path, key]), message: 'Unknown field; remove it' });
    } else if (issue.code === 'invalid_type' && /received undefined/.test(issue.message)) {
      details.push({ path: dotPath(path), message: `Required (${issue.expected})` });
    } else if (issue.code === 'invalid_union' && issue.errors.length > 0) {
      details.push(...issuesToDetails(issue.errors[0] ?? [], path));
    } else {
      details.push({ path: dotPath(path), message: issue.message });
    }
  }
  return details;
}

export function validationError(details: ErrorDetail[]): ApiError {
  const first = details[0];
  const where = first ? `${first.path || 'body'}: ${first.message}` : 'invalid input';
  const more = details.length > 1 ? ` (and ${details.length - 1} more; see details)` : '';
  return errors.invalid(`Request validation failed — ${where}${more}`, details);
}

// The transport-neutral vocabulary of expected failures. Domain rules and the data layer throw a
// Failure; only the HTTP layer (shared/http/error-codes.ts) maps its kind to a status and a code, and
// workers map it to what their event source needs. Anything else thrown is a bug (a 500).

/** One problem with one input field: `path` is a dot path (`organization.country`, `events.1`). */
export interface FieldProblem {
  path: string;
  message: string;
}

export type FailureKind =
  /** The record does not exist, or the caller may not know that it does. */
  | 'not-found'
  /** The record's current state refuses the change; `details` carry the state. */
  | 'conflict'
  /** The input is wrong; `details` say which field and how to fix it. */
  | 'invalid'
  /** The caller is known but is not the party allowed to make this move. */
  | 'forbidden'
  /** The credential the caller presented stopped being valid (e.g. its key was replaced meanwhile). */
  | 'unauthenticated'
  /** The store is overloaded or throttled: the same request may succeed a moment later. */
  | 'busy'
  /** A spending limit of the caller's key refuses the order; `details` name the limit and what is left. */
  | 'spending-limit';

export class Failure extends Error {
  readonly kind: FailureKind;
  readonly details: FieldProblem[] | undefined;
  /** The same request may succeed if simply retried (a throttle, a collision with a concurrent write). */
  readonly transient: boolean;

  constructor(kind: FailureKind, message: string, details?: FieldProblem[], options: { transient?: boolean } = {}) {
    super(message);
    this.name = 'Failure';
    this.kind = kind;
    this.details = details;
    this.transient = options.transient ?? kind === 'busy';
  }
}

export const fail = {
  notFound: (message: string) => new Failure('not-found', message),
  conflict: (message: string, details?: FieldProblem[]) => new Failure('conflict', message, details),
  invalid: (message: string, details?: FieldProblem[]) => new Failure('invalid', message, details),
  forbidden: (message: string) => new Failure('forbidden', message),
  unauthenticated: (message: string) => new Failure('unauthenticated', message),
  busy: (message: string) => new Failure('busy', message),
  spendingLimit: (message: string, details: FieldProblem[]) => new Failure('spending-limit', message, details),
  /** A write collided with a concurrent one; the state itself did not refuse it. */
  collision: (message: string) => new Failure('conflict', message, undefined, { transient: true }),
};

/** Several field problems as one `invalid` failure whose message names the first and counts the rest. */
export function invalidFields(problems: FieldProblem[]): Failure {
  const first = problems[0];
  const where = first ? `${first.path || 'body'}: ${first.message}` : 'invalid input';
  const more = problems.length > 1 ? ` (and ${problems.length - 1} more; see details)` : '';
  return new Failure('invalid', `Request validation failed — ${where}${more}`, problems);
}

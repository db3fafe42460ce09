// A start-up problem the developer can fix (Java missing, a port in use, a data folder in use).
// bin/local.ts prints its message as one line instead of a stack trace.
export class LocalRuntimeError extends Error {
  override name = 'LocalRuntimeError';
}

// One structured JSON logger per container, for handlers and workers alike. Log lines carry ids,
// routes, statuses and durations — never request bodies, headers, keys or secrets.
//
// The line is the one Powertools' logger wrote before (level, message, timestamp, service,
// sampling_rate, xray_trace_id, then the entry's own fields; errors as {name, location, message,
// stack, cause}), so queries over the logs keep working; ERROR and WARN go to stderr, the rest to
// stdout, as its Console did. Ours because it is on every function's cold start: Powertools cost
// ~21 kB of every bundle and its construction several milliseconds of init (docs/decisions/own-logger.md),
// for features we do not use (buffering, sampling, Lambda context injection).

export type LogLevel = 'DEBUG' | 'INFO' | 'WARN' | 'ERROR' | 'SILENT';
type Attributes = Record<string, unknown>;

const THRESHOLD: Record<LogLevel, number> = { DEBUG: 8, INFO: 12, WARN: 16, ERROR: 20, SILENT: 28 };
const SERVICE = 'agent-marketplace';
const RESERVED = new Set(['level', 'message', 'timestamp', 'service', 'sampling_rate', 'xray_trace_id']);

/** The trace id the Lambda runtime gives the current invocation (its async context, or the variable). */
function xrayTraceId(): string | undefined {
  const runtime = (globalThis as { awslambda?: { InvokeStore?: { getXRayTraceId?: () => string | undefined } } }).awslambda;
  const header = runtime?.InvokeStore?.getXRayTraceId?.() ?? process.env._X_AMZN_TRACE_ID ?? '';
  if (header === '') return undefined;
  if (!header.includes('=')) return header;
  return /(?:^|;)Root=([^;]*)/.exec(header)?.[1];
}

/**
 * A stack with each bundle position turned into its source position, read from the bundle's source
 * map beside it (`<bundle>.mjs.map`), loaded on the first error logged. Functions do not run with
 * `--enable-source-maps`: it parses every bundle's map at init, on every cold start, for the rare error
 * that needs it (docs/decisions/own-logger.md). Files without a map beside them (the local runtime
 * and tests run the sources) are left as they are.
 */
const sourceMaps = new Map<string, { findEntry(line: number, column: number): { originalSource?: string; originalLine?: number; originalColumn?: number } } | null>();

function sourceMapOf(file: string) {
  if (!sourceMaps.has(file)) {
    let map = null;
    try {
      const path = file.startsWith('file://') ? new URL(file).pathname : file;
      const { readFileSync } = process.getBuiltinModule('node:fs');
      const { SourceMap } = process.getBuiltinModule('node:module');
      map = new SourceMap(JSON.parse(readFileSync(`${path}.map`, 'utf8')) as ConstructorParameters<typeof SourceMap>[0]);
    } catch {
      // No map beside the file (sources run directly): the stack stays as it is.
    }
    sourceMaps.set(file, map);
  }
  return sourceMaps.get(file);
}

export function sourceMappedStack(stack: string): string {
  return stack.replace(/((?:file:\/\/)?\/[^\s():]+\.m?js):(\d+):(\d+)/g, (position, file: string, line: string, column: string) => {
    const entry = sourceMapOf(file)?.findEntry(Number(line) - 1, Number(column) - 1);
    if (entry?.originalSource === undefined || entry.originalLine === undefined || entry.originalColumn === undefined) return position;
    // Sources are named relative to the bundle's build folder: the repository path is what reads well.
    return `${entry.originalSource.replace(/^(?:\.\.\/)+/, '')}:${entry.originalLine + 1}:${entry.originalColumn + 1}`;
  });
}

/** The first `(file:line:column)` of a stack: where the error was thrown. */
function codeLocation(stack: string | undefined): string {
  const match = /\(([^()]*?):(\d+?):(\d+?)\)\\?$/m.exec(stack ?? '');
  return match ? `${match[1]}:${Number(match[2])}` : '';
}

function formatError(error: Error): Attributes {
  const { name, message, stack: bundleStack, cause, ...own } = error as Error & Attributes;
  const stack = typeof bundleStack === 'string' ? sourceMappedStack(bundleStack) : bundleStack;
  return { name, location: codeLocation(stack), message, stack, cause: cause instanceof Error ? formatError(cause) : cause, ...own };
}

/** JSON.stringify's replacer: errors as objects, bigints as strings, circular references dropped. */
function replacer(): (this: unknown, key: string, value: unknown) => unknown {
  const ancestors: unknown[] = [];
  return function (this: unknown, _key, value) {
    const replaced = value instanceof Error ? formatError(value) : value;
    if (typeof replaced === 'bigint') return replaced.toString();
    if (typeof replaced === 'object' && replaced !== null) {
      while (ancestors.length > 0 && ancestors.at(-1) !== this) ancestors.pop();
      if (ancestors.includes(replaced)) return undefined;
      ancestors.push(replaced);
    }
    return replaced;
  };
}

export class Logger {
  #threshold: number;

  constructor(level: string | undefined) {
    this.#threshold = THRESHOLD[this.#known(level)];
  }

  /** Tests raise it to read the access log, and set it back to SILENT. */
  setLogLevel(level: LogLevel): void {
    this.#threshold = THRESHOLD[this.#known(level)];
  }

  debug(message: string, attributes?: Attributes): void {
    this.#write('DEBUG', message, attributes);
  }

  info(message: string, attributes?: Attributes): void {
    this.#write('INFO', message, attributes);
  }

  warn(message: string, attributes?: Attributes): void {
    this.#write('WARN', message, attributes);
  }

  error(message: string, attributes?: Attributes): void {
    this.#write('ERROR', message, attributes);
  }

  #known(level: string | undefined): LogLevel {
    const upper = (level ?? 'INFO').toUpperCase();
    return upper in THRESHOLD ? (upper as LogLevel) : 'INFO';
  }

  #write(level: Exclude<LogLevel, 'SILENT'>, message: string, attributes: Attributes | undefined): void {
    if (THRESHOLD[level] < this.#threshold) return;
    const line: Attributes = { level, message, timestamp: new Date().toISOString(), service: SERVICE, sampling_rate: 0, xray_trace_id: xrayTraceId() };
    for (const [key, value] of Object.entries(attributes ?? {})) if (!RESERVED.has(key)) line[key] = value;
    const text = `${JSON.stringify(line, replacer())}\n`;
    if (level === 'ERROR' || level === 'WARN') process.stderr.write(text);
    else process.stdout.write(text);
  }
}

export const logger = new Logger(process.env.LOG_LEVEL);

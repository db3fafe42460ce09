// The structured logger: one JSON line per entry with the fields Powertools' logger wrote, below-level
// entries dropped, ERROR and WARN on stderr, errors as objects, and an entry's own fields never
// overwriting the line's.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Logger, sourceMappedStack } from '../../shared/logger.ts';

const written: { stream: 'stdout' | 'stderr'; text: string }[] = [];
const originals = { stdout: process.stdout.write.bind(process.stdout), stderr: process.stderr.write.bind(process.stderr) };
const lines = (stream?: 'stdout' | 'stderr') => written.filter((entry) => !stream || entry.stream === stream).map((entry) => JSON.parse(entry.text));
/** One entry at each level, lowest first, with the level's initial as its message. */
function logAtEveryLevel(logger: Logger): void {
  logger.debug('d');
  logger.info('i');
  logger.warn('w');
  logger.error('e');
}

beforeEach(() => {
  written.length = 0;
  for (const stream of ['stdout', 'stderr'] as const) {
    process[stream].write = (chunk: string | Uint8Array) => {
      written.push({ stream, text: String(chunk) });
      return true;
    };
  }
});
afterEach(() => {
  process.stdout.write = originals.stdout;
  process.stderr.write = originals.stderr;
  delete process.env._X_AMZN_TRACE_ID;
});

describe('logger', () => {
  it('writes one JSON line with level, message, timestamp, service, sampling rate, trace id and the fields', () => {
    process.env._X_AMZN_TRACE_ID = 'Root=1-5759e988-bd862e3fe1be46a994272793;Parent=557abcec3ee5a047;Sampled=1';
    new Logger('INFO').info('request', { requestId: 'req_1', status: 201, agentId: undefined });
    expect(written).toHaveLength(1);
    expect(written[0]?.text.endsWith('\n')).toBe(true);
    expect(written[0]?.text.trim()).not.toContain('\n');
    const [line] = lines('stdout');
    expect(Object.keys(line)).toEqual(['level', 'message', 'timestamp', 'service', 'sampling_rate', 'xray_trace_id', 'requestId', 'status']);
    expect(line).toMatchObject({ level: 'INFO', message: 'request', service: 'agent-marketplace', sampling_rate: 0, xray_trace_id: '1-5759e988-bd862e3fe1be46a994272793' });
    expect(new Date(line.timestamp).toISOString()).toBe(line.timestamp);
  });

  it('drops entries below its level, and SILENT drops them all', () => {
    const logger = new Logger('WARN');
    logAtEveryLevel(logger);
    expect(lines().map((line) => line.level)).toEqual(['WARN', 'ERROR']);
    logger.setLogLevel('SILENT');
    logger.error('e');
    expect(written).toHaveLength(2);
    logger.setLogLevel('DEBUG');
    logger.debug('d');
    expect(lines('stdout').map((line) => line.level)).toEqual(['DEBUG']);
  });

  it('writes WARN and ERROR to stderr, DEBUG and INFO to stdout', () => {
    logAtEveryLevel(new Logger('DEBUG'));
    expect(lines('stdout').map((line) => line.message)).toEqual(['d', 'i']);
    expect(lines('stderr').map((line) => line.message)).toEqual(['w', 'e']);
  });

  it('takes an unknown level as INFO', () => {
    const logger = new Logger('LOUD');
    logger.debug('d');
    logger.info('i');
    expect(lines().map((line) => line.message)).toEqual(['i']);
  });

  it('formats errors with name, location, message, stack and cause, and their own fields', () => {
    const cause = new TypeError('inner');
    const error = Object.assign(new Error('outer', { cause }), { code: 'E_OUTER' });
    new Logger('INFO').error('failed', { error });
    const [line] = lines('stderr');
    expect(line.error).toMatchObject({ name: 'Error', message: 'outer', code: 'E_OUTER', cause: { name: 'TypeError', message: 'inner' } });
    expect(line.error.location).toMatch(/^\S+:\d+$/);
    expect(line.error.stack).toContain('outer');
  });

  it('keeps its own fields against an entry that names them, and survives circular and bigint values', () => {
    const circular: Record<string, unknown> = { name: 'loop' };
    circular.self = circular;
    new Logger('INFO').info('kept', { level: 'ERROR', message: 'replaced', service: 'other', circular, big: 12n });
    const [line] = lines('stdout');
    expect(line).toMatchObject({ level: 'INFO', message: 'kept', service: 'agent-marketplace', circular: { name: 'loop' }, big: '12' });
    expect(line.circular.self).toBeUndefined();
  });
});

describe('source-mapped stacks', () => {
  it('turns bundle positions into source positions from the map beside the bundle, and leaves other files alone', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'logger-map-'));
    try {
      writeFileSync(join(dir, 'thrower.ts'), ['// line 1', 'export function fail(): never {', "  throw new Error('from the source');", '}', ''].join('\n'));
      writeFileSync(join(dir, 'entry.ts'), "import { fail } from './thrower.ts';\nexport const run = () => fail();\n");
      await build({ entryPoints: [join(dir, 'entry.ts')], bundle: true, minify: true, sourcemap: 'linked', format: 'esm', platform: 'node', outfile: join(dir, 'index.mjs'), logLevel: 'silent' });
      // In a plain Node process: the test runner maps stacks of the modules it loads itself.
      const script = `try { (await import(${JSON.stringify(pathToFileURL(join(dir, 'index.mjs')).href)})).run(); } catch (error) { process.stdout.write(error.stack); }`;
      const stack = execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
      expect(stack).toMatch(/index\.mjs:\d+:\d+/);
      const mapped = sourceMappedStack(stack);
      expect(mapped).toMatch(/thrower\.ts:3:\d+/);
      expect(mapped).not.toMatch(/index\.mjs:\d+:\d+/);
      const unmapped = `Error: x\n    at f (${join(dir, 'elsewhere.mjs')}:1:2)`;
      expect(sourceMappedStack(unmapped)).toBe(unmapped);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

// The operation runner's engine (shared/http/pipeline.ts): the order in which steps and the operation
// run, a step that answers, and errors.
import { describe, expect, it } from 'vitest';
import { runSteps, type Step } from '../../shared/http/pipeline.ts';

type Log = string[];

function step(name: string, options: { answer?: string; failBefore?: boolean; failAfter?: boolean } = {}): Step<Log, string> {
  return {
    name,
    before: (log) => {
      log.push(`${name}.before`);
      if (options.failBefore) throw new Error(`${name} refused`);
      return options.answer;
    },
    after: (log, result) => {
      log.push(`${name}.after(${result})`);
      if (options.failAfter) throw new Error(`${name} failed after`);
    },
    onError: async (log, error) => {
      await Promise.resolve();
      log.push(`${name}.onError(${(error as Error).message})`);
    },
  };
}

const operation = (log: Log) => {
  log.push('operation');
  return Promise.resolve('done');
};

describe('runSteps', () => {
  it('runs every before in order, the operation, then every after in reverse order', async () => {
    const log: Log = [];
    expect(await runSteps([step('a'), step('b'), step('c')], log, operation)).toBe('done');
    expect(log).toEqual(['a.before', 'b.before', 'c.before', 'operation', 'c.after(done)', 'b.after(done)', 'a.after(done)']);
  });

  it('ends the way in at a step that answers: later steps and the operation never run, the entered ones see the answer', async () => {
    const log: Log = [];
    expect(await runSteps([step('a'), step('b', { answer: 'stored' }), step('c')], log, operation)).toBe('stored');
    expect(log).toEqual(['a.before', 'b.before', 'b.after(stored)', 'a.after(stored)']);
  });

  it('on a refusal runs the onError of the entered steps in reverse order, and passes the error on', async () => {
    const log: Log = [];
    await expect(runSteps([step('a'), step('b', { failBefore: true }), step('c')], log, operation)).rejects.toThrow('b refused');
    expect(log).toEqual(['a.before', 'b.before', 'b.onError(b refused)', 'a.onError(b refused)']);
  });

  it('treats an operation that throws like a refusal, after every before', async () => {
    const log: Log = [];
    const failing = (entries: Log) => {
      entries.push('operation');
      return Promise.reject(new Error('boom'));
    };
    await expect(runSteps([step('a'), step('b')], log, failing)).rejects.toThrow('boom');
    expect(log).toEqual(['a.before', 'b.before', 'operation', 'b.onError(boom)', 'a.onError(boom)']);
  });

  it('runs every entered onError when an after fails, the failing step and those after it included', async () => {
    const log: Log = [];
    await expect(runSteps([step('a'), step('b', { failAfter: true }), step('c')], log, operation)).rejects.toThrow('b failed after');
    expect(log).toEqual([
      'a.before',
      'b.before',
      'c.before',
      'operation',
      'c.after(done)',
      'b.after(done)',
      'c.onError(b failed after)',
      'b.onError(b failed after)',
      'a.onError(b failed after)',
    ]);
  });

  it('lets steps without hooks pass', async () => {
    const log: Log = [];
    expect(await runSteps([{ name: 'empty' }, step('a')], log, operation)).toBe('done');
    expect(log).toEqual(['a.before', 'operation', 'a.after(done)']);
  });
});

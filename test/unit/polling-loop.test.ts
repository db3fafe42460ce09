// The loop under the local emulators (lib/local/polling-loop.ts), on vitest's fake clock: a step, the
// delay its outcome asks for, the next step; never two steps at once; wake() plans again; stop() waits
// for the running step and ends the loop.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { startPollingLoop } from '../../lib/local/polling-loop.ts';

beforeEach(() => void vi.useFakeTimers());
afterEach(() => void vi.useRealTimers());

/** A step that stays running until `finish()` (or `fail()`). */
function controllableStep() {
  const starts: number[] = [];
  let finish: (() => void) | undefined;
  let fail: ((error: Error) => void) | undefined;
  const step = () => {
    starts.push(Date.now());
    return new Promise<void>((resolve, reject) => {
      finish = resolve;
      fail = reject;
    });
  };
  return { step, starts, finish: () => finish?.(), fail: (error: Error) => fail?.(error) };
}

describe('the polling loop', () => {
  it('runs the next step the delay after the last ended, the error delay after a failed one', async () => {
    const errors: unknown[] = [];
    const control = controllableStep();
    const loop = startPollingLoop({ step: control.step, nextDelay: ({ failed }) => (failed ? 1_000 : 200), onError: (error) => errors.push(error) });
    const start = Date.now();
    void loop.runNow();
    await vi.advanceTimersByTimeAsync(500); // the step takes 500 ms
    control.finish();
    await vi.advanceTimersByTimeAsync(199);
    expect(control.starts).toEqual([start]);
    await vi.advanceTimersByTimeAsync(1);
    expect(control.starts).toEqual([start, start + 700]);
    control.fail(new Error('down'));
    await vi.advanceTimersByTimeAsync(999);
    expect(control.starts).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(1);
    expect(control.starts).toEqual([start, start + 700, start + 1_700]);
    expect(errors).toEqual([new Error('down')]);
    control.finish();
    await loop.stop();
  });

  it('never runs two steps at once: runNow during a step returns that step', async () => {
    const control = controllableStep();
    const loop = startPollingLoop({ step: control.step, nextDelay: () => undefined, onError: () => undefined });
    const first = loop.runNow();
    expect(loop.runNow()).toBe(first);
    loop.wake();
    await vi.advanceTimersByTimeAsync(10_000);
    expect(control.starts).toHaveLength(1);
    control.finish();
    await first;
    void loop.runNow();
    expect(control.starts).toHaveLength(2);
    control.finish();
    await loop.stop();
  });

  it('waits for wake() when no step is due, and plans again on wake()', async () => {
    let due: number | undefined;
    const steps: number[] = [];
    const loop = startPollingLoop({
      step: () => {
        steps.push(Date.now());
        due = undefined;
        return Promise.resolve();
      },
      nextDelay: () => (due === undefined ? undefined : due - Date.now()),
      onError: () => undefined,
    });
    loop.wake();
    await vi.advanceTimersByTimeAsync(60_000);
    expect(steps).toEqual([]);
    const start = Date.now();
    due = start + 5_000;
    loop.wake();
    due = start + 1_000; // an earlier due time replaces the planned one
    loop.wake();
    await vi.advanceTimersByTimeAsync(10_000);
    expect(steps).toEqual([start + 1_000]);
    await loop.stop();
  });

  it('stop() waits for the running step and runs no more', async () => {
    const control = controllableStep();
    const loop = startPollingLoop({ step: control.step, nextDelay: () => 0, onError: () => undefined });
    void loop.runNow();
    let stopped = false;
    const stopping = loop.stop().then(() => {
      stopped = true;
    });
    await vi.advanceTimersByTimeAsync(100);
    expect(stopped).toBe(false);
    control.finish();
    await stopping;
    await vi.advanceTimersByTimeAsync(1_000);
    expect(control.starts).toHaveLength(1);
    await loop.runNow();
    expect(control.starts).toHaveLength(1);
  });
});

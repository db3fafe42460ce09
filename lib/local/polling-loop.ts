// The one loop under the local emulators that poll or wait on a clock (the stream reader's polls,
// the SQS event source's long polls, the scheduler's due times, the scheduled workers' intervals):
// runs a step, asks when the next one is due, waits that long, runs it again.
// Never two steps at once; a failed step is reported and the loop goes on; stop() waits for the step
// that is running.

/** setTimeout's upper bound. */
export const MAX_TIMER_MS = 2_147_483_647;

export interface PollingLoopOptions {
  /** One pass (read a stream, fire what is due). */
  step: () => Promise<void>;
  /**
   * How long to wait before the next step, asked after each step (`failed` when it threw) and on
   * `wake()`; undefined waits for the next `wake()` or `runNow()`.
   */
  nextDelay: (after: { failed: boolean }) => number | undefined;
  /** Receives what a step threw. */
  onError: (error: unknown) => void;
}

export interface PollingLoop {
  /** Runs a step now, or returns the one running. */
  runNow(): Promise<void>;
  /** Asks for the next delay again (something changed, e.g. a new due time) and waits that long instead. */
  wake(): void;
  /** No more steps; resolves once the running one (if any) has ended. */
  stop(): Promise<void>;
}

export function startPollingLoop(options: PollingLoopOptions): PollingLoop {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let stopped = false;

  const plan = (failed: boolean) => {
    clearTimeout(timer);
    timer = undefined;
    // A running step plans the next one when it ends.
    if (stopped || running) return;
    const delay = options.nextDelay({ failed });
    if (delay === undefined) return;
    timer = setTimeout(() => void runNow(), Math.min(Math.max(0, delay), MAX_TIMER_MS));
  };

  const runNow = (): Promise<void> => {
    if (running) return running;
    if (stopped) return Promise.resolve();
    clearTimeout(timer);
    timer = undefined;
    let failed = false;
    running = options
      .step()
      .catch((error: unknown) => {
        failed = true;
        options.onError(error);
      })
      .finally(() => {
        running = undefined;
        plan(failed);
      });
    return running;
  };

  return {
    runNow,
    wake: () => plan(false),
    async stop() {
      stopped = true;
      clearTimeout(timer);
      timer = undefined;
      await running;
    },
  };
}

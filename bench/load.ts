// Closed-loop load at a fixed concurrency: `concurrency` workers each send one request, wait for its
// answer, send the next. Requests completed inside the window count; the window is bounded in time.

export interface LoadWindow {
  requests: number;
  errors: number;
  seconds: number;
  requestsPerSecond: number;
}

/** Runs `send` from `concurrency` workers for `seconds`; every worker finishes its request in flight. */
export async function closedLoop(send: () => Promise<boolean>, concurrency: number, seconds: number): Promise<LoadWindow> {
  const started = performance.now();
  const deadline = started + seconds * 1000;
  let requests = 0;
  let errors = 0;
  let firstError: unknown;
  const worker = async () => {
    while (performance.now() < deadline) {
      try {
        if (await send()) requests += 1;
        else errors += 1;
      } catch (error) {
        errors += 1;
        firstError ??= error;
      }
      if (errors > 100) throw new Error('Over 100 failed requests under load', { cause: firstError });
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  const elapsed = (performance.now() - started) / 1000;
  return { requests, errors, seconds: elapsed, requestsPerSecond: requests / elapsed };
}

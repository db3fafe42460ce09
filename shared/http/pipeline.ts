// The operation runner's engine: ordered steps around an operation, as an onion. Each step's `before`
// runs in order; a `before` that returns a result answers the request, and neither the later steps nor
// the operation run (an idempotent replay). Then the `after` of every step that was entered runs in
// reverse order; if anything throws, the `onError` of every step that was entered runs in reverse
// order instead, and the error goes on to the caller. Transport-neutral and free of I/O.

export type Awaitable<T> = T | Promise<T>;

export interface Step<Exchange, Result> {
  /** For stack traces and reading the order; not used by the engine. */
  readonly name: string;
  before?(exchange: Exchange): Awaitable<Result | undefined>;
  after?(exchange: Exchange, result: Result): Awaitable<void>;
  onError?(exchange: Exchange, error: unknown): Awaitable<void>;
}

export async function runSteps<Exchange, Result>(
  steps: readonly Step<Exchange, Result>[],
  exchange: Exchange,
  operation: (exchange: Exchange) => Promise<Result>,
): Promise<Result> {
  let entered = 0;
  try {
    let result: Result | undefined;
    for (const step of steps) {
      entered += 1;
      result = await step.before?.(exchange);
      if (result !== undefined) break;
    }
    result ??= await operation(exchange);
    for (let index = entered - 1; index >= 0; index--) await steps[index]?.after?.(exchange, result);
    return result;
  } catch (error) {
    for (let index = entered - 1; index >= 0; index--) await steps[index]?.onError?.(exchange, error);
    throw error;
  }
}

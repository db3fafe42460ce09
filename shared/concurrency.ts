/**
 * Runs `work` on each item, at most `limit` at once, starting them in order. After a failure no item
 * starts; those running finish, and then the first failure is thrown (so that nothing runs on behind
 * the caller's back once it has its answer).
 */
export async function forEachConcurrently<T>(items: readonly T[], limit: number, work: (item: T, index: number) => Promise<void>): Promise<void> {
  if (!(limit >= 1)) throw new Error(`A concurrency limit is at least 1, not ${limit}`);
  let next = 0;
  let failure: { error: unknown } | undefined;
  const lane = async () => {
    while (next < items.length && !failure) {
      const index = next++;
      try {
        await work(items[index] as T, index);
      } catch (error) {
        failure ??= { error };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
  if (failure) throw failure.error;
}

/** `items` in consecutive groups of `size` (the last one shorter), e.g. a batch call's limit. */
export function chunked<T>(items: readonly T[], size: number): T[][] {
  const chunks: T[][] = [];
  for (let i = 0; i < items.length; i += size) chunks.push(items.slice(i, i + size));
  return chunks;
}

/**
 * Runs `work` on every item, at most `atOnce` at a time, starting them in the items' order (with
 * `atOnce` 1, one after another). Rejects with the first failure.
 */
export async function forEachAtOnce<T>(items: readonly T[], atOnce: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(atOnce, items.length) }, async () => {
      while (next < items.length) await work(items[next++]!);
    }),
  );
}

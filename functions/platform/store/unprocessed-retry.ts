import pRetry from 'p-retry';

/**
 * Sends a batch until DynamoDB has processed all of it: each round sends what the last one left over,
 * with exponential backoff and jitter between rounds (p-retry), as the batch APIs ask of callers.
 */
class Unprocessed extends Error {}

export async function untilProcessed<T>(batch: T[], sendRound: (pending: T[]) => Promise<T[]>, options: { rounds: number; firstDelayMs: number }): Promise<void> {
  let pending = batch;
  await pRetry(
    async () => {
      pending = await sendRound(pending);
      if (pending.length) throw new Unprocessed(`${pending.length} items stayed unprocessed`);
    },
    // Only leftovers are retried here: any other failure (validation, access) is not made better by waiting.
    { retries: options.rounds - 1, minTimeout: options.firstDelayMs, factor: 2, randomize: true, shouldRetry: ({ error }) => error instanceof Unprocessed },
  );
}

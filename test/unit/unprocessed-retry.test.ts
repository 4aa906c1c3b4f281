import { describe, expect, it } from 'vitest';
import { untilProcessed } from '../../functions/platform/store/unprocessed-retry.js';

describe('untilProcessed (batch leftovers, retried with backoff)', () => {
  it('sends what each round left over until nothing is left', async () => {
    const rounds: number[][] = [];
    await untilProcessed([1, 2, 3, 4], async (pending) => (rounds.push(pending), pending.slice(2)), { rounds: 5, firstDelayMs: 1 });
    expect(rounds).toEqual([[1, 2, 3, 4], [3, 4]]);
  });

  it('gives up after the allowed rounds, naming what is left', async () => {
    let calls = 0;
    await expect(untilProcessed(['a'], async (pending) => (calls++, pending), { rounds: 3, firstDelayMs: 1 })).rejects.toThrow('1 items stayed unprocessed');
    expect(calls).toBe(3);
  });

  it('does not retry a failure that waiting cannot fix', async () => {
    let calls = 0;
    const refusal = Object.assign(new Error('ValidationException'), { name: 'ValidationException' });
    await expect(untilProcessed(['a'], async () => { calls++; throw refusal; }, { rounds: 5, firstDelayMs: 1 })).rejects.toBe(refusal);
    expect(calls).toBe(1);
  });
});

import { describe, expect, it } from 'vitest';
import { forEachAtOnce } from '../../functions/platform/at-once.js';

describe('forEachAtOnce', () => {
  const tick = () => new Promise((resolve) => setTimeout(resolve, 1));

  it('runs every item, never more than the bound at once, starting them in order', async () => {
    let running = 0;
    let most = 0;
    const started: number[] = [];
    await forEachAtOnce([1, 2, 3, 4, 5, 6, 7], 3, async (n) => {
      started.push(n);
      most = Math.max(most, ++running);
      await tick();
      running--;
    });
    expect(started).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(most).toBe(3);
  });

  it('with a bound of 1 finishes each item before the next starts', async () => {
    const events: string[] = [];
    await forEachAtOnce(['a', 'b'], 1, async (x) => {
      events.push(`start ${x}`);
      await tick();
      events.push(`end ${x}`);
    });
    expect(events).toEqual(['start a', 'end a', 'start b', 'end b']);
  });

  it('rejects with the failure of an item, and does nothing for no items', async () => {
    await expect(forEachAtOnce([1, 2], 2, async (n) => (n === 2 ? Promise.reject(new Error('boom 2')) : undefined))).rejects.toThrow('boom 2');
    let called = false;
    await forEachAtOnce([], 4, async () => void (called = true));
    expect(called).toBe(false);
  });
});

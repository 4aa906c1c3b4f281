import { describe, expect, it } from 'vitest';
import { ResultCache } from '../../functions/platform/result-cache.js';

describe('the result cache', () => {
  it('evicts the least recently used entry past its bound, counting reads as uses', () => {
    const cache = new ResultCache(3);
    cache.set('a', 1, 60);
    cache.set('b', 2, 60);
    cache.set('c', 3, 60);
    expect(cache.get('a')).toBe(1); // a is now the most recently used
    cache.set('d', 4, 60);
    expect(cache.get('b')).toBeUndefined();
    expect([cache.get('a'), cache.get('c'), cache.get('d')]).toEqual([1, 3, 4]);
    cache.set('c', 30, 60); // rewriting an entry neither grows the cache nor evicts another
    expect([cache.get('a'), cache.get('c'), cache.get('d')]).toEqual([1, 30, 4]);
  });

  it('forgets an entry once its time to live has passed, and keeps one until then', () => {
    let now = 1_000_000;
    const cache = new ResultCache(10, () => now);
    cache.set('short', 'x', 5);
    cache.set('long', 'y', 60);
    now += 4_999;
    expect(cache.get('short')).toBe('x');
    now += 1;
    expect(cache.get('short')).toBeUndefined();
    expect(cache.get('long')).toBe('y');
  });

  it('treats a cached null as a hit, and clear empties it', () => {
    const cache = new ResultCache();
    cache.set('nothing', null, 60);
    expect(cache.get('nothing')).toBeNull();
    cache.clear();
    expect(cache.get('nothing')).toBeUndefined();
  });
});

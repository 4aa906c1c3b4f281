import { describe, expect, it } from 'vitest';
import { decodeValue, encodeValue } from '../../functions/platform/store/packed-value.js';

describe('packed values', () => {
  const rule = { ruleId: 'bctg-1', targets: [{ kind: 'course', code: 'CMPT 120', credits: 3, text: 'SFU CMPT 120 (3) → “Q”' }], effectiveEnd: null };

  it('round-trips a JSON value through gzipped bytes, smaller than its text when it repeats', () => {
    const many = Array.from({ length: 200 }, (_, i) => ({ ...rule, ruleId: `bctg-${i}` }));
    const bytes = encodeValue(many);
    expect(bytes).toBeInstanceOf(Uint8Array);
    expect(bytes.byteLength).toBeLessThan(JSON.stringify(many).length / 5);
    expect(decodeValue(bytes)).toEqual(many);
  });
});

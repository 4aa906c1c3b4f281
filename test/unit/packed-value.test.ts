import { describe, expect, it } from 'vitest';
import { decodeValue, encodeValue, packBodies, unpackBodies } from '../../functions/platform/store/packed-value.js';

describe('packed values', () => {
  const rule = { ruleId: 'bctg-1', targets: [{ kind: 'course', code: 'CMPT 120', credits: 3, text: 'SFU CMPT 120 (3) → “Q”' }], effectiveEnd: null };

  it('round-trips a JSON value through gzipped bytes, smaller than its text when it repeats', () => {
    const many = Array.from({ length: 200 }, (_, i) => ({ ...rule, ruleId: `bctg-${i}` }));
    const bytes = encodeValue(many);
    expect(bytes).toBeInstanceOf(Uint8Array);
    expect(bytes.byteLength).toBeLessThan(JSON.stringify(many).length / 5);
    expect(decodeValue(bytes)).toEqual(many);
  });

  it('stores the body attributes packed, leaves keys and the rest as they are, and reads them back', () => {
    const item = { PK: 'RULE#bctg-1', SK: 'RULE', status: 'active', GSI1PK: 'TRANSFER#langara#sfu', rule, equivalence: { ruleId: 'bctg-1' } };
    const stored = packBodies(item);
    expect(stored).toMatchObject({ PK: 'RULE#bctg-1', SK: 'RULE', status: 'active', GSI1PK: 'TRANSFER#langara#sfu' });
    expect(stored.rule).toBeUndefined();
    expect(stored.rulePacked).toBeInstanceOf(Uint8Array);
    expect(unpackBodies(stored)).toEqual(item);
    // The caller's item is not changed.
    expect(item.rule).toBe(rule);
  });

  it('reads an item stored before packing (or without a body) unchanged', () => {
    const plain = { PK: 'COURSE#sfu#CMPT 120', SK: 'course#sfu-outlines', record: { kind: 'course', code: 'CMPT 120' } };
    expect(unpackBodies(plain)).toBe(plain);
    const noBody = { PK: 'CATALOG', SK: 'VERSION', version: 3 };
    expect(packBodies(noBody)).toBe(noBody);
  });
});

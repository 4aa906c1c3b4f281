/**
 * Seeded generator of malformed tool inputs: each case starts from a valid input of the tool and
 * breaks it one way (a wrong type, a missing or unknown field, a huge or odd string, deep nesting, a
 * `__proto__` key, a non-object). The same seed gives the same cases.
 */
export interface FuzzCase {
  label: string;
  /** The request body as sent: JSON text, so `__proto__` keys survive as data. */
  body: string;
  /** Whether an MCP client can send it as tools/call arguments (an object). */
  isObject: boolean;
}

export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const ODD_STRINGS = ['', ' ', '\u0000', '\ud800', '🙂'.repeat(50), '../../etc/passwd', "' OR 1=1 --", '<script>alert(1)</script>', 'sfu:', ':', 'x'.repeat(70_000), '%s%n', '${jndi:x}', 'NaN', '-0', '2023-02-30', '01JD0000000000000000000000'];

export function createFuzzer(seed: number) {
  const random = seededRandom(seed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;

  function oddValue(depth = 0): unknown {
    switch (Math.floor(random() * 10)) {
      case 0: return null;
      case 1: return pick([true, false]);
      case 2: return pick([-1, 0, 1.5, 1e308, -1e308, 2 ** 53 + 1, 101, 1_000_000]);
      case 3: return pick(ODD_STRINGS);
      case 4: return depth > 2 ? [] : Array.from({ length: Math.floor(random() * 4) }, () => oddValue(depth + 1));
      case 5: return depth > 2 ? {} : { [pick(['a', 'code', 'limit', 'constructor'])]: oddValue(depth + 1) };
      case 6: return Array.from({ length: 500 }, (_, i) => `item ${i}`);
      default: return pick(ODD_STRINGS.slice(0, 10));
    }
  }

  /** One broken variant of `base`, an input the tool accepts; `fields` are the tool's input fields. */
  function mutate(base: Record<string, unknown>, fields: string[]): FuzzCase {
    const field = fields.length ? pick(fields) : 'query';
    const object = (label: string, value: Record<string, unknown>): FuzzCase => ({ label, body: JSON.stringify(value), isObject: true });
    switch (Math.floor(random() * 9)) {
      case 0: return object(`${field}: odd value`, { ...base, [field]: oddValue() });
      case 1: {
        const { [field]: _dropped, ...rest } = base;
        return object(`${field} missing, another odd`, { ...rest, [pick(fields.length ? fields : ['x'])]: oddValue() });
      }
      case 2: return object('unknown fields', { ...base, [`unknown_${Math.floor(random() * 1e6)}`]: oddValue(), [pick(['$where', 'constructor', 'prototype', ''])]: 1 });
      case 3: return object(`${field}: huge string`, { ...base, [field]: 'y'.repeat(200_000 + Math.floor(random() * 1000)) });
      case 4: {
        const depth = 20 + Math.floor(random() * 200);
        const nested = `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
        return { label: `${field}: nested ${depth} deep`, body: `${JSON.stringify(base).slice(0, -1)}${Object.keys(base).length ? ',' : ''}${JSON.stringify(field)}:${nested}}`, isObject: true };
      }
      case 5: return { label: '__proto__ key', body: `{"__proto__":{"isAdmin":true},${JSON.stringify(base).slice(1)}`.replace(',}', '}'), isObject: true };
      case 6: return object('many unknown fields', { ...base, ...Object.fromEntries(Array.from({ length: 150 + Math.floor(random() * 3000) }, (_, i) => [`k${i}`, i])) });
      case 7: return object(`${field}: wrong type in every field`, Object.fromEntries(fields.map((name) => [name, oddValue()])));
      default: {
        const value = pick([[base], 'input', 42, null, true]);
        return { label: `not an object: ${JSON.stringify(value).slice(0, 20)}`, body: JSON.stringify(value), isObject: false };
      }
    }
  }

  return { mutate, random };
}

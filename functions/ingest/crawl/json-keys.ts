/**
 * JSON from the sources read without caring how its keys are cased: the BC Transfer Guide's newer
 * service answers `id`/`code` where the older one answered `Id`/`Code`, and its search may follow.
 */

/** A field of an object whatever the casing of its key (an exact match first); undefined when absent. */
export function field(value: unknown, name: string): unknown {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return undefined;
  const record = value as Record<string, unknown>;
  if (name in record) return record[name];
  const wanted = name.toLowerCase();
  for (const key of Object.keys(record)) if (key.toLowerCase() === wanted) return record[key];
  return undefined;
}

export function textField(value: unknown, name: string): string | undefined {
  const found = field(value, name);
  if (typeof found === 'string') return found;
  if (typeof found === 'number' && Number.isFinite(found)) return String(found);
  return undefined;
}

/** A number, also from a numeric string (`"currentPage": "1"`). */
export function numberField(value: unknown, name: string): number | undefined {
  const found = field(value, name);
  if (typeof found === 'number' && Number.isFinite(found)) return found;
  if (typeof found === 'string' && /^\s*-?\d+(\.\d+)?\s*$/.test(found)) return Number(found);
  return undefined;
}

/**
 * The object with every key the canonical list names renamed to its canonical casing (other keys
 * kept as they are), so adapters written against one casing read either.
 */
export function withCanonicalKeys(value: unknown, canonical: readonly string[]): Record<string, unknown> {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return {};
  const byLower = new Map(canonical.map((name) => [name.toLowerCase(), name]));
  const result: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value as Record<string, unknown>)) {
    const name = byLower.get(key.toLowerCase()) ?? key;
    // An exact key wins over a differently cased duplicate.
    if (!(name in result) || key === name) result[name] = item;
  }
  return result;
}

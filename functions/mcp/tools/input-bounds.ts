import type { FieldIssue } from './errors.js';

/**
 * Limits every tool input meets before it is validated, so a malformed input costs the server as
 * little as a well-formed one. No tool's schema has objects near these sizes; string and array
 * lengths are bounded per field by the schemas themselves.
 */
export const INPUT_BOUNDS = {
  fieldsPerObject: 100,
  depth: 32,
  /** Field issues an error response lists; the rest are counted. */
  issuesListed: 20,
  /** Characters of one field name or message in an error response. */
  textInIssue: 200,
} as const;

/** Keys JSON.parse keeps as data but JavaScript treats as the prototype; refused wherever they appear. */
const PROTOTYPE_KEY = '__proto__';

export function truncated(text: string, max: number = INPUT_BOUNDS.textInIssue): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

export function fieldPath(path: readonly (string | number)[]): string {
  return path.length ? truncated(path.map(String).join('.')) : '(root)';
}

/**
 * What is wrong with an input's shape before its schema looks at it: an object with too many
 * fields, nesting too deep, a `__proto__` key. At most `issuesListed` issues; the walk stops there.
 */
export function inputBoundIssues(input: unknown): FieldIssue[] {
  const issues: FieldIssue[] = [];
  const stack: { value: unknown; path: (string | number)[] }[] = [{ value: input, path: [] }];
  while (stack.length && issues.length < INPUT_BOUNDS.issuesListed) {
    const { value, path } = stack.pop()!;
    if (typeof value !== 'object' || value === null) continue;
    if (path.length >= INPUT_BOUNDS.depth) {
      issues.push({ field: fieldPath(path), message: `nested deeper than ${INPUT_BOUNDS.depth} levels`, code: 'too_deep' });
      continue;
    }
    if (Array.isArray(value)) {
      for (let index = value.length - 1; index >= 0; index--) stack.push({ value: value[index], path: [...path, index] });
      continue;
    }
    const keys = Object.keys(value);
    if (keys.length > INPUT_BOUNDS.fieldsPerObject) {
      issues.push({ field: fieldPath(path), message: `has ${keys.length} fields; at most ${INPUT_BOUNDS.fieldsPerObject} are accepted`, code: 'too_many_fields' });
      continue;
    }
    for (const key of keys) {
      if (key === PROTOTYPE_KEY) issues.push(prototypeKeyIssue([...path, key]));
      else stack.push({ value: (value as Record<string, unknown>)[key], path: [...path, key] });
    }
  }
  return issues.slice(0, INPUT_BOUNDS.issuesListed);
}

export function prototypeKeyIssue(path: (string | number)[]): FieldIssue {
  return { field: fieldPath(path), message: '"__proto__" is not accepted as a field name', code: 'forbidden_key' };
}

/** Paths of `__proto__` keys in a parsed JSON value (JSON.parse keeps them as own properties). */
export function prototypeKeyPaths(value: unknown, path: (string | number)[] = [], found: (string | number)[][] = []): (string | number)[][] {
  if (typeof value !== 'object' || value === null || path.length >= INPUT_BOUNDS.depth || found.length >= INPUT_BOUNDS.issuesListed) return found;
  for (const [key, child] of Object.entries(value)) {
    if (key === PROTOTYPE_KEY) found.push([...path, key]);
    else prototypeKeyPaths(child, [...path, Array.isArray(value) ? Number(key) : key], found);
  }
  return found;
}

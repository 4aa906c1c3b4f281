import * as z from 'zod/v4';
import {
  CatalogRecordSchema,
  recordId,
  type AdapterContext,
  type AdapterOutput,
  type CatalogRecord,
  type Provenance,
  type RejectedRecord,
} from '../../catalog/catalog-model.js';
import { normalizeCourseCode } from '../../catalog/course-ref.js';
import { parseTerm } from '../../catalog/terms.js';

/** Thrown inside a record mapper to reject that record (and only it) with a readable reason. */
export class RecordError extends Error {}

export function provenance(
  source: string,
  context: AdapterContext,
  sourceRecordId: string,
  extra: { sourceUrl?: string; retrievedAt?: string } = {},
): Provenance {
  return { source, sourceRecordId, ingestedAt: context.ingestedAt, ...extra };
}

/** Trimmed text, or undefined for null/blank: sources use "" for "not given", which must not overwrite real data on merge. */
export function text(value: string | null | undefined): string | undefined {
  const trimmed = value?.trim();
  return trimmed ? trimmed : undefined;
}

export function courseCode(subject: string, number: string | number): string {
  const code = normalizeCourseCode(`${subject} ${number}`);
  if (!code) throw new RecordError(`not a course code: "${subject} ${number}"`);
  return code;
}

export function term(input: string): string {
  const parsed = parseTerm(input);
  if (!parsed) throw new RecordError(`not a term: "${input}"`);
  return parsed;
}

/** Distinct non-blank names, first-seen order. */
export function distinctNames(names: Iterable<string>): string[] {
  const seen = new Set<string>();
  for (const name of names) {
    const trimmed = name.trim();
    if (trimmed) seen.add(trimmed);
  }
  return [...seen];
}

function describeIssues(error: z.ZodError): string {
  return error.issues.map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`).join('; ');
}

/** Parses a source item with its input schema, turning a shape mismatch into a RecordError. */
export function shape<T>(schema: z.ZodType<T>, raw: unknown): T {
  const result = schema.safeParse(raw);
  if (!result.success) throw new RecordError(`unexpected shape: ${describeIssues(result.error)}`);
  return result.data;
}

/** Reads a field off an unvalidated item, for ids of records that may be malformed. */
export function field(raw: unknown, key: string): string {
  if (typeof raw !== 'object' || raw === null) return '?';
  const value = (raw as Record<string, unknown>)[key];
  return typeof value === 'string' || typeof value === 'number' ? String(value).trim() : '?';
}

const PREVIEW_CHARS = 300;

/**
 * Parses a JSON file and checks its container shape. A broken or unexpected file becomes one
 * rejected record naming the origin, so one bad download never aborts a multi-file run.
 */
export function readJson<T>(
  raw: string,
  context: AdapterContext,
  schema: z.ZodType<T>,
): { ok: true; value: T } | { ok: false; output: AdapterOutput } {
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch (error) {
    return fileRejected(context, `invalid JSON: ${(error as Error).message}`, raw);
  }
  const result = schema.safeParse(parsed);
  if (!result.success) return fileRejected(context, `unexpected file shape: ${describeIssues(result.error)}`, raw);
  return { ok: true, value: result.data };
}

export function fileRejected(context: AdapterContext, reason: string, raw: string): { ok: false; output: AdapterOutput } {
  return {
    ok: false,
    output: { records: [], rejected: [{ sourceRecordId: context.origin, reason, raw: raw.slice(0, PREVIEW_CHARS) }] },
  };
}

/** Drops keys whose value is undefined, so "absent" has one representation in stored and compared records. */
function withoutUndefined<T>(value: T): T {
  if (Array.isArray(value)) return value.map(withoutUndefined) as T;
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([, v]) => v !== undefined)
      .map(([k, v]) => [k, withoutUndefined(v)]),
  ) as T;
}

/**
 * Maps source items to catalog records. Any error for one item (shape, code, term, or a record that
 * fails `CatalogRecordSchema`) rejects that item with its id and reason; the rest still parse.
 */
export function mapRecords<T>(
  items: readonly T[],
  idOf: (item: T, index: number) => string,
  toRecords: (item: T, index: number) => CatalogRecord[],
): AdapterOutput {
  const output: AdapterOutput = { records: [], rejected: [] };
  items.forEach((item, index) => {
    let sourceRecordId: string | undefined;
    try {
      sourceRecordId = idOf(item, index);
    } catch {
      sourceRecordId = undefined;
    }
    try {
      const records = toRecords(item, index).map((record) => {
        const checked = CatalogRecordSchema.safeParse(record);
        if (!checked.success) throw new RecordError(`invalid ${record.kind} record: ${describeIssues(checked.error)}`);
        return withoutUndefined(checked.data);
      });
      output.records.push(...records);
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      output.rejected.push({ sourceRecordId, reason, raw: item });
    }
  });
  return output;
}

/**
 * Checks container items (e.g. a course holding sections) so their children can be mapped one by
 * one: a bad container is rejected once, rather than once per child or not at all.
 */
export function validItems<T, P>(
  items: readonly T[],
  idOf: (item: T, index: number) => string,
  check: (item: T) => P,
): { valid: P[]; output: AdapterOutput } {
  const valid: P[] = [];
  const output = mapRecords(items, idOf, (item) => {
    valid.push(check(item));
    return [];
  });
  return { valid, output };
}

/**
 * Concatenates outputs and rejects later records whose identity (institution, code, record id) was
 * already emitted: the store keys records by that identity, so a duplicate would silently overwrite.
 */
export function combine(...outputs: AdapterOutput[]): AdapterOutput {
  const records: CatalogRecord[] = [];
  const rejected: RejectedRecord[] = outputs.flatMap((output) => output.rejected);
  const seen = new Map<string, CatalogRecord>();
  for (const record of outputs.flatMap((output) => output.records)) {
    const key = `${record.institution}|${record.code}|${recordId(record)}`;
    const first = seen.get(key);
    if (!first) {
      seen.set(key, record);
      records.push(record);
      continue;
    }
    const identical = JSON.stringify(first) === JSON.stringify(record);
    rejected.push({
      sourceRecordId: record.provenance.sourceRecordId,
      reason: identical
        ? `duplicate of an identical earlier record (${key})`
        : `conflicts with an earlier record with the same identity (${key}); the first was kept`,
      raw: record,
    });
  }
  return { records, rejected };
}

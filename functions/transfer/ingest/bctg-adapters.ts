import * as z from 'zod/v4';
import { institutionId } from '../../catalog/institutions.js';
import { parseCompactDate, parseMonthYear } from './bctg-dates.js';
import { ApiRecordSchema, EnvelopeSchema, PdfRowSchema } from './bctg-schemas.js';
import { parseTransferDetail } from '../rule-text/detail-parser.js';
import { ruleIdOf } from '../rule-identity.js';
import { TransferRuleSchema, type TransferRule } from '../rule-model.js';

/**
 * Adapters from the three BC Transfer Guide shapes we hold (PDF-derived Langara rows, raw web-API
 * agreement records, and the API's paged `search-from` envelope) to TransferRules. Rows never
 * throw: anything malformed is returned in `rejected` with a reason.
 */

export type BctgFormat = 'langara-pdf' | 'api-records' | 'api-envelope';

interface RejectedRow {
  sourceRecordId?: string;
  reason: string;
  raw?: unknown;
}

export interface BctgParseResult {
  rules: TransferRule[];
  rejected: RejectedRow[];
  /** Rows read, before deduplication. */
  rows: number;
  /** Rows folded into an earlier rule with the same ruleId (bundles are listed under each of their courses). */
  duplicatesMerged: number;
  /** Institution names the rows state (API records), by slug: how ingestion names institutions Tutor Nexus has no entry for. */
  names?: Map<string, string>;
  /** Paging of an `api-envelope` response. */
  page?: { currentPage: number; totalPages: number; totalAgreements: number; pageLength: number };
}

const SEARCH_URL = 'https://www.bctransferguide.ca/transfer-options/search-courses/search-course-result/';

interface RowInput {
  sourceRecordId: string;
  sender: string;
  receiver: string;
  subject: string;
  number: string;
  credits?: number | null;
  detail: string;
  condition: string | null;
  start: string | undefined;
  end: string | null | undefined;
  institutionFrom: string;
  label: string;
  raw: unknown;
}

const issues = (error: z.ZodError) => error.issues.map((i) => `${i.path.join('.') || 'row'}: ${i.message}`).join('; ');

function buildRule(row: RowInput, ingestedAt: string): TransferRule | RejectedRow {
  const reject = (reason: string): RejectedRow => ({ sourceRecordId: row.sourceRecordId, reason, raw: row.raw });
  if (!row.start) return reject('unreadable effective start date');
  if (row.end === undefined) return reject('unreadable effective end date');
  if (row.end !== null && row.end < row.start) return reject(`effective end ${row.end} is before start ${row.start}`);
  const parsed = parseTransferDetail(row.detail, {
    sender: row.sender,
    receiver: row.receiver,
    sourceCourse: { subject: row.subject, number: row.number, credits: row.credits },
    condition: row.condition,
  });
  const senderInstitution = institutionId(row.sender);
  const receiverInstitution = institutionId(row.receiver);
  const designations = [...new Set(parsed.targets.flatMap((t) => t.designations ?? []))];
  const candidate: TransferRule = {
    ruleId: ruleIdOf({ sender: senderInstitution, receiver: receiverInstitution, start: row.start, parsed }),
    senderInstitution,
    receiverInstitution,
    ...parsed,
    designations,
    rawDetail: row.detail,
    rawCondition: row.condition,
    effectiveStart: row.start,
    effectiveEnd: row.end,
    evidence: [evidenceFor(row)],
    sourceRecordId: row.sourceRecordId,
    listedUnder: 1,
    mergedRecordIds: [],
    provenance: { source: 'bctransferguide', sourceRecordId: row.sourceRecordId, ingestedAt },
  };
  const checked = TransferRuleSchema.safeParse(candidate);
  return checked.success ? checked.data : reject(`rule failed validation: ${issues(checked.error)}`);
}

/** A BCTG search link for the sending course, built only from values in the record. */
function evidenceFor(row: RowInput): { label: string; url: string } {
  const query = new URLSearchParams({ institutionFrom: row.institutionFrom, subjectFrom: row.subject, courseNumFrom: row.number });
  return { label: row.label, url: `${SEARCH_URL}?${query}` };
}

/**
 * One rule per ruleId; a bundle's repeated listings add their record ids and search links to the
 * first. Rows arrive in file order, already-rejected ones included, so `rejected` keeps that order.
 */
function collect(rows: (RowInput | RejectedRow)[], ingestedAt: string): BctgParseResult {
  const byId = new Map<string, TransferRule>();
  const rejected: RejectedRow[] = [];
  let duplicatesMerged = 0;
  for (const row of rows) {
    const rule = 'reason' in row ? row : buildRule(row, ingestedAt);
    if (!('ruleId' in rule)) {
      rejected.push(rule);
      continue;
    }
    const first = byId.get(rule.ruleId);
    if (!first) {
      byId.set(rule.ruleId, rule);
      continue;
    }
    duplicatesMerged++;
    first.listedUnder++;
    if (rule.sourceRecordId !== first.sourceRecordId && !first.mergedRecordIds.includes(rule.sourceRecordId)) first.mergedRecordIds.push(rule.sourceRecordId);
    for (const link of rule.evidence) if (!first.evidence.some((e) => e.url === link.url)) first.evidence.push(link);
  }
  return { rules: [...byId.values()], rejected, rows: rows.length, duplicatesMerged };
}

function fromPdfRows(value: unknown, ingestedAt: string): BctgParseResult {
  const list = z.object({ courses: z.array(z.unknown()) }).safeParse(value);
  if (!list.success) return { rules: [], rejected: [{ reason: `not a {"courses": [...]} file: ${issues(list.error)}` }], rows: 0, duplicatesMerged: 0 };
  const rows: (RowInput | RejectedRow)[] = [];
  const seen = new Map<string, number>();
  for (const raw of list.data.courses) {
    const parsed = PdfRowSchema.safeParse(raw);
    if (!parsed.success) {
      rows.push({ reason: `malformed row: ${issues(parsed.error)}`, raw });
      continue;
    }
    const r = parsed.data;
    const number = String(r.course_code);
    // The PDF has no record ids; a course can hold two rows for one receiver and start (its own and a bundle's).
    const base = `${r.source} ${r.subject} ${number} → ${r.destination} @ ${r.effective_start}`;
    const n = (seen.get(base) ?? 0) + 1;
    seen.set(base, n);
    const end = r.effective_end.trim().toLowerCase() === 'present' ? null : parseMonthYear(r.effective_end, 'end');
    rows.push({
      sourceRecordId: n > 1 ? `${base} #${n}` : base,
      sender: r.source,
      receiver: r.destination,
      subject: r.subject,
      number,
      detail: r.credit.trim(),
      condition: null,
      start: parseMonthYear(r.effective_start, 'start'),
      end,
      institutionFrom: r.source,
      label: `BC Transfer Guide (PDF export): ${n > 1 ? `${base} #${n}` : base}`,
      raw,
    });
  }
  return collect(rows, ingestedAt);
}

function fromApiRecords(records: unknown[], ingestedAt: string): BctgParseResult {
  const rows: (RowInput | RejectedRow)[] = [];
  const names = new Map<string, string>();
  for (const raw of records) {
    const r = raw as { SndrInstitutionCode?: unknown; SndrInstitutionName?: unknown; RcvrInstitutionCode?: unknown; RcvrInstitutionName?: unknown } | null;
    for (const [code, name] of [[r?.SndrInstitutionCode, r?.SndrInstitutionName], [r?.RcvrInstitutionCode, r?.RcvrInstitutionName]]) {
      if (typeof code === 'string' && typeof name === 'string' && name.trim()) names.set(institutionId(code), name.trim());
    }
  }
  for (const raw of records) {
    const parsed = ApiRecordSchema.safeParse(raw);
    if (!parsed.success) {
      const id = (raw as { Id?: unknown } | null)?.Id;
      rows.push({ ...(id !== undefined ? { sourceRecordId: String(id) } : {}), reason: `malformed record: ${issues(parsed.error)}`, raw });
      continue;
    }
    const r = parsed.data;
    const condition = r.Condition?.trim() ? r.Condition : null;
    rows.push({
      sourceRecordId: String(r.Id),
      sender: r.SndrInstitutionCode,
      receiver: r.RcvrInstitutionCode,
      subject: r.SndrSubjectCode,
      number: String(r.SndrCourseNumber),
      credits: r.SndrCourseCredit ?? null,
      detail: r.Detail.trim(),
      condition,
      start: parseCompactDate(r.StartDate),
      end: r.EndDate ? parseCompactDate(r.EndDate) : null,
      institutionFrom: String(r.SndrInstitutionID ?? r.SndrInstitutionCode),
      label: `BC Transfer Guide agreement ${r.Id}: ${r.SndrInstitutionCode} ${r.SndrSubjectCode} ${r.SndrCourseNumber} → ${r.RcvrInstitutionCode}`,
      raw,
    });
  }
  return { ...collect(rows, ingestedAt), names };
}

function fromEnvelope(value: unknown, ingestedAt: string): BctgParseResult {
  const envelope = EnvelopeSchema.safeParse(value);
  if (!envelope.success) return { rules: [], rejected: [{ reason: `not a search-from envelope: ${issues(envelope.error)}` }], rows: 0, duplicatesMerged: 0 };
  // Agreements repeat their course's sender fields; the course's copy fills any an agreement lacks.
  const records = envelope.data.courses.flatMap(({ agreements, ...course }) =>
    agreements.map((a) => (a && typeof a === 'object' ? { ...course, ...a } : a)),
  );
  const { currentPage, totalPages, totalAgreements, pageLength } = envelope.data;
  return { ...fromApiRecords(records, ingestedAt), page: { currentPage, totalPages, totalAgreements, pageLength } };
}

function readJson(json: string): { value?: unknown; error?: string } {
  try {
    return { value: JSON.parse(json) as unknown };
  } catch (error) {
    return { error: `invalid JSON: ${(error as Error).message}` };
  }
}

function formatOf(value: unknown): BctgFormat | undefined {
  const has = (item: unknown, ...keys: string[]) => !!item && typeof item === 'object' && keys.every((k) => k in item);
  if (Array.isArray(value)) return value.length && has(value[0], 'Detail', 'SndrInstitutionCode') ? 'api-records' : undefined;
  if (!has(value, 'courses')) return undefined;
  const courses = (value as { courses: unknown }).courses;
  if (!Array.isArray(courses)) return undefined;
  if (has(value, 'totalPages') || has(courses[0], 'agreements')) return 'api-envelope';
  return has(courses[0], 'credit', 'destination') ? 'langara-pdf' : undefined;
}

const failed = (reason: string): BctgParseResult => ({ rules: [], rejected: [{ reason }], rows: 0, duplicatesMerged: 0 });

export function detectBctgFormat(json: string): BctgFormat | undefined {
  return formatOf(readJson(json).value);
}

export function parseLangaraPdfRows(json: string, ingestedAt: string): BctgParseResult {
  const { value, error } = readJson(json);
  return error ? failed(error) : fromPdfRows(value, ingestedAt);
}

export function parseBctgApiRecords(json: string, ingestedAt: string): BctgParseResult {
  const { value, error } = readJson(json);
  if (error) return failed(error);
  return Array.isArray(value) ? fromApiRecords(value, ingestedAt) : failed('expected a JSON array of BCTG agreement records');
}

export function parseBctgPageEnvelope(json: string, ingestedAt: string): BctgParseResult {
  const { value, error } = readJson(json);
  return error ? failed(error) : fromEnvelope(value, ingestedAt);
}

/** Detects the shape and parses it; an unrecognised file yields one rejection, not an exception. */
export function parseBctgFile(json: string, ingestedAt: string): BctgParseResult & { format?: BctgFormat } {
  const { value, error } = readJson(json);
  if (error) return failed(error);
  const format = formatOf(value);
  if (format === 'langara-pdf') return { format, ...fromPdfRows(value, ingestedAt) };
  if (format === 'api-records') return { format, ...fromApiRecords(value as unknown[], ingestedAt) };
  if (format === 'api-envelope') return { format, ...fromEnvelope(value, ingestedAt) };
  return failed('unrecognised BC Transfer Guide file: expected Langara PDF rows, API records or a search-from envelope');
}

import * as z from 'zod/v4';
import { RequirementNodeSchema } from './requirement-tree.js';

/**
 * The catalog as ingested: every stored record is owned by exactly one source, so re-running a
 * source can update or retire exactly its own records. A course is the merge of its fragments
 * (e.g. Langara's catalogue, attributes and prerequisite text are three sources).
 */

export const ProvenanceSchema = z.object({
  source: z.string().describe('Source adapter name, e.g. "sfu-outlines"'),
  sourceRecordId: z.string().describe('The record\'s id within its source'),
  sourceUrl: z.string().optional().describe('Where the record can be seen, when known'),
  retrievedAt: z.string().optional().describe('When the source captured the data (RFC 3339), when known'),
  ingestedAt: z.iso.datetime().describe('When Tutor Nexus ingested it'),
});
export type Provenance = z.infer<typeof ProvenanceSchema>;

const base = {
  institution: z.string(),
  /** `SUBJ NUM`, normalised (`CMPT 120`). */
  code: z.string(),
  provenance: ProvenanceSchema,
};

const CourseFragmentSchema = z.object({
  kind: z.literal('course'),
  ...base,
  title: z.string().optional(),
  description: z.string().optional(),
  credits: z.number().nullable().optional(),
  prerequisitesText: z.string().optional(),
  corequisitesText: z.string().optional(),
  /** Free-text notes, e.g. SFU's "Students with credit for X may not take this course…". */
  notes: z.string().optional(),
  designation: z.string().optional(),
  attributes: z.array(z.string()).optional(),
  deliveryMethod: z.string().optional(),
  degreeLevel: z.string().optional(),
  hours: z.record(z.string(), z.number()).optional(),
  /** A requirement tree the source itself gives (UVic's Kuali rules); text-only sources leave it to the parser. */
  prerequisiteTree: RequirementNodeSchema.optional(),
});

const OfferingSchema = z.object({
  kind: z.literal('offering'),
  ...base,
  term: z.string(),
  instructors: z.array(z.string()),
});

const MeetingSchema = z.object({
  type: z.string().describe('LEC, LAB, TUT, SEM, EXAM, WWW, …'),
  days: z.array(z.enum(['Mo', 'Tu', 'We', 'Th', 'Fr', 'Sa', 'Su'])),
  startTime: z.string().optional().describe('HH:MM, 24 h'),
  endTime: z.string().optional(),
  startDate: z.string().optional().describe('YYYY-MM-DD'),
  endDate: z.string().optional(),
  campus: z.string().optional(),
  room: z.string().optional(),
  instructor: z.string().optional(),
});
export type Meeting = z.infer<typeof MeetingSchema>;

export const SectionSchema = z.object({
  kind: z.literal('section'),
  ...base,
  term: z.string(),
  section: z.string(),
  title: z.string().optional(),
  classNumber: z.string().optional().describe('SFU class number or Langara CRN'),
  credits: z.number().nullable().optional(),
  deliveryMethod: z.string().optional(),
  campus: z.string().optional(),
  instructors: z.array(z.string()),
  meetings: z.array(MeetingSchema),
  seats: z
    .object({
      available: z.number().int().nullable().describe('Open seats when known'),
      status: z.enum(['open', 'full', 'inactive', 'cancelled', 'unknown']),
      waitlist: z.number().int().nullable().optional(),
    })
    .optional(),
  notes: z.string().optional(),
});

const GradeBinSchema = z.object({
  label: z.string().describe('e.g. "<50", "50-54", "90-100"'),
  /** null when the source suppressed the bin (too few students), never a made-up zero. */
  count: z.number().nullable(),
});

export const GradeDistributionSchema = z.object({
  kind: z.literal('grades'),
  ...base,
  term: z.string(),
  section: z.string().describe('Section, or "OVERALL" for a course-wide row'),
  title: z.string().optional(),
  instructors: z.array(z.string()),
  /** Students reported (v2) or enrolled (v1/PAIR). */
  enrolled: z.number().nullable(),
  average: z.number().nullable(),
  median: z.number().nullable().optional(),
  percentile25: z.number().nullable().optional(),
  percentile75: z.number().nullable().optional(),
  stdDev: z.number().nullable().optional(),
  high: z.number().nullable().optional(),
  low: z.number().nullable().optional(),
  bins: z.array(GradeBinSchema),
  /** True when any figure was suppressed by the source. */
  suppressed: z.boolean(),
  format: z.enum(['v2', 'v1', 'pair']),
});

export const MaterialSchema = z.object({
  kind: z.literal('material'),
  ...base,
  materialId: z.string(),
  materialKind: z.enum(['exam', 'homework', 'notes', 'text', 'syllabus', 'other']),
  title: z.string(),
  url: z.string(),
  term: z.string().optional(),
});

export const CatalogRecordSchema = z.discriminatedUnion('kind', [
  CourseFragmentSchema,
  OfferingSchema,
  SectionSchema,
  GradeDistributionSchema,
  MaterialSchema,
]);
export type CatalogRecord = z.infer<typeof CatalogRecordSchema>;
export type CourseFragment = z.infer<typeof CourseFragmentSchema>;
export type Offering = z.infer<typeof OfferingSchema>;
export type Section = z.infer<typeof SectionSchema>;
export type GradeDistribution = z.infer<typeof GradeDistributionSchema>;
export type Material = z.infer<typeof MaterialSchema>;

/** Identity of a record within its course: unique per source. */
export function recordId(record: CatalogRecord): string {
  switch (record.kind) {
    case 'course':
      return `course#${record.provenance.source}`;
    case 'offering':
      return `offering#${record.term}#${record.provenance.source}`;
    case 'section':
      return `section#${record.term}#${record.section}`;
    case 'grades':
      return `grades#${record.term}#${record.section}`;
    case 'material':
      return `material#${record.materialId}`;
  }
}

/** A record the adapter could not turn into a catalog record: counted and quarantined, never fatal. */
export interface RejectedRecord {
  sourceRecordId?: string;
  reason: string;
  raw?: unknown;
}

export interface AdapterOutput {
  records: CatalogRecord[];
  rejected: RejectedRecord[];
}

export interface AdapterContext {
  ingestedAt: string;
  /** File name or URL the data came from (some sources encode the term or campus in it). */
  origin: string;
}

export interface SourceAdapter {
  /** Name used with `npm run ingest -- --source <name>`. */
  name: string;
  description: string;
  /** Institutions this source describes (used for freshness). */
  institutions: string[];
  parse(raw: string, context: AdapterContext): AdapterOutput;
  /**
   * The part of the source a record belongs to, for retirement: a run only retires records of the
   * scopes it saw (one UBC grades CSV is one campus, session and subject, not the whole source).
   * Defaults to one scope for the whole source. It is also how records are stored: what the source
   * says of one course within one scope is one item (a term's sections, a session's grades).
   */
  scopeOf?(record: CatalogRecord, context: AdapterContext): string;
  /**
   * Where an item is listed as owned (the ownership index a run reads): its scope by default. A coarser
   * one makes fewer, larger listings: a run of UBC's 2021S–2025W grades (~2,000 campus, session and
   * subject scopes) reads one listing per campus and session.
   */
  ownerScopeOf?(record: CatalogRecord, context: AdapterContext): string;
}

import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseCsv } from '../../catalog/ingestion/csv.js';

/**
 * Readers for the shipped sample data (data/sample). Used by the agreement measurement and the
 * tests; request paths read the catalog from the store, never from these files.
 */

const SAMPLE_DIR = fileURLToPath(new URL('../../../data/sample/', import.meta.url));

type SourceName = 'sfu' | 'ubc' | 'langara';

export interface SourceText {
  source: SourceName;
  /** Course the text belongs to, `SUBJ NUM`. */
  course: string;
  subject: string;
  field: 'prerequisites' | 'corequisites';
  text: string;
}

function readJson<T>(relative: string): T {
  return JSON.parse(readFileSync(`${SAMPLE_DIR}${relative}`, 'utf8')) as T;
}

export interface SfuOutline {
  dept: string;
  number: string;
  prerequisites?: string;
  corequisites?: string;
  notes?: string;
  description?: string;
}

export interface UbcCourse {
  dept: string;
  code: string;
  desc?: string;
  prer?: string;
  crer?: string;
}

export const loadSfuOutlines = () => readJson<SfuOutline[]>('sfu-outlines/outlines.json');
export const loadUbcCourses = () => readJson<UbcCourse[]>('ubc-catalog/courses.json');

export function sfuTexts(): SourceText[] {
  return loadSfuOutlines().flatMap((outline) => {
    const course = `${outline.dept} ${outline.number}`;
    const base = { source: 'sfu' as const, course, subject: outline.dept };
    return [
      ...(outline.prerequisites?.trim() ? [{ ...base, field: 'prerequisites' as const, text: outline.prerequisites }] : []),
      ...(outline.corequisites?.trim() ? [{ ...base, field: 'corequisites' as const, text: outline.corequisites }] : []),
    ];
  });
}

export function ubcTexts(): SourceText[] {
  return loadUbcCourses().flatMap((course) => {
    const base = { source: 'ubc' as const, course: course.code, subject: course.dept };
    return [
      ...(course.prer?.trim() ? [{ ...base, field: 'prerequisites' as const, text: course.prer }] : []),
      ...(course.crer?.trim() ? [{ ...base, field: 'corequisites' as const, text: course.crer }] : []),
    ];
  });
}

export function langaraTexts(): SourceText[] {
  const [header, ...rows] = parseCsv(readFileSync(`${SAMPLE_DIR}langara-prereqs/prerequisites-text.csv`, 'utf8')).map((row) => row.fields);
  const column = (name: string) => header!.indexOf(name);
  return rows
    .filter((row) => row.length >= 3)
    .map((row) => ({
      source: 'langara' as const,
      course: `${row[column('subject')]} ${row[column('course_code')]}`,
      subject: row[column('subject')]!,
      field: 'prerequisites' as const,
      text: row[column('prerequisite_text')]!,
    }));
}

/** LLM-parsed SFU trees (schema SFUv1.1); see data/sample/sfu-prereq-parsed/SOURCE.md. */
export interface SfuParsedEntry {
  department: string;
  number: string;
  prerequisite?: unknown;
  corequisite?: unknown;
  original_prerequisites: string;
  original_corequisites: string;
}

export const loadSfuParsed = () => readJson<SfuParsedEntry[]>('sfu-prereq-parsed/parsed_requirements.json');

/** Human-approved Langara trees: text → one parse or a list of candidate parses. */
export const loadLangaraConverted = () =>
  readJson<Record<string, { prerequisites: unknown } | { prerequisites: unknown }[]>>('langara-prereqs/converted-subset.json');

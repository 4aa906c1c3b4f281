import { institutionId } from './institutions.js';

export interface CourseRef {
  institution: string;
  subject: string;
  number: string;
  /** `SUBJ NUM`, e.g. `CMPT 120`. */
  code: string;
  /** `institution:SUBJ NUM`, e.g. `sfu:CMPT 120`. */
  ref: string;
}

/**
 * A subject code: 2–5 letters, and at UVic a hyphenated pair (`ED-D`, `ED-P`). A hyphen followed by
 * a letter belongs to the subject; followed by a digit it separates subject and number (`CMPT-225`).
 */
export const SUBJECT_SOURCE = String.raw`[A-Za-z]{2,5}(?:-[A-Za-z]{1,3})?`;

/** The same, as stored: upper case only (`ED-D`, never `ed-d`). */
export const CANONICAL_SUBJECT_SOURCE = String.raw`[A-Z]{2,5}(?:-[A-Z]{1,3})?`;

const CODE_PATTERN = new RegExp(String.raw`^(${SUBJECT_SOURCE})\s*[-_ ]?\s*(\d{3,4}[A-Za-z]{0,2})$`);

/** Normalises a course code: trims, collapses spaces, upper-cases subject, `CMPT120` → `CMPT 120`. */
export function normalizeCourseCode(input: string): string | undefined {
  const match = CODE_PATTERN.exec(input.trim().replace(/\s+/g, ' '));
  if (!match) return undefined;
  return `${match[1]!.toUpperCase()} ${match[2]!.toUpperCase()}`;
}

/**
 * Parses `institution:course_code` (`sfu:CMPT 120`, `SFU:cmpt120`, `UBCV: CPSC 110`). When the
 * institution is omitted, `defaultInstitution` is used. Returns undefined for unparseable input.
 */
export function parseCourseRef(input: string, defaultInstitution?: string): CourseRef | undefined {
  const separator = input.indexOf(':');
  const rawInstitution = separator >= 0 ? input.slice(0, separator) : defaultInstitution;
  const rawCode = separator >= 0 ? input.slice(separator + 1) : input;
  if (!rawInstitution?.trim()) return undefined;
  const code = normalizeCourseCode(rawCode);
  if (!code) return undefined;
  const institution = institutionId(rawInstitution);
  if (!institution) return undefined;
  const [subject, number] = code.split(' ') as [string, string];
  return { institution, subject, number, code, ref: `${institution}:${code}` };
}

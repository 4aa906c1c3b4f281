import { normalizeCourseCode } from '../../catalog/course-ref.js';
import { findInstitution } from '../../catalog/institutions.js';

export interface Token { kind: 'word' | 'credits' | 'punct'; text: string; start: number; end: number; credits?: number }
export interface Ref { inst?: string; subject: string; num: string; lev: boolean; credits?: number; from: number; to: number }
export interface Code { code: string; credits?: number; ref?: Ref; foreign: boolean; /** Institution slug, written or carried from the code before. */ inst?: string }
export type Parsed<T> = { value: T; to: number } | undefined;

const LEXEME = /\s+|\(\s*(\d+(?:\.\d+)?)\s*\)|([A-Za-z0-9_]+(?:['\u2019][A-Za-z]+)?)|(\S)/y;
export const UPPER = /^[A-Z]{2,5}$/;
export const SUBJECT = /^[A-Z]{2,5}(?:_[A-Z])?$/;
/** Course numbers (190A), level wildcards (1XX, 2XXX, XXX, XX1), UBC year levels (1st) and SFU named generics (1ARTHIS). */
export const NUMBER = /^(?:\d{3,4}[A-Z]{0,2}|\dX{2,3}|\dX\d{1,2}|X{3,4}|X{1,2}\d|\d(?:st|nd|rd|th)|\d[A-Z]{3,})$/;
export const COURSE_NUMBER = /^\d{3,4}[A-Z]{0,2}$/;
export const ELECTIVE_SUBJECTS = new Set(['ELEV', 'ELEC', 'UNSP']);
export const AREA: Record<string, string> = { sci: 'B-Sci', hum: 'B-Hum', soc: 'B-Soc' };
/** Words that end a designation list without being part of it ("B-Hum if student…", "Q or SFU…"). */
export const AFTER_DESIGNATION = new Set(['or', 'for', 'if', 'student', 'students', 'instead', 'and']);
/** Function words: a clause containing one is prose, not a short area label like "Visual Arts Studio". */
export const STOP = new Set(['an', 'as', 'at', 'be', 'by', 'can', 'cannot', 'credit', 'credits', 'do', 'does', 'for', 'from', 'if', 'in', 'is', 'are', 'may', 'must', 'no', 'not', 'note', 'of', 'on', 'only', 'or', 'please', 'see', 'take', 'taken', 'than', 'that', 'the', 'this', 'to', 'will', 'with', 'student', 'students', 'granted', 'used', 'counts', 'meets']);

export function lex(text: string, instCodes: string[]): Token[] {
  const tokens: Token[] = [];
  const word = (w: string, start: number): Token => ({ kind: 'word', text: w, start, end: start + w.length });
  LEXEME.lastIndex = 0;
  for (let m = LEXEME.exec(text); m; m = LEXEME.exec(text)) {
    const start = m.index;
    if (m[1] !== undefined) tokens.push({ kind: 'credits', text: m[0], start, end: LEXEME.lastIndex, credits: Number(m[1]) });
    else if (m[3] !== undefined) tokens.push({ kind: 'punct', text: m[3], start, end: start + 1 });
    else if (m[2] !== undefined) {
      // Typos seen in the data: "FINA2120", "B-Scior SFU …", "SFUSTAT 205".
      const w = m[2];
      const glued = /^([A-Z]{2,5})(\d{3,4}[A-Z]?)$/.exec(w) ?? /^(Sci|Hum|Soc)(or)$/.exec(w);
      const inst = w.length > 5 ? instCodes.find((c) => w.startsWith(c) && SUBJECT.test(w.slice(c.length))) : undefined;
      const head = glued?.[1] ?? inst;
      if (head) tokens.push(word(head, start), word(w.slice(head.length), start + head.length));
      else tokens.push(word(w, start));
    }
  }
  return tokens;
}

export const codeOf = (subject: string, num: string) => normalizeCourseCode(`${subject} ${num}`) ?? `${subject} ${num}`;
export const bctgCode = (inst: string) => findInstitution(inst)?.bctgCode ?? inst.toUpperCase();

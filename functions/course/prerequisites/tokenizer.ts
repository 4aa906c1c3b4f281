import { CANONICAL_SUBJECT_SOURCE, normalizeCourseCode } from '../../catalog/course-ref.js';

/**
 * Lexer for prerequisite prose. Course codes, high-school courses ("PHYS 12"), quoted grades,
 * percentages and "(a)"-style labels become their own tokens so the grammar never re-reads text.
 */

type TokenKind = 'course' | 'hs' | 'number' | 'percent' | 'grade' | 'word' | 'label' | 'punct';

export interface Token {
  kind: TokenKind;
  /** The source text of the token. */
  text: string;
  /** Normalised value: course code, number, grade, lower-cased word, label letter or the punctuation. */
  value: string;
  start: number;
  end: number;
}

/** Upper-case words followed by numbers that are tests or GPAs, not subjects ("MDT 075", "LET 3"). */
const NOT_SUBJECTS = new Set(['MDT', 'LET', 'LETN', 'LPI', 'IELTS', 'LEAP', 'DAMA', 'CGPA', 'GPA', 'UDGPA', 'TOEFL', 'CDT', 'AP', 'IB', 'BC', 'SFU', 'UBC', 'OR', 'AND']);

const LETTER_GRADE = /^(A\+|A-|A|B\+|B-|B|C\+|C-|C|D|F|SR|S|P)$/;

export function isLetterGrade(value: string): boolean {
  return LETTER_GRADE.test(value);
}

// Subjects as stored, UVic's hyphenated ones included ("ED-D 405").
const SUBJECT = CANONICAL_SUBJECT_SOURCE;
const EITHER_SUBJECT_IN_PARENTHESES = new RegExp(String.raw`\b(${SUBJECT}) \(or (${SUBJECT})\) (\d{3,4}[A-Z]?)\b`, 'g');
const EITHER_SUBJECT_WITH_SLASH = new RegExp(String.raw`\b(${SUBJECT})\/(${SUBJECT}) (\d{3,4}[A-Z]?)\b`, 'g');

/**
 * Rewrites the two shorthand forms the data uses for "either subject" so the grammar sees plain
 * course codes: "ECON (or BUEC) 333" and "ENSC/CMPT 150".
 */
export function normalizeText(raw: string): string {
  return raw
    .replace(/[\u201C\u201D\u2033]/g, '"')
    .replace(/[\u2018\u2019]/g, "'")
    .replace(/[\u2013\u2014]/g, '-')
    .replace(/\s+/g, ' ')
    .replace(/^\s*pre-?requisites?(?:\(s\))?\s*:\s*/i, '')
    .replace(EITHER_SUBJECT_IN_PARENTHESES, '$1 $3 (or $2 $3)')
    .replace(EITHER_SUBJECT_WITH_SLASH, '$1 $3/$2 $3')
    .trim();
}

interface Rule {
  kind: TokenKind;
  pattern: RegExp;
  /** Returns the normalised value, or undefined to let the next rule try. */
  value: (match: RegExpExecArray) => string | undefined;
}

const subjectOk = (subject: string) => !NOT_SUBJECTS.has(subject);

// Order matters: earlier rules win, so specific shapes come before the generic number/word rules.
const RULES: Rule[] = [
  { kind: 'label', pattern: /\(([a-h])\)/y, value: (m) => m[1] },
  { kind: 'word', pattern: /(?:https?:\/\/|www\.)[^\s)]+/y, value: (m) => m[0].toLowerCase() },
  {
    kind: 'course',
    pattern: new RegExp(String.raw`(${SUBJECT}) ?(\d{3,4}[A-Z]?)(?![\w%])`, 'y'),
    value: (m) => (subjectOk(m[1]!) ? normalizeCourseCode(`${m[1]} ${m[2]}`) : undefined),
  },
  { kind: 'hs', pattern: /([A-Z]{2,5}) (1[12])(?![\w%]|\.\d)/y, value: (m) => (subjectOk(m[1]!) ? `${m[1]} ${m[2]}` : undefined) },
  { kind: 'percent', pattern: /(\d+(?:\.\d+)?) ?%/y, value: (m) => `${m[1]}%` },
  // Ordinals and "300-level" style words are words, never course numbers.
  { kind: 'word', pattern: /\d+(?:st|nd|rd|th)\b(?:-[A-Za-z]+)*|\d+-[A-Za-z][\w-]*/y, value: (m) => m[0].toLowerCase() },
  { kind: 'number', pattern: /\d{3,4}[A-Z](?![A-Za-z])|\d+(?:\.\d+)?/y, value: (m) => m[0] },
  { kind: 'grade', pattern: /(["'])(A\+|A-|A|B\+|B-|B|C\+|C-|C|D|F|SR|S|P)\1/y, value: (m) => m[2] },
  { kind: 'word', pattern: /(?:[A-Za-z]{1,3}\.){2,}/y, value: (m) => m[0].toLowerCase() },
  {
    kind: 'word',
    pattern: /[A-Za-z][A-Za-z']*(?:-[A-Za-z0-9][A-Za-z0-9']*)*(?:[+-](?![A-Za-z0-9]))?/y,
    value: (m) => m[0].toLowerCase(),
  },
];

export function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  let pos = 0;
  while (pos < text.length) {
    if (/\s/.test(text[pos]!)) {
      pos += 1;
      continue;
    }
    const token = matchAt(text, pos);
    tokens.push(token);
    pos = token.end;
  }
  return tokens;
}

function matchAt(text: string, pos: number): Token {
  for (const rule of RULES) {
    rule.pattern.lastIndex = pos;
    const match = rule.pattern.exec(text);
    if (!match || match[0].length === 0) continue;
    // A course code must start a word: "XCMPT 120" is not CMPT 120.
    if ((rule.kind === 'course' || rule.kind === 'hs') && pos > 0 && /[A-Za-z0-9]/.test(text[pos - 1]!)) continue;
    const value = rule.value(match);
    if (value === undefined) continue;
    return { kind: rule.kind, text: match[0], value, start: pos, end: pos + match[0].length };
  }
  const char = text[pos]!;
  return { kind: 'punct', text: char, value: char, start: pos, end: pos + 1 };
}

/**
 * Splits tokens into sentences at full stops outside parentheses. A stop followed by a lower-case
 * word ("18 cr. of") is an abbreviation, not a sentence end.
 */
export function splitSentences(tokens: Token[]): Token[][] {
  const sentences: Token[][] = [];
  let current: Token[] = [];
  let depth = 0;
  tokens.forEach((token, index) => {
    if (token.value === '(') depth += 1;
    if (token.value === ')') depth = Math.max(0, depth - 1);
    const next = tokens[index + 1];
    const ends = token.value === '.' && token.kind === 'punct' && depth === 0 && (!next || !/^[a-z]/.test(next.text));
    // "(CPSC 2150 recommended.) Prerequisites are …": a parenthesised sentence ends at its ")".
    const closesSentence = token.value === ')' && depth === 0 && tokens[index - 1]?.value === '.';
    if (closesSentence) current.push(token);
    if (ends || closesSentence) {
      if (current.length) sentences.push(current);
      current = [];
    } else {
      current.push(token);
    }
  });
  if (current.length) sentences.push(current);
  return sentences;
}

export function spanText(text: string, tokens: Token[]): string {
  const first = tokens[0];
  const last = tokens[tokens.length - 1];
  return first && last ? text.slice(first.start, last.end) : '';
}

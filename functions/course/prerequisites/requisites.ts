import { normalizeCourseCode } from '../../catalog/course-ref.js';
import { Cursor, type ParseContext } from './cursor.js';
import { normalizeText, spanText, splitSentences, tokenize, type Token } from './tokenizer.js';

/**
 * Antirequisites / credit exclusions from SFU notes ("Students with credit for CMPT 120, 128 or 130
 * may not take this course for further credit.") and UBC descriptions ("Credit will be granted for
 * only one of CPSC 110 or CPSC 103."). One entry per sentence, with the sentence kept verbatim.
 */

export interface Requisite {
  /** Normalised codes of the courses that exclude (or are excluded by) this one. */
  codes: string[];
  text: string;
}

export interface RequisiteOptions {
  /** The course the text belongs to; its own code is left out of `codes`. */
  self?: string;
  /** Subject for bare numbers when the sentence names none. */
  defaultSubject?: string;
}

const EXCLUSION = [
  /\b(?:may not|cannot|can not|not)\s+(?:then\s+)?(?:take|complete|repeat)\b.*\bfor\s+(?:further\s+)?credit\b/i,
  /\bcredit will (?:only )?be (?:granted|given) for only one of\b|\bcredit will only be given for one of\b/i,
  /\bno credit will be given for\b/i,
  /\bcredit will be granted for up to \d+ credits of\b/i,
  /\bnot open to students with credit for\b/i,
];

/** Where the excluded courses stop in SFU phrasing: "… may not take CMPT 105W for further credit". */
const SELF_CLAUSE = /\b(?:may not|cannot|can not)\b/i;

export function extractRequisites(text: string, options: RequisiteOptions = {}): Requisite[] {
  if (!text?.trim()) return [];
  const source = normalizeText(text);
  const self = options.self ? normalizeCourseCode(options.self) : undefined;
  const results: Requisite[] = [];
  for (const sentence of splitSentences(tokenize(source))) {
    const sentenceText = spanText(source, sentence);
    if (!EXCLUSION.some((pattern) => pattern.test(sentenceText))) continue;
    const stop = sentence.findIndex((token, i) => token.kind === 'word' && SELF_CLAUSE.test(`${token.value} ${sentence[i + 1]?.value ?? ''}`));
    const scope = /^students\b/i.test(sentenceText) && stop > 0 ? sentence.slice(0, stop) : sentence;
    const codes = codesIn(scope, source, options.defaultSubject).filter((code) => code !== self);
    if (codes.length) results.push({ codes, text: sentenceText });
  }
  return results;
}

function codesIn(tokens: Token[], source: string, defaultSubject?: string): string[] {
  const ctx: ParseContext = { institution: '', defaultSubject, recommended: [], notes: [], concurrent: [] };
  const cursor = new Cursor(tokens, source, ctx);
  const codes = new Set<string>();
  while (!cursor.done()) {
    const carried = cursor.peek()?.kind !== 'course';
    const before = cursor.peek(-1)?.value;
    const code = cursor.takeCourse();
    if (!code) {
      cursor.next();
      continue;
    }
    // "ECON 389 in 1131 or 1134" names terms, not courses.
    if (carried && before === 'in') continue;
    codes.add(code);
  }
  return [...codes];
}

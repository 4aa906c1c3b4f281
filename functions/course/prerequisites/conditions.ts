import type { ConditionCategory } from './tree.js';
import type { Token } from './tokenizer.js';

/**
 * Types the non-course phrases the grammar hands over ("60 units", "CGPA of 2.5"). Keyword tests
 * are the right tool here: a phrase is already isolated, we only need to name what it is about.
 */

export interface Classified {
  category: ConditionCategory;
  value?: number;
}

const NUMBER_WORDS: Record<string, number> = {
  one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10,
  twelve: 12, fifteen: 15, eighteen: 18, twenty: 20, thirty: 30,
};

const YEARS: Record<string, number> = {
  first: 1, second: 2, third: 3, fourth: 4, fifth: 5, '1st': 1, '2nd': 2, '3rd': 3, '4th': 4, '5th': 5,
};

const HS_SUBJECT = /\b(math|mathematics|calculus|pre-?calculus|precalculus|physics|chemistry|biology|english|french|studies|foundations|principles|science|peoples)\b/;

function firstNumber(text: string, max = Infinity): number | undefined {
  for (const match of text.matchAll(/\d+(?:\.\d+)?/g)) {
    const value = Number(match[0]);
    if (value <= max) return value;
  }
  return undefined;
}

function quantityBefore(text: string, noun: RegExp): number | undefined {
  const words = text.split(/\s+/);
  const index = words.findIndex((word) => noun.test(word));
  for (let i = index - 1; i >= Math.max(0, index - 6); i -= 1) {
    const word = words[i]!;
    if (/^\d+(\.\d+)?$/.test(word)) return Number(word);
    if (NUMBER_WORDS[word] !== undefined) return NUMBER_WORDS[word];
  }
  return undefined;
}

const RULES: { category: ConditionCategory; test: RegExp; value?: (text: string) => number | undefined }[] = [
  { category: 'gpa', test: /\b(c?gpa|udgpa)\b/, value: (t) => firstNumber(t, 4.33) },
  {
    category: 'credits',
    test: /\b(\d+|one|two|three|four|five|six|seven|eight|nine|ten|twelve|fifteen|eighteen|twenty|thirty)\b.*\b(units?|credits?|cr\.)(\W|$)/,
    value: (t) => quantityBefore(t, /^(units?|credits?|cr\.),?$/),
  },
  {
    category: 'standing',
    test: /\b(first|second|third|fourth|fifth|1st|2nd|3rd|4th|5th)[- ]year\b.*\bstanding\b|\bgraduate standing\b|\bcompletion of (first|second|third|fourth) year\b/,
    value: (t) => YEARS[/\b(first|second|third|fourth|fifth|1st|2nd|3rd|4th|5th)\b/.exec(t)?.[1] ?? ''],
  },
  { category: 'permission', test: /permission|consent|approv|by application|written agreement|determined by the instructor/ },
  {
    category: 'program',
    test: /\bprogram|\bmajors?\b|\bminor\b|honours|specialization|\benrol|\badmission|\bacceptance\b|\baccepted\b|\bregistration in\b|\bregistered in\b|restricted to|reserved for|only available|\bphd\b|\bmaster|\bstudents in\b|admitted|graduate student/,
  },
  { category: 'high-school', test: /\bhigh[- ]school\b|\bsecondary school\b|\bgrade 1[12]\b/ },
  { category: 'high-school', test: new RegExp(`${HS_SUBJECT.source}.*\\b1[12]\\b`) },
  {
    category: 'other',
    test: /\b(mdt|let|letn|lpi|ielts|leap|dama|toefl|cael|cdt)\b|\btest\b|assessment|\bap\b|language proficiency|\bessay\b|english usage|sentence structure|reading comprehension|\bbands?\b/,
    // Test scores are small numbers; a 3-4 digit number here is a course code ("CDT results for CHEM 1120").
    value: (t) => firstNumber(t.replace(/\b[a-z]{2,5} \d{3,4}\b/g, ''), 200),
  },
  {
    category: 'other',
    test: /experience|knowledge|equivalent|record check|certificate|bibliography|examination|\b(first|second)[- ]year\b|\bcourses?\b|-level|\blevel\b|-division|announced|to be determined|specified|dependent on|requirements|workshops?|proposal|project|practicum|bridging online/,
  },
];

export function classifyPhrase(text: string): Classified | undefined {
  const lower = text.toLowerCase();
  for (const rule of RULES) {
    if (!rule.test.test(lower)) continue;
    const value = rule.value?.(lower);
    return value === undefined ? { category: rule.category } : { category: rule.category, value };
  }
  return undefined;
}

/** Words that open a new requirement; a phrase ends before "and"/"or"/"," followed by one of these. */
const START_WORDS = new Set([
  'one', 'two', 'three', 'four', 'five', 'six', 'nine', 'twelve', 'all', 'any', 'both', 'either',
  'permission', 'consent', 'approval', 'written', 'completion', 'cgpa', 'gpa', 'udgpa',
  'enrolment', 'enrollment', 'enrolled', 'admission', 'acceptance', 'accepted', 'registration',
  'readmission', 're-admission', 'restricted', 'reserved', 'graduate', 'let', 'letn', 'mdt', 'ielts', 'lpi', 'leap',
  'score', 'high-school', 'secondary', 'formal', 'declaration', 'co-op',
  'first-year', 'second-year', 'third-year', 'fourth-year', '1st', '2nd', '3rd', '4th', 'third', 'fourth', 'second',
  '2nd-year', '3rd-year', '4th-year',
]);

/** Fillers skipped when looking for the start of a requirement ("a minimum of 45 units"). */
const LEAD_FILLER = new Set(['a', 'an', 'the', 'have', 'has', 'must', 'at', 'least', 'minimum', 'of', 'sfu', 'normally', 'successful', 'also']);

/** Whether tokens from `index` begin a requirement of their own (used to end the previous phrase). */
export function startsRequirement(tokens: Token[], index: number): boolean {
  let i = index;
  while (tokens[i]?.kind === 'word' && LEAD_FILLER.has(tokens[i]!.value)) i += 1;
  const token = tokens[i];
  if (!token) return false;
  if (token.kind !== 'word') return token.kind !== 'punct' || token.value === '(';
  if (START_WORDS.has(token.value) || /^\d/.test(token.value)) return true;
  return startsHighSchoolCourse(tokens, i);
}

/** "Principles of Mathematics 12", "BC English 12": capitalised words ending in 11 or 12. */
function startsHighSchoolCourse(tokens: Token[], index: number): boolean {
  for (let i = index; i < index + 6; i += 1) {
    const token = tokens[i];
    if (!token) return false;
    if (token.kind === 'number') return /^1[12]$/.test(token.value) && i > index;
    if (token.kind !== 'word') return false;
    if (!/^[A-Z]/.test(token.text) && token.value !== 'of') return false;
  }
  return false;
}

/** Words too common in course text to tell courses apart. */
const STOP_WORDS = new Set(['a', 'an', 'and', 'are', 'as', 'at', 'be', 'by', 'for', 'from', 'in', 'into', 'is', 'it', 'of', 'on', 'or', 'the', 'this', 'to', 'with']);

const POSSESSIVE = /(?<=\p{L})['’]s\b/gu;
/** Language names whose symbols the word pattern would drop ("C++" is not the letter c). */
const SYMBOL_NAMES: [RegExp, string][] = [
  [/\bc\+\+/g, ' cpp '],
  [/\bc#/g, ' csharp '],
  [/\bf#/g, ' fsharp '],
];

/**
 * Lower-cased words of a text, stop words out. Letters and digits stay together ("cmpt225", "3d"),
 * everything else separates ("CMPT-225" → cmpt, 225), so a course code typed loosely still meets the
 * code's own terms.
 */
export function wordsOf(text: string): string[] {
  const words: string[] = [];
  // A possessive is its word ("Women's Studies" is women, studies), never a word "s".
  let lower = text.toLowerCase().replace(POSSESSIVE, '');
  if (lower.includes('+') || lower.includes('#')) for (const [symbol, name] of SYMBOL_NAMES) lower = lower.replace(symbol, name);
  for (const match of lower.matchAll(/[\p{L}\p{N}]+/gu)) {
    const word = match[0];
    if (!STOP_WORDS.has(word)) words.push(word);
  }
  return words;
}

/**
 * The index term of a word: its singular ("databases" → "database", "studies" → "study"), so a query
 * in either number meets titles in either with one posting list. Rough on purpose: it only has to be
 * the same on both sides ("physics" → "physic" wherever it is read). Codes and numbers stay as they are.
 */
export function termOf(word: string): string {
  if (word.length < 4 || /\d/.test(word)) return word;
  if (word.endsWith('ies')) return `${word.slice(0, -3)}y`;
  if (/(sses|xes|ches|shes)$/.test(word)) return word.slice(0, -2);
  if (word.endsWith('s') && !/(ss|us|is|ys)$/.test(word)) return word.slice(0, -1);
  return word;
}

/** The index terms of a text: termOf of each word, a detached prefix joined to its word ("Pre-Calculus" → precalculus, as "Precalculus" is). */
export function termsOf(text: string): string[] {
  return joinPrefixes(wordsOf(text)).map(termOf);
}

/** Prefixes written apart that make another word ("pre-calculus" is not calculus, "non-profit" not profit). */
const PREFIXES = new Set(['pre', 'post', 'non']);

export function joinPrefixes(words: string[]): string[] {
  if (!words.some((word) => PREFIXES.has(word))) return words;
  const joined: string[] = [];
  for (let i = 0; i < words.length; i++) {
    const next = words[i + 1];
    if (PREFIXES.has(words[i]!) && next !== undefined && !/\d/.test(next)) joined.push(`${words[i]}${words[++i]}`);
    else joined.push(words[i]!);
  }
  return joined;
}

/** The terms a course code contributes: subject, number and both run together ("cmpt", "225", "cmpt225"). */
export function codeTerms(subject: string, number: string): string[] {
  const s = subject.toLowerCase();
  const n = number.toLowerCase();
  return [...new Set([s, n, `${s}${n}`, ...wordsOf(n)])];
}

/**
 * Edit distance of two words counting a swap of neighbouring letters as one edit ("statsitics"), or
 * `max + 1` as soon as it must exceed `max`.
 */
export function boundedEditDistance(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  let before: number[] = [];
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    let rowMin = i;
    for (let j = 1; j <= b.length; j++) {
      let value = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) value = Math.min(value, before[j - 2]! + 1);
      current.push(value);
      if (value < rowMin) rowMin = value;
    }
    if (rowMin > max) return max + 1;
    before = previous;
    previous = current;
  }
  return previous[b.length]!;
}

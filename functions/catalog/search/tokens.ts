/** Words too common in course text to tell courses apart. */
const STOP_WORDS = new Set(['a', 'an', 'and', 'are', 'as', 'at', 'be', 'by', 'for', 'from', 'in', 'into', 'is', 'it', 'of', 'on', 'or', 'the', 'this', 'to', 'with']);

/**
 * Lower-cased words of a text, stop words out. Letters and digits stay together ("cmpt225", "3d"),
 * everything else separates ("CMPT-225" → cmpt, 225), so a course code typed loosely still meets the
 * code's own terms.
 */
export function wordsOf(text: string): string[] {
  const words: string[] = [];
  for (const match of text.toLowerCase().matchAll(/[\p{L}\p{N}]+/gu)) {
    const word = match[0];
    if (!STOP_WORDS.has(word)) words.push(word);
  }
  return words;
}

/** The terms a course code contributes: subject, number and both run together ("cmpt", "225", "cmpt225"). */
export function codeTerms(subject: string, number: string): string[] {
  const s = subject.toLowerCase();
  const n = number.toLowerCase();
  return [...new Set([s, n, `${s}${n}`, ...wordsOf(n)])];
}

/** Edit distance of two words, or `max + 1` as soon as it must exceed `max`. */
export function boundedEditDistance(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    let rowMin = i;
    for (let j = 1; j <= b.length; j++) {
      const value = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
      current.push(value);
      if (value < rowMin) rowMin = value;
    }
    if (rowMin > max) return max + 1;
    previous = current;
  }
  return previous[b.length]!;
}

import type { Cursor } from './cursor.js';
import { isLetterGrade } from './tokenizer.js';

/**
 * Grade productions. Postfix: "with a minimum grade of C-", "with a grade of at least B",
 * "with a "B" or higher", '"C-" or higher'. Prefix: 'A minimum "C" grade in', 'An "S" grade in',
 * "a minimum 70% in", UBC "A score of 68% or higher in".
 */

/** SFU grade points, for "both with a minimum grade of 3.0". */
const GRADE_POINTS: Record<string, string> = {
  '4.33': 'A+', '4.0': 'A', '4.00': 'A', '3.67': 'A-', '3.33': 'B+', '3.0': 'B', '3.00': 'B',
  '2.67': 'B-', '2.33': 'C+', '2.0': 'C', '2.00': 'C', '1.67': 'C-', '1.0': 'D', '1.00': 'D',
};

/** A grade value: quoted ("C-"), a bare upper-case letter grade (C-) or a percentage (64%). */
function readGradeValue(c: Cursor, allowBare: boolean): string | undefined {
  const token = c.peek();
  if (!token) return undefined;
  const points = allowBare && token.kind === 'number' ? GRADE_POINTS[token.value] : undefined;
  if (points) {
    c.next();
    return points;
  }
  const bare = allowBare && token.kind === 'word' && isLetterGrade(token.text);
  if (token.kind === 'grade' || token.kind === 'percent' || bare) {
    c.next();
    return token.kind === 'word' ? token.text : token.value;
  }
  return undefined;
}

function acceptOrHigher(c: Cursor): boolean {
  return c.accept('or', 'higher') || c.accept('or', 'better') || c.accept('or', 'above');
}

export function readPostfixGrade(c: Cursor): string | undefined {
  const start = c.pos;
  const hadWith = c.accept('with');
  if (hadWith && c.at('a', 'strong')) return fail(c, start);
  if (!c.accept('a')) c.accept('an');
  let grade: string | undefined;
  let keyword = true;
  if (c.accept('minimum', 'grade', 'of') || c.accept('grades', 'of', 'at', 'least')) {
    grade = readGradeValue(c, true);
  } else if (c.accept('minimum', 'of')) {
    if (!c.accept('a')) c.accept('an');
    grade = readGradeValue(c, true);
    c.accept('grade');
  } else if (c.accept('grade', 'of')) {
    c.accept('at', 'least');
    grade = readGradeValue(c, true);
  } else if (c.accept('at', 'least')) {
    if (!c.accept('a')) c.accept('an');
    grade = readGradeValue(c, true);
  } else if (c.accept('minimum')) {
    grade = readGradeValue(c, false);
    c.accept('grade');
  } else {
    keyword = false;
    grade = readGradeValue(c, false);
    c.accept('grade');
  }
  const higher = acceptOrHigher(c);
  // Without "with", only '"C-" or higher' is unambiguous enough to read as a grade; with it, a
  // keyword, "or higher" or a quoted grade ('with an "A"') is needed.
  const quoted = c.tokens[c.pos - 1]?.kind === 'grade' || c.tokens[c.pos - 1]?.kind === 'percent';
  if (!grade || (!keyword && !higher && !quoted) || (!hadWith && !higher)) return fail(c, start);
  return grade;
}

export function readPrefixGrade(c: Cursor): string | undefined {
  const start = c.pos;
  if (!c.accept('a')) c.accept('an');
  let grade: string | undefined;
  if (c.accept('minimum', 'grade', 'of')) {
    grade = readGradeValue(c, true);
  } else if (c.accept('score') || c.accept('grade')) {
    if (c.accept('of')) {
      grade = c.peek()?.kind === 'percent' ? c.next().value : undefined;
      acceptOrHigher(c);
    } else if (c.accept('more', 'than') || c.accept('greater', 'than')) {
      // "more than 85%" is read as a minimum of 85%: UBC uses both phrasings for the same rule.
      grade = c.peek()?.kind === 'percent' ? c.next().value : undefined;
    }
  } else {
    c.accept('minimum');
    c.accept('of');
    if (!c.accept('a')) c.accept('an');
    const token = c.peek();
    grade = token?.kind === 'grade' || token?.kind === 'percent' ? c.next().value : undefined;
    if (!c.accept('grade')) c.accept('standing');
  }
  if (!grade || !(c.accept('in') || c.accept('for'))) return fail(c, start);
  c.accept(':');
  if (c.done()) return fail(c, start);
  return grade;
}

/** Whether a prefix grade starts here, without consuming it. */
export function prefixGradeAhead(c: Cursor, offset = 0): boolean {
  const saved = c.pos;
  c.pos += offset;
  const found = readPrefixGrade(c) !== undefined;
  c.pos = saved;
  return found;
}

function fail(c: Cursor, start: number): undefined {
  c.pos = start;
  return undefined;
}

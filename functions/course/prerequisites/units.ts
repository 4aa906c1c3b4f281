import { CANONICAL_SUBJECT_SOURCE } from '../../catalog/course-ref.js';
import { classifyPhrase, startsRequirement } from './conditions.js';
import type { Cursor } from './cursor.js';
import { prefixGradeAhead, readPostfixGrade, readPrefixGrade } from './grade-phrases.js';
import type { Grammar, SeqOptions } from './grammar.js';
import { allOf, anyOf, applyGrade, courseNodes, markConcurrent, markEquivalent } from './nodes.js';
import type { Sep } from './sequence.js';
import type { RequirementNode } from './tree.js';

/** "CPSC courses", "ED-D courses": a subject named as a whole. */
const SUBJECT_COURSES = new RegExp(String.raw`^(${CANONICAL_SUBJECT_SOURCE}) courses\b`);

/** Units (the operands of a sequence) and the postfixes that modify the unit just read. */

/** Leading words that carry no requirement ("Students must have completed …"). */
const FILLER = new Set(['students', 'student', 'must', 'have', 'has', 'complete', 'requires', 'require', 'also', 'normally']);

const LIST_WORDS = ['one', 'two', 'three', 'four', 'any', 'all'];

/** Words that end a condition's trailing text after a parenthesis. */
const TRAILING_STOP = new Set(['and', 'or', 'with', 'may', 'can', 'including', 'plus', 'is', 'are']);

const CONCURRENT_PREFIXES = [
  ['a', 'corequisite', 'of'],
  ['corequisite', 'of'],
  ['previous', 'or', 'concurrent', 'registration', 'in'],
  ['concurrent', 'registration', 'in'],
  ['concurrent', 'enrolment', 'in'],
  ['concurrent', 'enrollment', 'in'],
];

/** After these words a course belongs to the phrase ("six credits of BIOL beyond BIOL 111"). */
const ABSORBING = new Set(['beyond', 'than', 'except', 'excluding', 'not']);

export function parseUnit(g: Grammar, opts: SeqOptions): RequirementNode {
  const c = g.c;
  const start = c.pos;
  while ((FILLER.has(c.peek()?.value ?? '') || c.at(',')) && c.peek(1)) c.next();
  const grade = readPrefixGrade(c);
  if (grade) {
    const inner = g.sequence({ nested: true, stopAtPrefix: true, colonAll: opts.colonAll, stopAtComma: opts.afterComma });
    applyGrade(inner, grade);
    return inner;
  }
  const token = c.peek();
  if (!token) return start === c.pos ? allOf([]) : { type: 'unparsed', text: c.textOf(start) };
  if (token.kind === 'label') return g.labelled(opts);
  if (c.accept('(')) {
    const inner = g.segments({ nested: true });
    c.accept(')');
    return inner;
  }
  if (c.accept('either')) return c.peek()?.kind === 'label' ? g.labelled(opts) : parseUnit(g, opts);
  if (c.accept('both', 'of')) return g.list('both', opts);
  if (c.at('both') && c.peek(1)) {
    c.next();
    return parseUnit(g, opts);
  }
  if (c.at('any') && ['two', 'three', 'four'].includes(c.peek(1)?.value ?? '') && c.peek(2)?.value === 'of') c.next();
  const least = c.at('at', 'least') ? 2 : 0;
  const listWord = LIST_WORDS.find((word) => c.at(...(least ? ['at', 'least'] : []), word, 'of'));
  if (listWord) {
    c.pos += least + 2;
    return g.list(listWord, opts);
  }
  const fromList = creditsFrom(g, opts);
  if (fromList) return fromList;
  const concurrentPrefix =
    CONCURRENT_PREFIXES.find((words) => c.at(...words)) ??
    [['enrollment', 'in'], ['enrolment', 'in']].find((words) => c.at(...words) && c.courseAt(2));
  if (concurrentPrefix) return concurrentUnit(g, opts, concurrentPrefix.length);
  const code = c.takeCourse();
  if (code) return { type: 'course', code, institution: c.ctx.institution };
  if (token.kind === 'hs') {
    c.next();
    return { type: 'condition', text: token.text, category: 'high-school' };
  }
  return phrase(c);
}

/** "3 credits from one of (a) … or (b) …" / "at least 3 credits from COMM 291, …": the choices. */
function creditsFrom(g: Grammar, opts: SeqOptions): RequirementNode | undefined {
  const c = g.c;
  const offset = c.at('at', 'least') ? 2 : 0;
  const unit = c.peek(offset + 1)?.value;
  if (!c.peek(offset) || (unit !== 'credits' && unit !== 'units') || c.peek(offset + 2)?.value !== 'from') return undefined;
  if (!/^(\d+|one|two|three|six)$/.test(c.peek(offset)!.value)) return undefined;
  c.pos += offset + 3;
  if (c.accept('one', 'of')) return g.list('one', opts);
  return g.sequence({ nested: true, list: 'any' });
}

function concurrentUnit(g: Grammar, opts: SeqOptions, prefixLength: number): RequirementNode {
  const c = g.c;
  const start = c.pos;
  c.pos += prefixLength;
  let inner = parseUnit(g, opts);
  // "a corequisite of either CHEM 313 or CHEM 330": the prefix covers the whole choice.
  while (c.at('or') && c.courseAt(1)) {
    c.next();
    inner = anyOf([inner, parseUnit(g, opts)]);
  }
  if (markConcurrent(inner) === 0 && inner.type === 'condition') {
    return { ...inner, text: `${c.textOf(start, start + prefixLength)} ${inner.text}` };
  }
  return inner;
}

/** A run of words up to the next connector that starts a new requirement, typed by keyword. */
function phrase(c: Cursor): RequirementNode {
  const start = c.pos;
  while (!c.done()) {
    const token = c.peek()!;
    if (c.pos > start && phraseEnds(c, start)) break;
    if (['(', ')', ';'].includes(token.value) || token.kind === 'label') break;
    if (c.courseAt() && !ABSORBING.has(c.peek(-1)?.value ?? '') && !/\bresults for$/i.test(c.textOf(start))) break;
    if (token.kind === 'hs' && c.pos > start) break;
    c.next();
  }
  if (c.pos === start) c.next();
  const text = c.textOf(start);
  const classified = classifyPhrase(text);
  if (classified) return { type: 'condition', text, ...classified };
  // "successful completion of (a) …", "advanced credit for MATH 100": lead-ins, not requirements.
  if (/^(?:successful(?:ly)? )?(?:completion of|completed|complete)$|^(?:advanced |transfer )?credit for$|^formerly$|^\w+ requirements?$/i.test(text)) return allOf([]);
  // "PSYC 201W, but prior completion recommended": advice inside a requirement sentence.
  if (/recommend/i.test(text)) {
    c.ctx.recommended.push(text);
    return allOf([]);
  }
  return { type: 'unparsed', text };
}

function phraseEnds(c: Cursor, start: number): boolean {
  // A bare "CGPA" before "and UDGPA over 3.0" is not complete yet.
  const known = () => {
    const classified = classifyPhrase(c.textOf(start));
    return !!classified && !(classified.category === 'gpa' && classified.value === undefined);
  };
  const ends = [['including'], ['plus'], [',', 'including'], [',', 'plus'], ['with', 'a', 'strong'], ['may', 'be', 'taken']];
  if (ends.some((values) => c.at(...values))) return true;
  if ((c.at('or', 'equivalent') || c.at(',', 'or', 'equivalent')) && known()) return true;
  if (c.at('with')) {
    const saved = c.pos;
    const grade = readPostfixGrade(c);
    c.pos = saved;
    return !!grade || (startsRequirement(c.tokens, c.pos + 1) && known());
  }
  const length = c.at(',', 'and') || c.at(',', 'or') || c.at('or', ',') ? 2 : c.at(',') || c.at('and') || c.at('or') ? 1 : 0;
  if (!length) return false;
  const after = c.peek(length);
  if (!after || after.kind === 'label') return true;
  if (['one', 'two', 'all', 'any'].includes(after.value) && c.peek(length + 1)?.value === 'of') return true;
  const starts = startsRequirement(c.tokens, c.pos + length) || !!c.courseAt(length) || prefixGradeAhead(c, length);
  return starts && known();
}

export function postfixes(g: Grammar, units: RequirementNode[], seps: Sep[], inList = false): void {
  const c = g.c;
  for (;;) {
    const last = units.length - 1;
    if (c.at('(')) {
      parenPostfix(g, units);
      // "the Language Proficiency Index (LPI) test": the phrase goes on after its aside.
      const unit = units[last]!;
      while (unit.type === 'condition' && c.peek()?.kind === 'word' && !TRAILING_STOP.has(c.peek()!.value)) {
        unit.text = `${unit.text} ${c.next().text}`;
      }
      continue;
    }
    const grade = readPostfixGrade(c);
    if (grade) {
      // "CHEM 110 or 111 with a minimum grade of C-": the grade covers the whole "or" chain, and
      // at the end of an explicit list ("one of A, B, C with a grade of at least A") the whole list.
      let first = inList ? 0 : last;
      while (first > 0 && seps[first - 1] === 'or') first -= 1;
      units.slice(first).forEach((unit) => applyGrade(unit, grade));
      continue;
    }
    if (c.accept(',', 'or', 'equivalent') || c.accept(',', 'or', 'equivalents')) {
      // "English Studies 12, Literary Studies 12, or equivalent": the commas were an OR list.
      let first = last;
      while (first > 0 && seps[first - 1] === ',') seps[(first -= 1)] = ',or';
      units.slice(first).forEach(markEquivalent);
      continue;
    }
    if (c.accept('or', 'equivalent') || c.accept('or', 'equivalents')) {
      markEquivalent(units[last]!);
      continue;
    }
    if (c.accept('may', 'be', 'taken') || c.accept('can', 'be', 'taken')) {
      if (!c.accept('concurrently')) c.accept('as', 'a', 'corequisite');
      markConcurrent(units[last]!);
      continue;
    }
    if (c.at('with', 'a', 'strong') || c.at('with', 'strong')) {
      const start = c.pos;
      while (!c.done() && !c.at(')') && !c.at(';')) c.next();
      c.ctx.recommended.push(c.textOf(start));
      continue;
    }
    return;
  }
}

function closingParen(c: Cursor, open: number): number {
  let depth = 0;
  for (let i = open; i < c.end; i += 1) {
    const value = c.tokens[i]!.value;
    if (value === '(') depth += 1;
    if (value === ')' && --depth === 0) return i;
  }
  return c.end;
}

/** "(or PHYS 102 …)", "(or equivalent)", "(may be taken concurrently)", "(CHEM 316, … or NUSC 341)". */
function parenPostfix(g: Grammar, units: RequirementNode[]): void {
  const c = g.c;
  const open = c.pos;
  const close = closingParen(c, open);
  const inner = c.textOf(open + 1, close);
  const last = units.length - 1;
  const outerEnd = c.end;
  c.end = close;
  c.pos = open + 1;
  try {
    if (c.accept('or')) {
      if (c.accept('equivalent') || c.accept('equivalents')) {
        markEquivalent(units[last]!);
        while (!c.done() && !c.courseAt() && !c.at('any') && !c.at('one')) c.next();
      }
      if (!c.done()) units[last] = anyOf([units[last]!, g.segments({ nested: true })]);
    } else if (/concurren/i.test(inner)) {
      concurrencyParen(c, units, inner);
    } else if (/recommend|prefer/i.test(inner)) {
      c.ctx.recommended.push(inner);
    } else if (c.tokens.slice(open + 1, close).some((token) => token.kind === 'course')) {
      const named = g.segments({ nested: true });
      units[last] = units[last]!.type === 'condition' ? named : anyOf([units[last]!, named]);
    } else if (units[last]!.type === 'condition') {
      const condition = units[last] as { text: string };
      condition.text = `${condition.text} (${inner})`;
    } else {
      c.ctx.notes.push(inner);
    }
  } finally {
    c.end = outerEnd;
    c.pos = Math.min(close + 1, outerEnd);
  }
}

function concurrencyParen(c: Cursor, units: RequirementNode[], inner: string): void {
  const codes: string[] = [];
  while (!c.done()) {
    const code = c.takeCourse();
    if (code) codes.push(code);
    else c.next();
  }
  if (codes.length) {
    c.ctx.concurrent.push(...codes);
    return;
  }
  const subject = SUBJECT_COURSES.exec(inner)?.[1];
  if (subject || /^(all|both|either)\b/i.test(inner)) {
    for (const unit of units) {
      for (const course of courseNodes(unit)) if (!subject || course.code.startsWith(`${subject} `)) course.concurrent = true;
    }
    return;
  }
  markConcurrent(units[units.length - 1]!);
}

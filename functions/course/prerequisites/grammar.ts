import { startsRequirement } from './conditions.js';
import type { Cursor } from './cursor.js';
import { prefixGradeAhead, readPostfixGrade, readPrefixGrade } from './grade-phrases.js';
import { anyOf, applyGrade } from './nodes.js';
import { combineSegments, type SegmentSep } from './segments.js';
import { buildSequence, type ListMode, type Sep } from './sequence.js';
import type { RequirementNode } from './tree.js';
import { parseUnit, postfixes } from './units.js';

/**
 * Recursive-descent grammar over one sentence:
 *   segments := sequence (";" ["and"|"or"] sequence)*
 *   sequence := unit postfix* (sep unit postfix* | qualifier)*
 *   unit     := prefix-grade sequence | "(" segments ")" | list | labelled | course | phrase
 *   list     := ("one"|"two"|"all"|"any"|...) "of" ["the following"] [":"] items
 *   labelled := "(a)" sequence ([","|";"] ["or"] "(b)" sequence)*
 */

export interface SeqOptions {
  /** Inside a list, paren or prefix grade: "all with …" qualifiers belong to the outer sentence. */
  nested?: boolean;
  /** Inside 'a minimum "C" grade in …': stop before the next prefix grade. */
  stopAtPrefix?: boolean;
  /** Inside "all of the following:", where ";" separates the list's own items. */
  colonAll?: boolean;
  list?: ListMode;
  count?: number;
  /** The unit follows a comma: a prefix grade's scope then ends at the next comma. */
  afterComma?: boolean;
  stopAtComma?: boolean;
}

const COUNT_WORDS: Record<string, number> = { one: 1, two: 2, three: 3, four: 4, any: 1 };
const SCOPE_WORDS = ['all', 'both', 'each'];

export class Grammar {
  constructor(readonly c: Cursor) {}

  segments(opts: SeqOptions): RequirementNode {
    const parts: RequirementNode[] = [];
    const seps: SegmentSep[] = [];
    const graded: boolean[] = [];
    let pending: SegmentSep = ';';
    let carried: string | undefined;
    for (;;) {
      const scoped = this.segmentQualifier();
      if (scoped) {
        parts.forEach((part) => applyGrade(part, scoped));
      } else {
        if (parts.length) seps.push(pending);
        // Langara: 'A minimum "C-" grade in BUSM 2200; or PSYC 1115 and 1215' grades both segments.
        const own = opts.nested ? undefined : this.peekPrefixGrade();
        carried = own ?? carried;
        const inherits = !own && !opts.nested && !!this.c.courseAt();
        const part = this.sequence(opts);
        if (inherits && carried) applyGrade(part, carried);
        parts.push(part);
        graded.push(!!own || part.type === 'condition');
      }
      // Inside "all of the following:" a "; or …" is an alternative to the whole list.
      if (!this.c.at(';') || (opts.colonAll && this.c.at(';', 'or'))) break;
      this.c.next();
      pending = this.c.accept('or') ? 'or' : this.c.accept('and') ? 'and' : ';';
      if (this.c.done() || this.c.at(')')) break;
    }
    return combineSegments(parts, seps, graded);
  }

  private peekPrefixGrade(): string | undefined {
    const start = this.c.pos;
    const grade = readPrefixGrade(this.c);
    this.c.pos = start;
    return grade;
  }

  /** "; each with a minimum grade of C-" at the start of a segment applies to everything before it. */
  private segmentQualifier(): string | undefined {
    const start = this.c.pos;
    if (!SCOPE_WORDS.some((word) => this.c.accept(word))) return undefined;
    const grade = this.c.at('with') ? readPostfixGrade(this.c) : undefined;
    if (!grade) this.c.pos = start;
    return grade;
  }

  sequence(opts: SeqOptions): RequirementNode {
    const units: RequirementNode[] = [];
    const seps: Sep[] = [];
    for (;;) {
      const afterComma = seps[seps.length - 1]?.startsWith(',') ?? false;
      units.push(parseUnit(this, { ...opts, afterComma }));
      postfixes(this, units, seps, !!opts.list);
      for (let grade = this.qualifier(opts); grade; grade = this.qualifier(opts)) {
        const built = buildSequence(units, seps, opts.list, opts.count);
        applyGrade(built, grade);
        units.splice(0, units.length, built);
        seps.length = 0;
      }
      const sep = this.separator(opts);
      if (!sep) break;
      seps.push(sep);
    }
    return buildSequence(units, seps, opts.list, opts.count);
  }

  /** ", with a minimum grade of C-" (innermost list) or ", all with …" (outermost sequence). */
  private qualifier(opts: SeqOptions): string | undefined {
    const start = this.c.pos;
    const comma = this.c.accept(',');
    const scoped = SCOPE_WORDS.some((word) => this.c.accept(word));
    const grade = (comma || scoped) && this.c.at('with') && !(scoped && opts.nested) ? readPostfixGrade(this.c) : undefined;
    if (!grade) this.c.pos = start;
    return grade;
  }

  private separator(opts: SeqOptions): Sep | undefined {
    const c = this.c;
    const candidates: [string[], Sep][] = [
      [[',', 'and', '/', 'or'], ',or'],
      [['and', '/', 'or'], 'or'],
      [['or', ','], 'or'],
      [['/'], 'or'],
      [[',', 'and'], ',and'],
      [[',', 'or'], ',or'],
      [[',', 'plus'], 'and'],
      [[',', 'including'], 'and'],
      [[','], ','],
      [['and'], 'and'],
      [['or'], 'or'],
      [['plus'], 'and'],
      [['including'], 'and'],
    ];
    const match = candidates.find(([values]) => c.at(...values));
    if (!match) return this.implicitAnd(opts);
    const [values, sep] = match;
    const after = c.peek(values.length);
    if (!after || after.kind === 'label' || after.value === ')' || after.value === ';') return undefined;
    if (SCOPE_WORDS.includes(after.value) && c.peek(values.length + 1)?.value === 'with') return undefined;
    if (after.value === 'with' && values.length === 1) return undefined;
    if (opts.stopAtPrefix && prefixGradeAhead(c, values.length)) return undefined;
    if (opts.stopAtComma && values[0] === ',') return undefined;
    if (opts.list === 'any' && (sep === ',and' || (sep === 'and' && !this.itemAnd()))) return undefined;
    c.pos += values.length;
    return sep;
  }

  /** In "one of MATH 1171, 1173 and 1183, or 1175" the "and" joins an item only when the list goes on. */
  private itemAnd(): boolean {
    return !!this.c.courseAt(1) && (this.c.peek(2)?.value === ',' || this.c.peek(2)?.value === 'or');
  }

  /** Adjacent requirements with no connector ("CMPT 102 for students in …") are both required. */
  private implicitAnd(opts: SeqOptions): Sep | undefined {
    const c = this.c;
    const next = c.peek();
    if (!next || opts.list || next.kind === 'punct') return undefined;
    if (next.kind === 'label') return c.peek(-1)?.kind === 'word' ? 'and' : undefined;
    if (next.value === 'with' && startsRequirement(c.tokens, c.pos + 1)) {
      c.next();
      return 'and';
    }
    return next.kind === 'word' && ['may', 'can', 'is', 'are', 'must'].includes(next.value) ? undefined : 'and';
  }

  /** After "one of" / "two of" / "all of" / "both of". */
  list(word: string, opts: SeqOptions): RequirementNode {
    const c = this.c;
    const kind: ListMode = word === 'all' || word === 'both' ? 'all' : 'any';
    const count = COUNT_WORDS[word];
    const colon = c.accept('the', 'following') || c.accept('following') || c.at(':');
    // "Any two of the following with a minimum "C-" grade: …"
    const grade = colon ? readPostfixGrade(c) : undefined;
    c.accept(':');
    if (grade) {
      const listed = this.list(word, { ...opts, stopAtPrefix: false });
      applyGrade(listed, grade);
      return listed;
    }
    if (c.peek()?.kind === 'label') return this.labelled(opts);
    const inner: SeqOptions = { nested: true, stopAtPrefix: opts.stopAtPrefix };
    if (colon && kind === 'all') return this.segments({ ...inner, colonAll: true });
    if (colon && !opts.colonAll) {
      const items = [this.sequence(inner)];
      while (c.at(';') && !c.at(';', 'and') && !SCOPE_WORDS.some((w) => c.at(';', w, 'with'))) {
        c.next();
        c.accept('or');
        if (c.done()) break;
        items.push(this.sequence(inner));
      }
      const only = items[0]!;
      if (items.length === 1 && only.type === 'any' && !only.count) return anyOf(only.children, count);
      return anyOf(items, count);
    }
    return this.sequence({ ...inner, list: kind, count });
  }

  /** UBC's "Either (a) X or (b) Y; or (c) Z". */
  labelled(opts: SeqOptions): RequirementNode {
    const c = this.c;
    const alternatives: RequirementNode[] = [];
    while (c.peek()?.kind === 'label') {
      c.next();
      alternatives.push(this.sequence({ nested: true, stopAtPrefix: opts.stopAtPrefix }));
      const resume = c.pos;
      if (!c.accept(',')) c.accept(';');
      c.accept('or');
      if (c.peek()?.kind !== 'label') {
        c.pos = resume;
        break;
      }
    }
    return anyOf(alternatives);
  }
}

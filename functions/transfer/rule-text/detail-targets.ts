import { institutionId } from '../../catalog/institutions.js';
import { AFTER_DESIGNATION, AREA, COURSE_NUMBER, ELECTIVE_SUBJECTS, NUMBER, SUBJECT, UPPER, bctgCode, codeOf, lex, type Parsed, type Ref, type Token } from './detail-lexer.js';
import type { AlternativeTarget, TransferTarget } from '../rule-model.js';

export interface DetailContext {
  /** BCTG code or slug of the sending institution (default for source courses without one). */
  sender: string;
  /** BCTG code or slug of the receiving institution (default for codes written without one). */
  receiver: string;
  sourceCourse: { subject: string; number: string; credits?: number | null };
  condition?: string | null;
}

export class TargetGrammar {
  protected readonly tokens: Token[];
  protected readonly receiver: string;
  protected readonly targets: TransferTarget[] = [];
  protected last: AlternativeTarget | undefined;
  /** Designation lists that follow a target after commas (", Q/B-Sci, Q"): they may cover a whole bundle, one list per course in order. */
  private readonly commaGroups = new WeakMap<object, string[][]>();

  constructor(protected readonly text: string, protected readonly ctx: DetailContext) {
    this.tokens = lex(text, [bctgCode(ctx.receiver), bctgCode(ctx.sender)]);
    this.receiver = institutionId(ctx.receiver);
  }

  // ---- token helpers
  protected word(i: number) { const t = this.tokens[i]; return t?.kind === 'word' ? t.text : undefined; }
  protected lower(i: number) { return (this.tokens[i]?.text ?? '').toLowerCase().replaceAll('\u2019', "'"); }
  protected isWords(i: number, ...words: string[]) { return words.every((w, k) => this.tokens[i + k]?.kind === 'word' && this.lower(i + k) === w); }
  protected isPunct(i: number, chars: string) { const t = this.tokens[i]; return t?.kind === 'punct' && chars.includes(t.text); }
  protected slice(from: number, to: number) { return to > from ? this.text.slice(this.tokens[from]!.start, this.tokens[to - 1]!.end) : ''; }
  protected endsSentence(j: number) {
    const next = this.tokens[j + 1];
    if (!next) return true;
    if (!/\s/.test(this.text[this.tokens[j]!.end] ?? '')) return next.kind === 'punct' && ',"'.includes(next.text); // "B.Com"
    if (next.kind === 'punct') return ',"'.includes(next.text);
    const abbreviation = this.word(j - 1)?.length === 1 && this.isPunct(j - 2, '.'); // B.F.A. or B.A.
    return /^[A-Z]/.test(next.text) && !abbreviation;
  }
  protected sentenceEnd(i: number, atComma = false) {
    for (let j = i; j < this.tokens.length; j++) {
      if (this.isPunct(j, atComma ? ';,' : ';')) return j;
      if (this.isPunct(j, '.') && this.endsSentence(j)) return j + 1;
    }
    return this.tokens.length;
  }

  // ---- course references and targets
  protected refAt(i: number): Ref | undefined {
    const [a = '', b = ''] = [this.word(i), this.word(i + 1)];
    let inst: string | undefined;
    let j = i;
    const swapped = this.tokens[i + 2]?.kind === 'credits' && NUMBER.test(this.word(i + 3) ?? ''); // "UVIC GEOG (1.5) 1XX"
    // "EC ENGL 1 lev (3)": a one-digit level is a number only before "lev".
    const number = (k: number) => NUMBER.test(this.word(k) ?? '') || (/^\d$/.test(this.word(k) ?? '') && this.isWords(k + 1, 'lev'));
    if (UPPER.test(a) && SUBJECT.test(b) && (number(i + 2) || swapped)) [inst, j] = [a, i + 1];
    else if (!(SUBJECT.test(a) && number(i + 1))) return undefined;
    const subject = this.word(j)!.replace(/_[A-Z]$/, '');
    let credits = this.tokens[j + 1]?.credits;
    j += credits === undefined ? 1 : 2;
    const num = this.word(j)!;
    const lev = /^\d(?:00)?$/.test(num) && this.isWords(j + 1, 'lev');
    j += lev ? 2 : 1;
    if (credits === undefined && this.tokens[j]?.kind === 'credits') credits = this.tokens[j++]!.credits;
    return { inst, subject, num, lev, credits, from: i, to: j };
  }

  protected target(ref: Ref, from = ref.from, to = ref.to): TransferTarget {
    const base = { institution: institutionId(ref.inst ?? this.ctx.receiver), subject: ref.subject, credits: ref.credits ?? null, text: this.slice(from, to) };
    if (COURSE_NUMBER.test(ref.num) && !ref.lev) return { kind: 'course', ...base, number: ref.num, code: codeOf(ref.subject, ref.num) };
    const level = /^\d/.test(ref.num) ? Number(ref.num[0]) : undefined;
    const kind = ELECTIVE_SUBJECTS.has(ref.subject) ? 'elective' : 'generic';
    return { kind, ...base, pattern: ref.lev ? `${ref.num} lev` : ref.num, ...(level !== undefined ? { level } : {}) };
  }

  /** `Q`, `W/B-Hum`, `Q/B-Soc/Sci`, `B - Soc/Sci`, `Q-B-Sci`, optionally scoped: "for both", "for PHIL 100 only". */
  protected designationsAt(i: number): Parsed<{ list: string[]; scope?: 'all' | string }> {
    const atom = (j: number, afterB: boolean): [string, number] | undefined => {
      const w = this.lower(j);
      if ((w === 'q' || w === 'w') && this.word(j)) return [w.toUpperCase(), j + 1];
      if (w === 'b' && this.isPunct(j + 1, '-') && AREA[this.lower(j + 2)]) return [AREA[this.lower(j + 2)]!, j + 3];
      return afterB && AREA[w] ? [AREA[w]!, j + 1] : undefined;
    };
    let next = atom(i, false);
    if (!next) return undefined;
    const list: string[] = [];
    let j = i;
    for (; next; next = this.isPunct(j, '/-') ? atom(j + 1, list.at(-1)!.startsWith('B-')) : undefined) {
      list.push(next[0]);
      j = next[1];
    }
    let scope: 'all' | string | undefined;
    const only = this.isWords(j, 'for') ? this.refAt(j + 1) : undefined;
    if (this.isWords(j, 'for', 'both')) [scope, j] = ['all', j + 2];
    else if (only && this.isWords(only.to, 'only')) [scope, j] = [codeOf(only.subject, only.num), only.to + 1];
    const t = this.tokens[j];
    if (t && !(t.kind === 'punct' ? ',.;&)"'.includes(t.text) : AFTER_DESIGNATION.has(this.lower(j)))) return undefined;
    return { value: { list, scope }, to: j };
  }

  protected designate(target: AlternativeTarget, list: string[]) {
    if (list.length) target.designations = [...new Set([...(target.designations ?? []), ...list])];
  }

  /** One awarded course: `[Exemption] REF (n) [,|-] [designations] [Exemption] [if …|for …]`. */
  private single(i: number): Parsed<TransferTarget> {
    const prefixed = /^exempt(ion)?$/.test(this.lower(i));
    const ref = this.refAt(prefixed ? i + 1 : i);
    if (!ref || ref.credits === undefined || (prefixed && ref.credits !== 0)) return undefined;
    // A course of another institution (the sender's, in a trailing sentence) is never something this receiver awards.
    if (ref.inst !== undefined && institutionId(ref.inst) !== this.receiver) return undefined;
    let j = ref.to;
    const designations: string[] = [];
    let exempt = prefixed;
    let note: string | undefined;
    const groups: string[][] = [];
    for (;;) {
      const sep = this.isPunct(j, ',-') ? 1 : 0;
      const d = this.designationsAt(j + sep);
      const comma = this.isPunct(j, ',') ? 1 : 0;
      if (d?.value.scope) break; // "B-Hum for PHIL 100 only" is a clause about several targets
      if (d) {
        if (comma && designations.length === groups.flat().length) groups.push(d.value.list);
        designations.push(...d.value.list);
        j = d.to;
      } else if (ref.credits === 0 && /^exempt(ion)?$/.test(this.lower(j + comma)) && !this.refAt(j + comma + 1)) [j, exempt] = [j + comma + 1, true];
      else if (this.isWords(j, 'if') || this.isWords(j, 'for')) {
        const end = this.sentenceEnd(j, true);
        [note, j] = [this.slice(j, end), end];
        break;
      } else break;
    }
    const target = this.target(ref, i, j);
    if (designations.length) this.designate(target, designations);
    if (groups.length) this.commaGroups.set(target, groups);
    if (exempt && target.kind === 'course') target.kind = 'exemption';
    return { value: note ? { ...target, note } : target, to: j };
  }

  /** `single (or single)*`: "or" binds tighter than "&"; a trailing designation covers every alternative. */
  private item(i: number): Parsed<TransferTarget> {
    const first = this.single(i);
    if (!first) return undefined;
    let j = first.to;
    const alternatives: AlternativeTarget[][] = [];
    for (let alt = this.isWords(j, 'or') ? this.single(j + 1) : undefined; alt; alt = this.isWords(j, 'or') ? this.single(j + 1) : undefined) {
      alternatives.push([alt.value]);
      j = alt.to;
    }
    const members = [first.value, ...alternatives.map((set) => set[0]!)];
    const shared = members.at(-1)!.designations;
    if (alternatives.length && shared && members.slice(0, -1).every((m) => !m.designations)) members.forEach((m) => this.designate(m, shared));
    this.last = members.at(-1);
    return { value: alternatives.length ? { ...first.value, alternatives } : first.value, to: j };
  }

  /** Several items awarded together, joined by "&", ", &" or a bare comma before another course. */
  protected award(i: number, parse: (k: number) => Parsed<TransferTarget> = (k) => this.item(k)): Parsed<TransferTarget[]> {
    const items: TransferTarget[] = [];
    let j = i;
    for (let next = parse(i); next; ) {
      items.push(next.value);
      j = next.to;
      const amp = this.isPunct(j, '&') ? 1 : this.isPunct(j, ',') && this.isPunct(j + 1, '&') ? 2 : 0;
      const k = amp ? j + amp : this.isPunct(j, ',') && this.refAt(j + 1)?.credits !== undefined ? j + 1 : -1;
      next = k >= 0 ? parse(k) : undefined;
    }
    const endsAward = !this.isPunct(j, '&') && !(this.isPunct(j, ',') && this.isPunct(j + 1, '&'));
    // "SFU PHYS 121 (3) & SFU PHYS 133 (1), Q/B-Sci, Q": one designation list per course, in order.
    const last = items.at(-1)!;
    if (items.length > 1 && endsAward && this.commaGroups.has(last) && items.slice(0, -1).every((item) => !item.designations)) {
      const groups = [...this.commaGroups.get(last)!];
      let k = j;
      for (let d = this.isPunct(k, ',') ? this.designationsAt(k + 1) : undefined; d && !d.value.scope; d = this.isPunct(k, ',') ? this.designationsAt(k + 1) : undefined) {
        groups.push(d.value.list);
        k = d.to;
      }
      if (groups.length === items.length) {
        items.forEach((item, index) => (item.designations = [...groups[index]!]));
        return { value: items, to: k };
      }
    }
    // "SFU PHYS 121 (3) & SFU PHYS 133 (1), Q/B-Sci": a designation closing a bundle of specific courses of one
    // subject, none with its own, covers them all ("CMPT 125 (3) & CMPT 1XX (3), Q" keeps Q on the generic credit).
    const shared = items.length > 1 && endsAward ? items.at(-1)!.designations : undefined;
    const oneSubjectCourses = items.every((item) => item.kind === 'course' && (item.credits ?? 0) > 0 && item.subject === items[0]!.subject);
    if (shared && oneSubjectCourses && items.slice(0, -1).every((item) => !item.designations)) items.forEach((item) => this.designate(item, shared));
    return items.length ? { value: items, to: j } : undefined;
  }

  /** `set (or set)*` where each set is an award; used after "or", "Student may request". */
  protected alternativeSets(i: number): Parsed<AlternativeTarget[][]> {
    const sets: AlternativeTarget[][] = [];
    let j = i;
    for (let set = this.award(i, (k) => this.single(k)); set; set = this.isWords(j, 'or') ? this.award(j + 1, (k) => this.single(k)) : undefined) {
      sets.push(set.value);
      j = set.to;
      this.last = set.value.at(-1);
    }
    return sets.length ? { value: sets, to: j } : undefined;
  }

  protected pushTargets(items: TransferTarget[]) {
    for (const item of items) {
      const twin = this.targets.find((t) => t.kind === item.kind && t.institution === item.institution && (t.code ?? `${t.subject} ${t.pattern}`) === (item.code ?? `${item.subject} ${item.pattern}`) && t.credits === item.credits);
      if (twin) this.designate(twin, item.designations ?? []);
      else this.targets.push(item);
      this.last = item.alternatives?.at(-1)?.at(-1) ?? twin ?? item;
    }
  }
}

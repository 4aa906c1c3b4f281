import { institutionId } from '../shared/catalog/institutions.js';
import { COURSE_NUMBER, PRECLUSION_LEADS, STOP, codeOf, type Code, type Parsed } from './detail-lexer.js';
import { isApplicabilityNote, typeCondition } from './conditions.js';
import { TargetGrammar } from './detail-targets.js';
import type { AlternativeTarget, ParsedRule, SourceCourse } from './rule-model.js';

export class DetailParser extends TargetGrammar {
  private readonly alternativeAwards: AlternativeTarget[][] = [];
  private readonly exemptions = new Set<string>();
  private readonly preclusions = new Set<string>();
  private readonly fragments: string[] = [];
  private readonly untyped: string[] = [];
  private condition: { start: number; end: number } | undefined;

  // ---- clauses after the award
  private codeList(i: number): Parsed<Code[]> {
    const codes: Code[] = [];
    let j = i;
    let subject: string | undefined;
    const bare = (k: number) => subject !== undefined && /^\d{3,4}[A-Z]?$/.test(this.word(k) ?? '');
    for (;;) {
      const ref = this.refAt(j);
      if (ref && COURSE_NUMBER.test(ref.num) && !ref.lev) {
        const foreign = ref.inst !== undefined && institutionId(ref.inst) !== this.receiver;
        codes.push({ code: codeOf(ref.subject, ref.num), credits: ref.credits, ref, foreign });
        [subject, j] = [ref.subject, ref.to];
      } else if (bare(j)) codes.push({ code: codeOf(subject!, this.word(j++)!), foreign: false }); // "BIOL_V 111, 121"
      else break;
      const sep = this.isPunct(j, ',&/') || this.isWords(j, 'and') ? 1 : 0;
      if (!sep || !(this.refAt(j + 1) || bare(j + 1))) break;
      j += sep;
    }
    return { value: codes, to: j };
  }

  private markCondition(from: number, to: number) {
    const [start, end] = [this.tokens[from]!.start, this.tokens[to - 1]!.end];
    this.condition = { start: Math.min(start, this.condition?.start ?? start), end: Math.max(end, this.condition?.end ?? end) };
  }

  /** "Exempt UBCV BIOL 111, UBCV BIOL 121", "Exemption VIU ECON 305 (0)", "Exempt from … 111, 121", bare "Exemption". */
  private exemption(i: number): number | undefined {
    if (!/^(exempt|exemption|waive|waives)$/.test(this.lower(i))) return undefined;
    const lead = this.isWords(i + 1, 'credit', 'for') ? 3 : this.isWords(i + 1, 'from') || this.isWords(i + 1, 'for') ? 2 : 1;
    const list = this.codeList(i + lead)!;
    if (!list.value.length) {
      const zero = this.targets.filter((t) => t.kind === 'course' && t.credits === 0);
      if (lead > 1 || !zero.length || !(i + 1 >= this.tokens.length || this.isPunct(i + 1, ',.;'))) return undefined;
      zero.forEach((t) => (t.kind = 'exemption'));
      return i + 1;
    }
    if (this.isWords(list.to, 'or')) return undefined; // "waives A or B": which one is not stated
    const own = list.value.filter((c) => !c.foreign);
    own.forEach((c) => (c.credits === 0 && c.ref ? this.pushTargets([{ ...this.target(c.ref), kind: 'exemption' }]) : this.exemptions.add(c.code)));
    if (own.every((c) => c.credits === 0) && (list.to >= this.tokens.length || this.isPunct(list.to, ',.;&'))) return list.to;
    const end = this.sentenceEnd(i);
    this.markCondition(i, end);
    return end;
  }

  /** "Precludes credit for …", "Excludes UBCO HIST 214/224", "Credit is permitted for only one of A, B or C". */
  private preclusion(i: number): number | undefined {
    const end = this.sentenceEnd(i);
    const lead = PRECLUSION_LEADS.find((words) => this.isWords(i, ...words));
    const phrase = (...words: string[]) => this.tokens.slice(i, end).some((_, k) => this.isWords(i + k, ...words));
    let codes: Code[] = [];
    if (lead) codes = this.codeList(i + lead.length)!.value;
    else if (/^(credit|students)$/.test(this.lower(i)) && (phrase('one', 'of') || phrase('for', 'both'))) {
      for (let k = i; k < end; k++) {
        const list = this.refAt(k) ? this.codeList(k)! : undefined;
        if (list) {
          codes = [...codes, ...list.value];
          k = Math.max(k, list.to - 1);
        }
      }
    } else return undefined;
    const awarded = new Set(this.targets.flatMap((t) => [t.code, ...(t.alternatives ?? []).flat().map((a) => a.code)]));
    // "Only one of A, B or C" precludes the others of an awarded one; when none of them is awarded it precludes nothing.
    const applies = lead !== undefined || codes.some((c) => awarded.has(c.code));
    // In "only one of" lists a code without institution is usually the sender's ("FINA 2150"), so it needs one.
    for (const c of codes) if (applies && !c.foreign && !awarded.has(c.code) && (lead || c.ref?.inst)) this.preclusions.add(c.code);
    this.markCondition(i, end);
    return end;
  }

  /** A short area label ("Visual Arts Studio", "Field C", "Physical A", "*Lab"): a note on the last target. */
  private label(i: number): number | undefined {
    if (!this.isPunct(i - 1, ',;')) return undefined; // mid-prose "Satisfies Lab. Science …" is not a label
    let j = i;
    let words = 0;
    for (; j < this.tokens.length && !(this.isPunct(j, ',;.') || (j > i && this.designationsAt(j))); j++) {
      const t = this.tokens[j]!;
      if (t.kind === 'credits' || (t.kind === 'punct' && !'&-*'.includes(t.text))) return undefined;
      if (t.kind === 'word' && (STOP.has(this.lower(j)) || this.refAt(j) || ++words > 4)) return undefined;
    }
    if (!words || !this.last || (this.isPunct(j, '.') && !this.endsSentence(j))) return undefined;
    this.last.note = [this.last.note, this.slice(i, j)].filter(Boolean).join(', ');
    return j;
  }

  /** Anything else is condition prose, kept verbatim; prose that awards credit is also reported unparsed. */
  private prose(i: number): number {
    const end = Math.max(this.sentenceEnd(i), i + 1);
    this.markCondition(i, end);
    const sentence = this.slice(i, end);
    if (sentence && !typeCondition(sentence, 'rule') && !isApplicabilityNote(sentence)) this.untyped.push(sentence);
    for (let k = i; k < end; k++) {
      const ref = this.refAt(k);
      if (ref?.credits !== undefined && ref.to <= end) {
        this.fragments.push(this.slice(i, end));
        break;
      }
    }
    return end;
  }

  private clause(i: number): number {
    const amp = this.isPunct(i, '&') ? 1 : 0;
    if (amp || this.refAt(i)?.credits !== undefined) {
      const more = this.award(i + amp);
      if (more) {
        this.pushTargets(more.value);
        return more.to;
      }
    }
    let k = this.isWords(i, 'or') ? i + 1 : i;
    if (/^students?$/.test(this.lower(k)) && this.isWords(k + 1, 'may', 'request')) k += this.isWords(k + 3, 'credit', 'for') ? 5 : 3;
    const sets = k > i ? this.alternativeSets(k) : undefined;
    if (sets) {
      if (this.targets.length === 1) this.targets[0]!.alternatives = [...(this.targets[0]!.alternatives ?? []), ...sets.value];
      else this.alternativeAwards.push(...sets.value);
      return this.isWords(sets.to, 'instead') ? sets.to + 1 : sets.to;
    }
    if (this.isWords(i, "student's", 'choice') || this.isWords(i, 'students', 'choice')) {
      const chooser = this.targets.find((t) => t.alternatives) ?? this.last;
      if (chooser) chooser.note = [chooser.note, "Student's choice"].filter(Boolean).join(', ');
      return i + 2;
    }
    const d = this.designationsAt(i);
    if (d) {
      const scoped = this.targets.filter((t) => d.value.scope === 'all' || t.code === d.value.scope);
      (scoped.length && d.value.scope ? scoped : this.last ? [this.last] : []).forEach((t) => this.designate(t, d.value.list));
      return d.to;
    }
    return this.exemption(i) ?? this.preclusion(i) ?? this.label(i) ?? this.prose(i);
  }

  // ---- whole expression
  private sources(i: number, eq: number): Parsed<{ courses: SourceCourse[]; choice?: { count: number; from: string[] } }> {
    let j = i;
    const any = this.isWords(i, 'any') && /^\d$/.test(this.lower(i + 1)) && this.isWords(i + 2, 'of') ? Number(this.lower(i + 1)) : undefined;
    if (any) j += 3;
    const courses: SourceCourse[] = [];
    const seps = new Set<string>();
    let oneOf: number | undefined;
    while (j < eq) {
      if (this.isWords(j, 'one', 'of')) [oneOf, j] = [courses.length, j + 2];
      const ref = this.refAt(j);
      if (!ref || !COURSE_NUMBER.test(ref.num) || ref.to > eq) return undefined;
      courses.push({ institution: institutionId(ref.inst ?? this.ctx.sender), code: codeOf(ref.subject, ref.num), credits: ref.credits ?? null });
      j = ref.to;
      if (j < eq && !['&', 'or', ','].includes(this.lower(j))) return undefined;
      if (j < eq) seps.add(this.lower(j++));
    }
    const codes = courses.map((c) => c.code);
    if (!courses.length || (any === undefined && oneOf === undefined && (seps.has(',') || (seps.has('or') && seps.has('&'))))) return undefined;
    const choice = any ? { count: any, from: codes } : oneOf !== undefined ? { count: 1, from: codes.slice(oneOf) } : seps.has('or') ? { count: 1, from: codes } : undefined;
    return { value: { courses, ...(choice ? { choice } : {}) }, to: eq + 1 };
  }

  private special(kind: 'no-credit' | 'individual-assessment', from: number, to: number): number {
    this.pushTargets([{ kind, institution: this.receiver, credits: null, text: this.slice(from, to) }]);
    return to;
  }

  parse(): ParsedRule {
    const eq = this.tokens.findIndex((t) => t.kind === 'punct' && t.text === '=');
    const src = eq >= 0 ? this.sources(0, eq) : undefined;
    if (eq >= 0 && !src) this.fragments.push(this.slice(0, eq) || '=');
    let i = eq + 1;
    const award = this.isWords(i, 'no', 'credit') || this.isWords(i, 'individual', 'assessment') ? undefined : this.award(i);
    if (this.isWords(i, 'no', 'credit')) i = this.special('no-credit', i, i + 2);
    else if (this.isWords(i, 'individual', 'assessment')) i = this.special('individual-assessment', i, i + 2);
    else if (this.isWords(i, 'credit', 'to', 'be', 'determined')) i = this.special('individual-assessment', i, this.sentenceEnd(i));
    else if (award) {
      this.pushTargets(award.value);
      i = award.to;
    } else {
      const end = Math.max(this.sentenceEnd(i), i + 1);
      const text = this.slice(i, Math.min(end, this.tokens.length)) || this.text;
      this.fragments.push(text);
      this.targets.push({ kind: 'unparsed', credits: null, text });
      i = end;
    }
    while (i < this.tokens.length) i = this.isPunct(i, ',;."') ? i + 1 : this.clause(i);
    this.liftWholeAwardAlternatives();
    return this.result(src?.value);
  }

  /**
   * "A (3) or B (3), & C (1) or D (4)": an alternative of the last item worth the whole award is an
   * alternative to the whole award (D instead of A & C), not to C alone (which would total 7).
   */
  private liftWholeAwardAlternatives() {
    const last = this.targets.at(-1);
    if (this.targets.length < 2 || !last?.alternatives || this.targets.some((t) => t.credits === null)) return;
    const total = this.targets.reduce((s, t) => s + (t.credits ?? 0), 0);
    const worth = (set: AlternativeTarget[]) => set.reduce((s, t) => s + (t.credits ?? Number.NaN), 0);
    const whole = last.alternatives.filter((set) => last.credits !== total && worth(set) === total);
    if (!whole.length) return;
    const rest = last.alternatives.filter((set) => !whole.includes(set));
    if (rest.length) last.alternatives = rest;
    else delete last.alternatives;
    this.alternativeAwards.push(...whole);
  }

  private result(src: { courses: SourceCourse[]; choice?: { count: number; from: string[] } } | undefined): ParsedRule {
    const { subject, number, credits } = this.ctx.sourceCourse;
    const own: SourceCourse = { institution: institutionId(this.ctx.sender), code: codeOf(subject.replace(/_[A-Z]$/, '').toUpperCase(), String(number)), credits: credits ?? null };
    for (const t of this.targets) if (t.kind === 'exemption' && t.code) this.exemptions.add(t.code);
    const awarded = new Set(this.targets.map((t) => t.code));
    const only = (kind: string) => this.targets.length > 0 && this.targets.every((t) => t.kind === kind);
    return {
      sourceCourses: src?.courses ?? [own],
      ...(src?.choice ? { sourceChoice: src.choice } : {}),
      targets: this.targets,
      alternativeAwards: this.alternativeAwards,
      exemptions: [...this.exemptions],
      preclusions: [...this.preclusions].filter((c) => !awarded.has(c)),
      conditionText: this.condition ? this.text.slice(this.condition.start, this.condition.end).trim() : null,
      kind: only('no-credit') ? 'no-credit' : only('individual-assessment') ? 'individual-assessment' : 'credit',
      fullyParsed: this.fragments.length === 0 && this.untyped.length === 0 && this.targets.every((t) => t.kind !== 'unparsed'),
      unparsedFragments: this.fragments,
      untypedConditions: this.untyped,
    };
  }
}

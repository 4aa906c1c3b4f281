import { institutionId } from '../../catalog/institutions.js';
import { COURSE_NUMBER, STOP, codeOf, type Parsed } from './detail-lexer.js';
import { isApplicabilityNote, typeCondition } from './conditions.js';
import { ClauseGrammar } from './detail-clauses.js';
import { PARSER_VERSION, type AlternativeTarget, type ParsedRule, type SourceCourse } from '../rule-model.js';

export class DetailParser extends ClauseGrammar {
  private readonly alternativeAwards: AlternativeTarget[][] = [];
  private readonly exemptions = new Set<string>();
  private readonly preclusions = new Set<string>();
  private readonly fragments: string[] = [];
  private readonly untyped: string[] = [];
  private condition: { start: number; end: number } | undefined;

  // ---- clauses after the award
  private previousCondition: { start: number; end: number } | undefined;

  private markCondition(from: number, to: number) {
    this.previousCondition = this.condition;
    const [start, end] = [this.tokens[from]!.start, this.tokens[to - 1]!.end];
    this.condition = { start: Math.min(start, this.condition?.start ?? start), end: Math.max(end, this.condition?.end ?? end) };
  }

  /**
   * "Exempt UBCV BIOL 111, UBCV BIOL 121", "Exemption VIU ECON 305 (0)", "Exempt from … 111, 121", bare "Exemption", "Waive A & B for
   * Civil Engineering students only" (an exemption under a condition, which keeps it).
   */
  private exemption(i: number): number | undefined {
    const star = this.isPunct(i, '*') ? 1 : 0; // "*Waive TWU HKIN 342"
    if (!/^(exempt|exemption|waive|waives)$/.test(this.lower(i + star))) return undefined;
    const at = i + star;
    const lead = this.isWords(at + 1, 'credit', 'for') ? 3 : this.isWords(at + 1, 'from') || this.isWords(at + 1, 'for') ? 2 : 1;
    const list = this.codeList(at + lead);
    if (!list.value.codes.length) {
      const zero = this.targets.filter((t) => t.kind === 'course' && t.credits === 0);
      if (star || lead > 1 || !zero.length || !(at + 1 >= this.tokens.length || this.isPunct(at + 1, ',.;'))) return undefined;
      zero.forEach((t) => (t.kind = 'exemption'));
      return at + 1;
    }
    const end = this.sentenceEnd(i);
    this.markCondition(i, end);
    // "waives A or B": which one is not stated, so nothing is typed as exempted; the sentence stays in the condition.
    if (list.value.or) return end;
    const own = list.value.codes.filter((c) => !c.foreign);
    const qualifier = this.isWords(list.to, 'for') || this.isWords(list.to, 'if') ? this.slice(list.to, this.sentenceEnd(list.to, true)) : undefined;
    if (qualifier) {
      const targets = own.map((c) => (c.ref ? { ...this.target(c.ref), kind: 'exemption' as const, credits: 0 } : { kind: 'exemption' as const, institution: this.receiver, code: c.code, subject: c.code.split(' ')[0], number: c.code.split(' ')[1], credits: 0, text: c.code }));
      this.conditionalAwards.push({ targets, condition: qualifier.replace(/[.;,]$/, ''), mode: 'exemption' });
      return end;
    }
    own.forEach((c) => (c.credits === 0 && c.ref ? this.pushTargets([{ ...this.target(c.ref), kind: 'exemption' }]) : this.exemptions.add(c.code)));
    if (!star && own.every((c) => c.credits === 0) && (list.to >= this.tokens.length || this.isPunct(list.to, ',.;&'))) {
      this.condition = this.previousCondition;
      return list.to;
    }
    return end;
  }

  /** Sentences that limit credit across a plan: exclusivity, preclusions, caps, repeatable courses. */
  private constraint(i: number): number | undefined {
    const end = this.sentenceEnd(i);
    if (end <= i) return undefined;
    const typed = this.repeatable(i, end) || this.cap(i, end) || this.oneOf(i, end, this.preclusions) || this.precludes(i, end, this.preclusions);
    if (!typed) return undefined;
    this.markCondition(i, end);
    return end;
  }

  /** Another outcome rather than more of the award: an award named for a program, or qualified after "X, if …;". */
  private outcome(i: number, afterSemicolon: boolean): number | undefined {
    const end = this.programAlternative(i) ?? this.qualifiedAlternative(i, afterSemicolon);
    if (end !== undefined) this.markCondition(i, end);
    return end;
  }

  /** Awards under a condition written as prose. */
  private conditional(i: number): number | undefined {
    const end = this.sentenceEnd(i);
    if (end <= i || !this.proseConditionalAward(i, end)) return undefined;
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
    // A waiver names courses with credits without awarding them.
    if (/\bwaive[rsd]?\b|\bexempt/i.test(sentence)) return end;
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
    // After a sentence or a ";", a course with credit starts another outcome or prose, never more of this award.
    const separator = this.tokens[i - 1]?.kind === 'punct' ? this.tokens[i - 1]!.text : '';
    const newSentence = separator === ';' || (separator === '.' && this.endsSentence(i - 1));
    const outcome = amp ? undefined : this.outcome(i, separator === ';');
    if (outcome !== undefined) return outcome;
    if (amp || (this.refAt(i)?.credits !== undefined && !newSentence)) {
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
      (scoped.length && d.value.scope ? scoped : (this.last ? [this.last] : [])).forEach((t) => this.designate(t, d.value.list));
      return d.to;
    }
    return this.exemption(i) ?? this.constraint(i) ?? this.conditional(i) ?? this.label(i) ?? this.prose(i);
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
    const { subject, number } = this.ctx.sourceCourse;
    this.sourceCodes = src?.value.courses.map((c) => c.code) ?? [codeOf(subject.replace(/_[A-Z]$/, '').toUpperCase(), String(number))];
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
      ...this.parsedExtras(awarded),
      parserVersion: PARSER_VERSION,
    };
  }
}

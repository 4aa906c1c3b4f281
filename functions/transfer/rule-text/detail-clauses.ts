import { institutionId } from '../../catalog/institutions.js';
import { COURSE_NUMBER, codeOf, type Code } from './detail-lexer.js';
import { TargetGrammar } from './detail-targets.js';
import type { AlternativeTarget, ConditionalAward, PartialAward, TransferConstraint } from '../rule-model.js';

const NUMBER_WORDS: Record<string, number> = { one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10, twelve: 12 };
const countOf = (word: string) => (/^\d+(?:\.\d+)?$/.test(word) ? Number(word) : NUMBER_WORDS[word]);

/** Sentences that say only one (or "once") of several courses earns credit. */
const ONE_OF = /\bonly (?:one|1)\b|\bone only\b|\bfor one of\b|\b(?:granted|given|awarded) once\b|\bnot\b.*\bboth\b/;
/** Sentence openings that take courses out of reach once this award is given ("Precludes credit for …", "May not take …"). */
const PRECLUDES = /^(?:note:?\s*)?(?:students?\s+(?:with (?:prior )?credit (?:in|for) .+? )?)?(?:(?:precludes?|excludes?|exclude|excluding)\b|(?:may|can|will) ?not (?:take|receive|get)\b|cannot (?:take|receive)\b|no (?:further|additional|duplicate) credit\b|credit cannot also be obtained\b|precluded from taking\b|not open (?:for credit )?to students (?:with|who have)\b)/;
const REPEATABLE = /\b(?:may|can) be (?:taken|repeated|awarded|granted) more than once\b|\bmay be repeated\b|\brepeatable\b/;
const CAP = /\bmax(?:imum|\.)?\b|\bno more than\b|\bup to \d/;
/** "If credit already received for …, credit will be X (2)", "If any two of these courses are completed, X and Y will be awarded". */
const IF_THEN_AWARD = /^if\b[^,]*,\s*(?:credit will be|the credit (?:will be|is)|.*\bwill be (?:awarded|granted)\b)/;
/** "Students in non-BEng program may be granted X", "Students entering the School of Business may request credit for X". */
const WHO_MAY = /^(students?\s+(?!may\b)\S.*?)\s+(?:may be granted|may request(?: credit for)?|will (?:get|receive) credit for|will be granted|may receive credit for)\s/;

export type Side = 'sending' | 'receiving' | 'foreign';

/**
 * Clauses after the award that limit, condition or change the credit: code lists ("A, B or C"),
 * exclusivity, preclusions, caps, repeatable courses, awards under a condition and what a bundle
 * awards when only some of its courses are completed. Each returns where it stopped, or undefined
 * when the clause is not of its kind.
 */
export class ClauseGrammar extends TargetGrammar {
  protected readonly constraints: TransferConstraint[] = [];
  protected readonly conditionalAwards: ConditionalAward[] = [];
  protected readonly partialAwards: PartialAward[] = [];
  /** The rule's sending course codes (set once the sending side is read). */
  protected sourceCodes: string[] = [];
  protected readonly sender = institutionId(this.ctx.sender);

  /** `A, B or C`, `BIOL_V 111, 121`, `HIST 214/224`, `LANG PSYC 1195 (Fall 2019) or PSYC 2329`: an institution and subject carry to the codes after them. */
  protected codeList(i: number): { value: { codes: Code[]; or: boolean }; to: number } {
    const codes: Code[] = [];
    let [j, or] = [i, false];
    let subject: string | undefined;
    let inst: string | undefined;
    const bare = (k: number) => subject !== undefined && /^\d{3,4}[A-Z]{0,2}$/.test(this.word(k) ?? '') && !this.isWords(k + 1, 'lev');
    for (;;) {
      const ref = this.refAt(j);
      if (ref && COURSE_NUMBER.test(ref.num) && !ref.lev) {
        // A code without institution after one with it shares it ("UBCV BIOL 112, MICB 201").
        inst = ref.inst ?? inst;
        codes.push(this.code(ref.subject, ref.num, inst, ref.credits, ref));
        [subject, j] = [ref.subject, ref.to];
      } else if (bare(j)) codes.push(this.code(subject!, this.word(j++)!, inst));
      else break;
      const close = this.isPunct(j, '(') ? this.tokens.slice(j, j + 6).findIndex((t) => t.kind === 'punct' && t.text === ')') : -1;
      if (close > 0) j += close + 1; // "(Fall 2019)"
      let k = this.isPunct(j, ',') ? j + 1 : j;
      if (this.isWords(k, 'or') || this.isWords(k, 'and')) [or, k] = [or || this.isWords(k, 'or'), k + 1];
      else if (k === j && this.isPunct(k, '&/')) k++;
      if (k === j || !(this.refAt(k) || bare(k))) break;
      j = k;
    }
    return { value: { codes, or }, to: j };
  }

  private code(subject: string, num: string, inst: string | undefined, credits?: number, ref?: Code['ref']): Code {
    const id = inst === undefined ? undefined : institutionId(inst);
    return { code: codeOf(subject, num), credits, ref, foreign: id !== undefined && id !== this.receiver, ...(id ? { inst: id } : {}) };
  }

  /** Every code list in tokens [from, to). */
  protected codesIn(from: number, to: number): { codes: Code[]; or: boolean } {
    const found = { codes: [] as Code[], or: false };
    for (let k = from; k < to; k++) {
      if (!this.refAt(k)) continue;
      const list = this.codeList(k);
      found.codes.push(...list.value.codes);
      found.or ||= list.value.or;
      k = Math.max(k, list.to - 1);
    }
    return found;
  }

  protected sideOf(code: Code): Side | undefined {
    if (!code.inst) return undefined;
    return code.inst === this.receiver ? 'receiving' : code.inst === this.sender ? 'sending' : 'foreign';
  }

  /**
   * Codes written without an institution take the side of the others in the sentence; alone, a
   * code of the rule's own sending courses (or of their subjects, when no target shares it) is the
   * sender's ("FINA 2150 or FINA 2250" in a Langara row), anything else the receiver's.
   */
  protected sidesOf(codes: Code[]): Side[] {
    const stated = codes.map((c) => this.sideOf(c));
    const known = stated.find((s) => s !== undefined);
    const sourceSubjects = new Set(this.sourceCodes.map((c) => c.split(' ')[0]));
    const targetSubjects = new Set(this.targets.flatMap((t) => [t.subject, ...(t.alternatives ?? []).flat().map((a) => a.subject)]));
    const ownSide = codes.some((c) => this.sourceCodes.includes(c.code)) || codes.some((c) => sourceSubjects.has(c.code.split(' ')[0]) && !targetSubjects.has(c.code.split(' ')[0]));
    return stated.map((s) => s ?? known ?? (ownSide ? 'sending' : 'receiving'));
  }

  protected sentenceText(i: number, end: number) {
    return this.slice(i, end).toLowerCase().replace(/\s+/g, ' ');
  }

  /** "HIST 265 may be taken more than once, to max. credit of 9 units", "May be taken more than once … with permission of the department". */
  protected repeatable(i: number, end: number): boolean {
    const text = this.sentenceText(i, end);
    if (!REPEATABLE.test(text)) return false;
    const named = this.codesIn(i, end).codes.find((c) => this.sideOf(c) !== 'sending' && this.sideOf(c) !== 'foreign');
    const specific = this.targets.filter((t) => t.kind === 'course' && t.code);
    const course = named?.code ?? (specific.length === 1 ? specific[0]!.code : undefined);
    if (!course) return false;
    const max = /max(?:imum|\.)?\s*(?:credit\s*)?(?:of\s*)?(\d+(?:\.\d+)?)\s*(?:units?|credits?)/.exec(text);
    const requires = /\bwith (?:the )?(?:permission|approval)\b[^.;,]*/.exec(this.slice(i, end));
    this.constraints.push({
      type: 'repeatable',
      side: 'receiving',
      courses: [course],
      ...(max ? { maxCredits: Number(max[1]) } : {}),
      ...(requires ? { requires: requires[0].trim() } : {}),
      text: this.slice(i, end),
    });
    return true;
  }

  /** "Maximum credit for LANG PSYC 2317, 2322 & 2323 is 6 credits", "Maximum of two 100 level STATS transfers permitted". */
  protected cap(i: number, end: number): boolean {
    const text = this.sentenceText(i, end);
    if (!CAP.test(text) || REPEATABLE.test(text)) return false;
    const amount = /(?:max(?:imum|\.)?|no more than|up to)\b(?:\s+(?:credit|of|is|for|transfer))*\s+(\d+(?:\.\d+)?|[a-z]+)\s*(credits?|units?)?/.exec(text);
    const trailing = /\bis\s+(\d+(?:\.\d+)?)\s*(credits?|units?)/.exec(text);
    const [value, unit] = trailing ? [trailing[1]!, trailing[2]] : amount ? [amount[1]!, amount[2]] : ['', undefined];
    const n = countOf(value);
    if (n === undefined) return false;
    const { codes } = this.codesIn(i, end);
    const sides = this.sidesOf(codes);
    const level = /\b(\d)00[- ]?level\b|\b(\d)(?:st|nd|rd|th)[- ]year\b/.exec(text);
    const subject = level ? this.tokens.slice(i, end).find((t, k) => t.kind === 'word' && /^[A-Z]{2,6}$/.test(t.text) && !this.refAt(i + k) && t.text !== 'I')?.text : undefined;
    const credits = unit !== undefined || /credits?|units?/.test(text.slice(text.indexOf(value) + value.length, text.indexOf(value) + value.length + 12));
    const subjectSide = subject && this.sourceCodes.some((c) => subject.startsWith(c.split(' ')[0]!) || c.split(' ')[0]!.startsWith(subject)) ? 'sending' : 'receiving';
    this.constraints.push({
      type: 'cap',
      side: codes.length ? (sides[0] === 'foreign' ? 'receiving' : sides[0]!) : subject ? subjectSide : 'receiving',
      courses: codes.map((c) => c.code),
      ...(credits ? { maxCredits: n } : { max: n }),
      ...(subject && level ? { subject, level: Number(level[1] ?? level[2]) } : {}),
      text: this.slice(i, end),
    });
    return true;
  }

  /**
   * "Credit is permitted for only one of A or B", "Transfer credit granted once for A or B", "Students may not receive credit for both
   * A & B": at most one of them earns credit, on the side their institution says. The receiving side also keeps the old `preclusions`.
   */
  protected oneOf(i: number, end: number, preclusions: Set<string>): boolean {
    const text = this.sentenceText(i, end);
    if (!ONE_OF.test(text) || PRECLUDES.test(text) && !/\bboth\b/.test(text)) return false;
    const { codes } = this.codesIn(i, end);
    if (codes.length < 2) return false;
    const sides = this.sidesOf(codes);
    for (const side of ['sending', 'receiving'] as const) {
      const members = [...new Set(codes.filter((_, k) => sides[k] === side).map((c) => c.code))];
      if (members.length >= 2) this.constraints.push({ type: 'one-of', side, courses: members, max: 1, text: this.slice(i, end) });
    }
    const awarded = new Set(this.targets.flatMap((t) => [t.code, ...(t.alternatives ?? []).flat().map((a) => a.code)]));
    const receiving = codes.filter((_, k) => sides[k] === 'receiving');
    // The award precludes the others of its group; a group none of whose members it awards precludes nothing by itself.
    if (receiving.some((c) => awarded.has(c.code))) for (const c of receiving) if (!awarded.has(c.code)) preclusions.add(c.code);
    return true;
  }

  /** "Precludes credit for A (3) or B (3)", "May not take TRU JAPA 2610 for additional credit", "Cannot take LANG X for further credit". */
  protected precludes(i: number, end: number, preclusions: Set<string>): boolean {
    const text = this.sentenceText(i, end);
    if (!PRECLUDES.test(text)) return false;
    const { codes } = this.codesIn(i, end);
    if (!codes.length) return /^(?:excluding|exclude|excludes?|precludes?)\b/.test(text);
    const sides = codes.map((c) => this.sideOf(c) ?? 'receiving');
    const receiving = codes.filter((_, k) => sides[k] === 'receiving').map((c) => c.code);
    const sending = codes.filter((_, k) => sides[k] === 'sending').map((c) => c.code);
    const text0 = this.slice(i, end);
    if (receiving.length) {
      receiving.forEach((code) => preclusions.add(code));
      this.constraints.push({ type: 'precludes', side: 'receiving', courses: [...new Set(receiving)], text: text0 });
    }
    // A sending course "not taken for further credit" with this one: only one of them earns credit.
    if (sending.length) this.constraints.push({ type: 'one-of', side: 'sending', courses: [...new Set([...this.sourceCodes, ...sending])], max: 1, text: text0 });
    return true;
  }

  /** Targets joined by "&", "," or "and" inside prose ("UFV ENGL 108 (3) and UFV ENGL 1XX (3) will be awarded"). */
  protected proseAward(from: number, to: number): AlternativeTarget[] {
    const found: AlternativeTarget[] = [];
    for (let k = from; k < to; k++) {
      const ref = this.refAt(k);
      if (!ref || ref.credits === undefined || ref.to > to || (ref.inst !== undefined && institutionId(ref.inst) !== this.receiver)) continue;
      found.push(this.target(ref));
      k = ref.to - 1;
    }
    return found;
  }

  /**
   * Awards under a condition written as prose: "If credit already received for X, credit will be Y (2)" (instead), "If any two of
   * these courses are completed, A (3) and B (3) will be awarded" (a partial award of a bundle), "Students in non-BEng program may
   * be granted Y (1.5)" (an option).
   */
  protected proseConditionalAward(i: number, end: number): boolean {
    const text = this.sentenceText(i, end);
    const any = /^if any (\w+) of (?:these|the(?:se)? (?:above|listed)) courses (?:are|is) (?:completed|taken)/.exec(text);
    if (any && countOf(any[1]!) !== undefined) {
      const comma = this.tokens.findIndex((t, k) => k > i && k < end && t.kind === 'punct' && t.text === ',');
      const targets = this.proseAward(comma > 0 ? comma + 1 : i, end);
      if (!targets.length) return false;
      this.partialAwards.push({ count: countOf(any[1]!)!, targets, text: this.slice(i, end) });
      return true;
    }
    if (IF_THEN_AWARD.test(text)) {
      const comma = this.tokens.findIndex((t, k) => k > i && k < end && t.kind === 'punct' && t.text === ',');
      const targets = comma > 0 ? this.proseAward(comma + 1, end) : [];
      if (!targets.length) return false;
      this.conditionalAwards.push({ targets, condition: this.slice(i, comma), mode: 'instead' });
      return true;
    }
    const who = WHO_MAY.exec(text);
    if (who) {
      const verb = this.tokens.findIndex((t, k) => k > i && k < end && /^(?:may|will)$/i.test(t.text));
      const targets = this.proseAward(verb, end);
      const named = targets.length ? targets : this.namedTargets(verb, end);
      if (!named.length) return false;
      this.conditionalAwards.push({ targets: named, condition: this.slice(i, verb), mode: 'option' });
      return true;
    }
    return false;
  }

  /** Receiving codes written without credits ("will get credit for NURS 206"), with the credits the rule gives that course. */
  private namedTargets(from: number, to: number): AlternativeTarget[] {
    const all = [...this.targets, ...this.targets.flatMap((t) => t.alternatives?.flat() ?? [])];
    return this.codesIn(from, to)
      .codes.filter((c) => this.sideOf(c) !== 'sending' && this.sideOf(c) !== 'foreign')
      .flatMap((c) => all.filter((t) => t.code === c.code).slice(0, 1))
      .map(({ alternatives: _alternatives, ...t }: AlternativeTarget & { alternatives?: unknown }) => t);
  }

  /**
   * An award named without credits for a program ("BUSI 2XX for the AA program", "HIST 2XX (AA)"): the same credit as the main
   * award, instead of it, for that program.
   */
  protected programAlternative(i: number): number | undefined {
    const ref = this.refAt(i);
    const main = this.targets.filter((t) => t.credits !== null);
    if (!ref || ref.credits !== undefined || main.length !== 1 || (ref.inst !== undefined && institutionId(ref.inst) !== this.receiver)) return undefined;
    let end: number;
    if (this.isWords(ref.to, 'for')) {
      end = this.sentenceEnd(ref.to, true);
      if (!/\b(?:programs?|students|majors?|only)\b/i.test(this.slice(ref.to, end))) return undefined;
    } else if (this.isPunct(ref.to, '(') && this.isPunct(ref.to + 2, ')') && /^[A-Z][A-Za-z]{1,6}$/.test(this.word(ref.to + 1) ?? '')) end = ref.to + 3;
    else return undefined;
    const target = { ...this.target({ ...ref, credits: main[0]!.credits! }), text: this.slice(i, ref.to) };
    this.conditionalAwards.push({ targets: [target], condition: this.slice(ref.to, end), mode: 'instead' });
    return end;
  }

  /** "BIOL 201 (3) with one of LANG CHEM 2216, CHEM 2316 or CHEM 2416" after "X (3), if taken alone;": another outcome, not more credit. */
  protected qualifiedAlternative(i: number, afterSemicolon: boolean): number | undefined {
    const ref = this.refAt(i);
    if (!ref || ref.credits === undefined || (ref.inst !== undefined && institutionId(ref.inst) !== this.receiver)) return undefined;
    const qualifier = this.isWords(ref.to, 'with') || this.isWords(ref.to, 'if') || this.isWords(ref.to, 'when');
    const lastConditional = this.targets.some((t) => t.note && /^(?:if|when|with)\b/i.test(t.note));
    if (!qualifier || !(afterSemicolon || lastConditional)) return undefined;
    const end = this.sentenceEnd(ref.to);
    this.conditionalAwards.push({ targets: [this.target(ref)], condition: this.slice(ref.to, end), mode: 'instead' });
    return end;
  }

  /** `awarded`: receiving codes the rule itself awards, which its own "precludes" list does not take away. */
  protected parsedExtras(awarded: Set<string | undefined>) {
    const constraints = this.constraints
      .map((c) => (c.type === 'precludes' ? { ...c, courses: c.courses.filter((code) => !awarded.has(code)) } : c))
      .filter((c) => c.courses.length || c.type === 'cap');
    return {
      ...(constraints.length ? { constraints } : {}),
      ...(this.conditionalAwards.length ? { conditionalAwards: this.conditionalAwards } : {}),
      ...(this.partialAwards.length ? { partialAwards: this.partialAwards } : {}),
    };
  }
}

